import { getConfigStore } from "@/lib/config/store";
import { auditConfigSave } from "@/lib/audit";
import { errorResponse, HttpError, requestOrigin } from "@/lib/http/http";
import { removeServerFromConfigText, setServerEnabledInConfigText } from "@/lib/servers/config-edit";
import { z } from "zod";
import { readJson } from "@/lib/http/http";
import { guarded } from "@/lib/studio/guarded";
import { getStudio } from "@/lib/studio/studio";

export const dynamic = "force-dynamic";

/** Removes a server from the runtime config and disconnects it; its run history stays. */
export const DELETE = guarded<{ name: string }>("/api/servers/[name]", "DELETE", async (req, { params, principal }) => {
  const { name } = params;
  const studio = await getStudio();
  const store = getConfigStore();
  const before = store.current();
  const text = removeServerFromConfigText(store.raw(), name);
  if (text === null) return errorResponse(404, "not_found", `No MCP server named "${name}" in the config.`);
  const saved = store.save(text, { expectedVersion: before.version });
  if (!saved.ok) throw new HttpError(saved.error.kind === "conflict" ? 409 : 400, "bad_request", saved.error.message);
  // Recorded as an API save (before any await), so the disk watcher does not log it again.
  await auditConfigSave(studio.audit, store, saved.state, { text, actor: principal.actor, from: requestOrigin(req) });
  await studio.audit.append({
    actor: principal.actor,
    action: "server.remove",
    target: name,
    ...(principal.userId ? { detail: { userId: principal.userId } } : {}),
    from: requestOrigin(req),
  });
  await studio.mcp.sync(saved.state.config.mcpServers);
  return Response.json({ removed: name });
});

const Patch = z.strictObject({ enabled: z.boolean() });

/** Enables or disables a server (in the runtime config); a disabled server is listed but not connected. */
export const PATCH = guarded<{ name: string }>("/api/servers/[name]", "PATCH", async (req, { params, principal }) => {
  const { name } = params;
  const { enabled } = await readJson(req, Patch);
  const studio = await getStudio();
  const store = getConfigStore();
  const before = store.current();
  const text = setServerEnabledInConfigText(store.raw(), name, enabled);
  if (text === null) return errorResponse(404, "not_found", `No MCP server named "${name}" in the config.`);
  const saved = store.save(text, { expectedVersion: before.version });
  if (!saved.ok) throw new HttpError(saved.error.kind === "conflict" ? 409 : 400, "bad_request", saved.error.message);
  await auditConfigSave(studio.audit, store, saved.state, { text, actor: principal.actor, from: requestOrigin(req) });
  await studio.audit.append({
    actor: principal.actor,
    action: enabled ? "server.enable" : "server.disable",
    target: name,
    ...(principal.userId ? { detail: { userId: principal.userId } } : {}),
    from: requestOrigin(req),
  });
  await studio.mcp.sync(saved.state.config.mcpServers);
  return Response.json({ server: studio.mcp.state(name) });
});
