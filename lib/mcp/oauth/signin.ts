import { StudioError } from "../../errors/errors";
import { randomBytes } from "node:crypto";
import { auth, type FetchLike } from "@modelcontextprotocol/client";
import { OAuthFetchGuard } from "./fetch-guard";
import { StudioOAuthProvider, redirectUrlFor } from "./provider";
import type { StoredOAuthTokens } from "@modelcontextprotocol/client";
import type { OAuthStore, OAuthTarget } from "./store";

/** An HTTP MCP server entry of the config, as far as OAuth needs it. */
export interface OAuthServer {
  name: string;
  transport: "http" | "stdio";
  url?: string;
  oauth?: false | { scope?: string };
}

export interface OAuthDeps {
  store: OAuthStore;
  /** The studio's public URL (callbacks go to {baseUrl}/api/servers/{name}/oauth/callback). */
  baseUrl: string;
  /** For tests: how the authorization server and the MCP server are reached. */
  fetchFn?: FetchLike;
}

/** Why a sign-in cannot start or finish; `status` is the HTTP answer it becomes. */
export class OAuthFlowError extends StudioError {
  static override readonly tag: string = "OAuthFlowError";
  constructor(kind: "bad_request" | "forbidden" | "not_found" | "conflict" | "provider", message: string) {
    super(kind, message);
  }
}

/** The server's OAuth target, or why it has none (unknown, stdio, OAuth turned off). */
export function oauthTarget(server: OAuthServer | undefined, name: string): OAuthTarget & { scope?: string } {
  if (!server) throw new OAuthFlowError("not_found", `No MCP server named "${name}".`);
  if (server.transport !== "http" || !server.url)
    throw new OAuthFlowError("conflict", `MCP server "${name}" is reached over stdio: OAuth is for remote (HTTP) servers.`);
  if (server.oauth === false) throw new OAuthFlowError("conflict", `OAuth is turned off for MCP server "${name}" ("oauth": false in the config).`);
  return { server: name, url: server.url, scope: server.oauth?.scope };
}

/** The provider a connection to `server` presents its tokens with (undefined: no OAuth for it). */
export function connectionProvider(deps: OAuthDeps, server: OAuthServer): StudioOAuthProvider | undefined {
  if (server.transport !== "http" || !server.url || server.oauth === false) return undefined;
  return new StudioOAuthProvider(
    deps.store,
    { server: server.name, url: server.url },
    { redirectUrl: redirectUrlFor(deps.baseUrl, server.name), scope: server.oauth?.scope },
  );
}

/**
 * Starts the authorization-code flow with PKCE for one server: the SDK discovers the
 * authorization server (from the server's protected resource metadata), registers the studio
 * as a client when it has no registration yet, and builds the authorization URL. The `state`
 * (as its SHA-256) and the verifier (sealed) are stored with who started it; the browser goes
 * to `authorizationUrl`. When stored tokens could simply be refreshed, no browser trip is needed.
 */
export async function startSignIn(
  deps: OAuthDeps,
  server: OAuthServer | undefined,
  name: string,
  actor: string,
): Promise<{ authorizationUrl: string } | { authorized: true; tokens: HeldTokens | null }> {
  const target = oauthTarget(server, name);
  const state = randomBytes(32).toString("base64url");
  const provider = new StudioOAuthProvider(deps.store, target, {
    redirectUrl: redirectUrlFor(deps.baseUrl, name),
    scope: target.scope,
    state,
    holdTokens: true,
  });
  let result: Awaited<ReturnType<typeof auth>>;
  try {
    result = await auth(provider, { serverUrl: target.url, scope: target.scope, fetchFn: guardedFetch(deps, target.url) });
  } catch (err) {
    throw new OAuthFlowError("provider", `Could not start signing in to MCP server "${name}": ${describe(err)}`);
  }
  if (result === "AUTHORIZED") return { authorized: true, tokens: held(provider) };
  if (!provider.authorizationUrl || !provider.pendingVerifier)
    throw new OAuthFlowError("provider", `The sign-in to MCP server "${name}" did not produce an authorization URL.`);
  await deps.store.createFlow(state, { server: name, url: target.url, verifier: provider.pendingVerifier, actor });
  return { authorizationUrl: provider.authorizationUrl.href };
}

