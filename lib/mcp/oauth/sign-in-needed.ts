import { UnauthorizedError } from "@modelcontextprotocol/client";

/** What a server's state says while a person has to sign in (the "Sign in" button on its page). */
export const SIGN_IN_REQUIRED = "Sign-in required: the server asks for OAuth authorization. An admin signs the studio in with Sign in.";

/**
 * True when the SDK gave up for want of a browser sign-in: the server answered 401 and no stored
 * token or refresh got past it (the SDK's `UnauthorizedError`, possibly as the cause of another).
 */
export function isSignInNeeded(err: unknown): boolean {
  let e: unknown = err;
  for (let depth = 0; depth < 4 && e !== undefined && e !== null; depth++) {
    if (UnauthorizedError.isInstance(e)) return true;
    e = e instanceof Error ? e.cause : undefined;
  }
  return false;
}
