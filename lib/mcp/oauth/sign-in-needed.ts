import { OAuthClientFlowError, OAuthError, UnauthorizedError } from "@modelcontextprotocol/client";

/** What a server's state says while a person has to sign in (the "Sign in" button on its page). */
export const SIGN_IN_REQUIRED = "Sign-in required: the server asks for OAuth authorization. An admin signs the studio in with Sign in.";

/** The error and its causes, a few levels deep. */
function* chain(err: unknown): Generator<unknown> {
  let e: unknown = err;
  for (let depth = 0; depth < 4 && e !== undefined && e !== null; depth++) {
    yield e;
    e = e instanceof Error ? e.cause : undefined;
  }
}

/**
 * What viewers and runners are shown instead of why a server's OAuth failed: the reason (an
 * authorization server's status, a URL the studio refused) is for admins (lib/servers/view.ts).
 */
export const SIGN_IN_FAILED = "Sign-in failed: the server asks for OAuth authorization and it could not be completed. An admin sees why on this server's page.";

/**
 * True when the SDK gave up for want of a browser sign-in: the server answered 401 and no stored
 * token or refresh got past it (the SDK's `UnauthorizedError`, possibly as the cause of another).
 */
export function isSignInNeeded(err: unknown): boolean {
  for (const e of chain(err)) if (UnauthorizedError.isInstance(e)) return true;
  return false;
}

/**
 * Why a connection attempt failed when the server answered 401 and the OAuth flow could not get
 * going (no authorization server found, registration refused, ...), said as such: a server that
 * takes a fixed credential rather than OAuth needs it in `headers` and `"oauth": false`.
 * Undefined for any other failure.
 */
export function oauthFailure(err: unknown): string | undefined {
  for (const e of chain(err)) {
    if (e instanceof Error && e.name === "OAuthUrlRefusedError") return `The server answered 401 and the studio refused to follow it: ${e.message}.`;
    if (OAuthClientFlowError.isInstance(e) || OAuthError.isInstance(e)) {
      const why = (e as Error).message.replace(/\s+/g, " ").slice(0, 300);
      return `The server answered 401 and OAuth could not start: ${why}. A server that takes a fixed credential instead needs it in "headers", with "oauth": false.`;
    }
  }
  return undefined;
}
