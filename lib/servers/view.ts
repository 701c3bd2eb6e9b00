import { roleAtLeast, type Role } from "../auth/roles";
import { SIGN_IN_FAILED } from "../mcp/oauth/sign-in-needed";

/**
 * A server's state as `role` may see it: why its OAuth failed (an authorization server's status,
 * a URL the studio refused to fetch) is for admins, who can act on it; others see that sign-in
 * failed. Everything else is the same for everyone.
 */
export function serverStateFor<S extends { error?: string; authFailed?: boolean }>(state: S, role: Role): S {
  if (!state.authFailed || roleAtLeast(role, "admin")) return state;
  return { ...state, error: SIGN_IN_FAILED };
}

export const serverStatesFor = <S extends { error?: string; authFailed?: boolean }>(states: readonly S[], role: Role): S[] =>
  states.map((s) => serverStateFor(s, role));
