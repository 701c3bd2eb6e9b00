import { requestOrigin } from "@/lib/http/http";
import { beginServerSignIn, serverSignOut, type ServerOAuthDeps } from "@/lib/servers/oauth";
import { guarded } from "@/lib/studio/guarded";
import { getStudio } from "@/lib/studio/studio";

export const dynamic = "force-dynamic";

async function deps(): Promise<ServerOAuthDeps> {
  const studio = await getStudio();
  return { oauth: studio.oauth, mcp: studio.mcp, audit: studio.audit, servers: () => studio.config.store.current().config.mcpServers };
}

/**
 * Starts signing the studio in to a remote MCP server (OAuth authorization code with PKCE):
 * `{"authorizationUrl"}` for the browser to open, or `{"authorized": true}` when kept tokens
 * could be refreshed without one.
 */
export const POST = guarded<{ name: string }>("/api/servers/[name]/oauth", "POST", async (req, { params, principal }) => {
  const result = await beginServerSignIn(await deps(), params.name, { actor: principal.actor, userId: principal.userId, from: requestOrigin(req) });
  return Response.json(result, { headers: { "cache-control": "no-store" } });
});

/** Signs out: forgets the server's tokens (audited) and reconnects it without them. */
export const DELETE = guarded<{ name: string }>("/api/servers/[name]/oauth", "DELETE", async (req, { params, principal }) => {
  const result = await serverSignOut(await deps(), params.name, { actor: principal.actor, userId: principal.userId, from: requestOrigin(req) });
  return Response.json(result, { headers: { "cache-control": "no-store" } });
});
