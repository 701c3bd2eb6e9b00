import { z } from "zod";
import { readJson, requestOrigin } from "@/lib/http/http";
import { removeServerFromConfigText, setServerEnabledInConfigText } from "@/lib/servers/config-edit";
import { applyServerEdit, serverNameParam } from "@/lib/servers/apply";
import { guarded } from "@/lib/studio/guarded";
import { getStudio } from "@/lib/studio/studio";

export const dynamic = "force-dynamic";

/** Removes a server from the runtime config and disconnects it; its run history stays. */
export const DELETE = guarded<{ name: string }>("/api/servers/[name]", "DELETE", async (req, { params, principal }) => {
  serverNameParam(params.name);
  const studio = await getStudio();
  await applyServerEdit(
    { config: studio.config, audit: studio.audit, mcp: studio.mcp },
    (text) => removeServerFromConfigText(text, params.name),
    { actor: principal.actor, userId: principal.userId, from: requestOrigin(req) },
    { action: "server.remove", target: params.name },
  );
  return Response.json({ removed: params.name });
});

const Patch = z.strictObject({ enabled: z.boolean() });

/** Enables or disables a server (in the runtime config); a disabled server is listed but not connected. */
export const PATCH = guarded<{ name: string }>("/api/servers/[name]", "PATCH", async (req, { params, principal }) => {
  serverNameParam(params.name);
  const { enabled } = await readJson(req, Patch);
  const studio = await getStudio();
  await applyServerEdit(
    { config: studio.config, audit: studio.audit, mcp: studio.mcp },
    (text) => setServerEnabledInConfigText(text, params.name, enabled),
    { actor: principal.actor, userId: principal.userId, from: requestOrigin(req) },
    { action: enabled ? "server.enable" : "server.disable", target: params.name },
  );
  return Response.json({ server: studio.mcp.state(params.name) });
});
