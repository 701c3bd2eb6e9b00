import { McpServer } from "@/lib/config/schema";
import { readJson, requestOrigin } from "@/lib/http/http";
import { addServerToConfigText } from "@/lib/servers/config-edit";
import { applyServerEdit } from "@/lib/servers/apply";
import { serverStatesFor } from "@/lib/servers/view";
import { guarded } from "@/lib/studio/guarded";
import { getStudio } from "@/lib/studio/studio";

export const dynamic = "force-dynamic";

/** Every MCP server with its live state (connecting, connected, failed with reason and stderr). */
export const GET = guarded("/api/servers", "GET", async (_req, { principal }) => {
  const studio = await getStudio();
  return Response.json({ servers: serverStatesFor(studio.mcp.states(), principal.role) }, { headers: { "Cache-Control": "no-store" } });
});

/** Adds a server: written into the runtime config (so it persists), then connected. */
export const POST = guarded("/api/servers", "POST", async (req, { principal }) => {
  const entry = await readJson(req, McpServer);
  const studio = await getStudio();
  await applyServerEdit(
    { config: studio.config, audit: studio.audit, mcp: studio.mcp },
    (text) => addServerToConfigText(text, entry),
    { actor: principal.actor, userId: principal.userId, from: requestOrigin(req) },
    { action: "server.add", target: entry.name, detail: { transport: entry.transport } },
  );
  return Response.json({ server: studio.mcp.state(entry.name) }, { status: 201 });
});