export interface CallbackParams {
  state?: string | null;
  code?: string | null;
  iss?: string | null;
  error?: string | null;
}

/**
 * The authorization server sent the browser back: the `state` must be one this studio issued
 * for this server, unexpired and unused, started by the same person; then the SDK checks the
 * issuer (RFC 9207) and exchanges the code with the stored verifier, and the tokens are saved.
 * The authorization server's own error text is not repeated (it is not trusted): only its code.
 */
export async function finishSignIn(
  deps: OAuthDeps,
  server: OAuthServer | undefined,
  name: string,
  params: CallbackParams,
  actor: string,
): Promise<HeldTokens | null> {
  if (!params.state) throw new OAuthFlowError("bad_request", "The sign-in callback has no state.");
  const flow = await deps.store.takeFlow(params.state);
  if (!flow || flow.server !== name) throw new OAuthFlowError("bad_request", "This sign-in is unknown, used or expired: start it again with Sign in.");
  if (flow.actor !== actor) throw new OAuthFlowError("forbidden", "This sign-in was started by someone else.");
  const target = oauthTarget(server, name);
  if (target.url !== flow.url) throw new OAuthFlowError("conflict", `MCP server "${name}" changed its URL during the sign-in: start it again.`);
  if (params.error) {
    const code = /^[A-Za-z0-9_.-]{1,64}$/.test(params.error) ? params.error : "an error";
    throw new OAuthFlowError("bad_request", `The authorization server refused the sign-in (${code}).`);
  }
  if (!params.code) throw new OAuthFlowError("bad_request", "The sign-in callback has no authorization code.");
  const provider = new StudioOAuthProvider(deps.store, target, {
    redirectUrl: redirectUrlFor(deps.baseUrl, name),
    scope: target.scope,
    verifier: flow.verifier,
    holdTokens: true,
  });
  try {
    await auth(provider, {
      serverUrl: target.url,
      scope: target.scope,
      authorizationCode: params.code,
      iss: params.iss ?? undefined,
      fetchFn: guardedFetch(deps, target.url),
    });
  } catch (err) {
    throw new OAuthFlowError("provider", `Signing in to MCP server "${name}" failed: ${describe(err)}`);
  }
  return held(provider);
}

/**
 * The tokens a person's sign-in obtained, not stored yet: the caller stores them with the
 * sign-in's audit entry (`store.in(tx).saveTokens(target, tokens)`).
 */
export interface HeldTokens {
  target: OAuthTarget;
  tokens: StoredOAuthTokens;
}

const held = (p: StudioOAuthProvider): HeldTokens | null => (p.heldTokens ? { target: p.target, tokens: p.heldTokens } : null);

/**
 * Forgets the server's tokens (sign-out) and any sign-in in progress; the client registration is
 * kept for the next sign-in. False when no tokens were kept.
 */
export async function signOut(deps: Pick<OAuthDeps, "store">, server: OAuthServer | undefined, name: string): Promise<boolean> {
  const target = oauthTarget(server, name);
  const had = await deps.store.signedIn(target);
  await deps.store.forget(name, "tokens");
  await deps.store.dropFlows(name);
  return had;
}

/** The sign-in fetches what a connection's OAuth may (lib/mcp/oauth/fetch-guard.ts), no more. */
const guardedFetch = (deps: OAuthDeps, url: string): FetchLike => new OAuthFetchGuard(url, deps.fetchFn ?? ((u, init) => fetch(u, init))).fetch;

/** An error's message without anything a server could have put there at length. */
function describe(err: unknown): string {
  const text = err instanceof Error ? err.message || err.name : String(err);
  return text.replace(/\s+/g, " ").slice(0, 300);
}
