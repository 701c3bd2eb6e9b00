import type { AuditAppend, AuditLog } from "../audit/log";
import type { McpServerConfig } from "../mcp/connection";
import { finishSignIn, oauthTarget, signOut, startSignIn, type CallbackParams, type HeldTokens, type OAuthDeps } from "../mcp/oauth";
import type { McpView } from "../mcp/source";

/**
 * Signing the studio in to a remote MCP server with OAuth, from its page: start (the browser
 * goes to the authorization server), the callback (tokens stored, the server reconnected), and
 * sign-out. Each sign-in and sign-out is audited ("server.oauth.signin" / "signout") without any
 * token, code or verifier.
 */
export interface ServerOAuthDeps {
  oauth: OAuthDeps;
  mcp: Pick<McpView, "restart" | "connection">;
  audit: AuditLog;
  /** The config's servers, read at each use. */
  servers: () => readonly McpServerConfig[];
}

export interface Who {
  actor: string;
  userId?: string | null;
  from: string | null;
}

/** How long the callback waits for the reconnected server before sending the browser back. */
const RECONNECT_WAIT_MS = 10_000;

const find = (deps: Pick<ServerOAuthDeps, "servers">, name: string) => deps.servers().find((s) => s.name === name);

export async function beginServerSignIn(deps: ServerOAuthDeps, name: string, who: Who): Promise<{ authorizationUrl: string } | { authorized: true }> {
  const result = await startSignIn(deps.oauth, find(deps, name), name, who.actor);
  if (!("authorized" in result)) return result;
  // The kept tokens could be refreshed: no browser trip was needed.
  await signedIn(deps, name, who, result.tokens, { refreshed: true });
  await reconnect(deps, name);
  return { authorized: true };
}

export async function completeServerSignIn(deps: ServerOAuthDeps, name: string, params: CallbackParams, who: Who): Promise<void> {
  const tokens = await finishSignIn(deps.oauth, find(deps, name), name, params, who.actor);
  await signedIn(deps, name, who, tokens, {});
  await reconnect(deps, name);
}

export async function serverSignOut(deps: ServerOAuthDeps, name: string, who: Who): Promise<{ signedOut: boolean }> {
  // The tokens are forgotten with the entry, or not at all.
  const hadTokens = await deps.audit.appendWith(
    (tx) => signOut({ store: deps.oauth.store.in(tx) }, find(deps, name), name),
    (had) => entry(deps, "server.oauth.signout", name, who, { hadTokens: had }),
  );
  await reconnect(deps, name);
  return { signedOut: hadTokens };
}

/** The sign-in's tokens stored with its entry, in one transaction: no tokens kept without their "server.oauth.signin". */
async function signedIn(deps: ServerOAuthDeps, name: string, who: Who, held: HeldTokens | null, detail: Record<string, unknown>): Promise<void> {
  await deps.audit.appendWith(
    async (tx) => {
      if (held) await deps.oauth.store.in(tx).saveTokens(held.target, held.tokens);
    },
    () => entry(deps, "server.oauth.signin", name, who, detail),
  );
}

/** Whether tokens are kept for the server (never the tokens); false for servers without OAuth. */
export async function serverSignedIn(deps: Pick<ServerOAuthDeps, "oauth" | "servers">, name: string): Promise<boolean> {
  const server = find(deps, name);
  if (server?.transport !== "http" || server.oauth === false) return false;
  return deps.oauth.store.signedIn(oauthTarget(server, name));
}

function entry(
  deps: ServerOAuthDeps,
  action: "server.oauth.signin" | "server.oauth.signout",
  name: string,
  who: Who,
  detail: Record<string, unknown>,
): AuditAppend {
  const server = find(deps, name);
  const url = server?.transport === "http" ? server.url : undefined;
  return {
    actor: who.actor,
    action,
    target: name,
    detail: { url, ...(who.userId ? { userId: who.userId } : {}), ...detail },
    from: who.from,
  };
}

/** Connects the server afresh here (with the new tokens, or without), waiting a moment for the outcome. */
async function reconnect(deps: ServerOAuthDeps, name: string): Promise<void> {
  if (!(await deps.mcp.restart(name))) return;
  await deps.mcp
    .connection(name)
    ?.waitFor((s) => s.state === "connected" || (s.state === "failed" && s.failures > 0), RECONNECT_WAIT_MS)
    .catch(() => undefined);
}
