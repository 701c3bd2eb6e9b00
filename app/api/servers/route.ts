import { McpServer } from "@/lib/config/schema";
import { getConfigStore } from "@/lib/config/store";
import { auditConfigSave } from "@/lib/audit";
import { HttpError, readJson, requestOrigin } from "@/lib/http/http";
import { addServerToConfigText } from "@/lib/servers/config-edit";
import { guarded } from "@/lib/studio/guarded";
import { getStudio } from "@/lib/studio/studio";

export const dynamic = "force-dynamic";

/** Every MCP server with its live state (connecting, connected, failed with reason and stderr). */
export const GET = guarded("/api/servers", "GET", async () => {
  const studio = await getStudio();
  return Response.json({ servers: studio.mcp.states() }, { headers: { "Cache-Control": "no-store" } });
});

/** Adds a server: written into the runtime config (so it persists), then connected. */
export const POST = guarded("/api/servers", "POST", async (req, { principal }) => {
  const entry = await readJson(req, McpServer);
  const studio = await getStudio();
  const store = getConfigStore();
  const before = store.current();
  let text: string;
  try {
    text = addServerToConfigText(store.raw(), entry);
  } catch (err) {
    throw new HttpError(409, "bad_request", (err as Error).message);
  }
  const saved = store.save(text, { expectedVersion: before.version });
  if (!saved.ok) throw new HttpError(saved.error.kind === "conflict" ? 409 : 400, "bad_request", saved.error.message);
  // Recorded as an API save (before any await), so the disk watcher does not log it again.
  await auditConfigSave(studio.audit, store, saved.state, { text, actor: principal.actor, from: requestOrigin(req) });
  await studio.audit.append({
    actor: principal.actor,
    action: "server.add",
    target: entry.name,
    detail: { transport: entry.transport, ...(principal.userId ? { userId: principal.userId } : {}) },
    from: requestOrigin(req),
  });
  await studio.mcp.sync(saved.state.config.mcpServers);
  return Response.json({ server: studio.mcp.state(entry.name) }, { status: 201 });
});
