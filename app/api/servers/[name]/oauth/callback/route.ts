import { requestOrigin } from "@/lib/http/http";
import { OAuthFlowError } from "@/lib/mcp/oauth";
import { completeServerSignIn } from "@/lib/servers/oauth";
import { guarded } from "@/lib/studio/guarded";
import { getStudio } from "@/lib/studio/studio";

export const dynamic = "force-dynamic";

/**
 * Where the authorization server sends the browser back after a server's sign-in: checks the
 * state, exchanges the code, stores the tokens, reconnects the server, then sends the browser to
 * the server's page (with `?signin=ok`, or `?signin_error=` and why).
 */
export const GET = guarded<{ name: string }>("/api/servers/[name]/oauth/callback", "GET", async (req, { params, principal }) => {
  const q = new URL(req.url).searchParams;
  const studio = await getStudio();
  const page = `/servers/${encodeURIComponent(params.name)}`;
  try {
    await completeServerSignIn(
      { oauth: studio.oauth, mcp: studio.mcp, audit: studio.audit, servers: () => studio.config.store.current().config.mcpServers },
      params.name,
      { state: q.get("state"), code: q.get("code"), iss: q.get("iss"), error: q.get("error") },
      { actor: principal.actor, userId: principal.userId, from: requestOrigin(req) },
    );
  } catch (err) {
    if (!OAuthFlowError.isInstance(err)) throw err;
    return back(`${page}?signin_error=${encodeURIComponent(err.message)}`);
  }
  return back(`${page}?signin=ok`);
});

const back = (location: string) => new Response(null, { status: 303, headers: { location, "cache-control": "no-store", "referrer-policy": "no-referrer" } });
