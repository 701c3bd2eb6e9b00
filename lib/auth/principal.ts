import type { Role } from "./roles";

/**
 * Who is calling, as the server established it (never as the client claims):
 *   session     a person signed in through the browser (origin `ui`)
 *   token       a person's API token (origin `api`, or `mcp` on /api/mcp)
 *   admin-token STUDIO_ADMIN_TOKEN, for automation (admin role, no user)
 *   mcp-token   STUDIO_MCP_TOKEN, accepted on /api/mcp only (runner role, no user)
 */
export type PrincipalVia = "session" | "token" | "admin-token" | "mcp-token";

export interface Principal {
  via: PrincipalVia;
  role: Role;
  /** The user's id; null for the environment tokens. */
  userId: string | null;
  /** What runs and audit entries name: the user's email, or the environment token's name. */
  actor: string;
  name: string;
  /** The API token used (its id and name), when there was one. */
  tokenId: string | null;
  tokenName: string | null;
}

export const ADMIN_TOKEN_ACTOR = "token:STUDIO_ADMIN_TOKEN";
export const MCP_TOKEN_ACTOR = "token:STUDIO_MCP_TOKEN";

/**
 * A run's origin on REST: `ui` for a call made by the studio's own pages, `api` otherwise. A
 * browser session is always the UI; a token may be too (a headless browser given STUDIO_ADMIN_TOKEN
 * sends it on the pages' own fetches), which the browser tells by `Sec-Fetch-Site: same-origin`
 * (scripts and other sites do not send it so). A label for history, not a permission.
 */
export function restOrigin(principal: Pick<Principal, "via">, headers: Headers): "ui" | "api" {
  return principal.via === "session" || headers.get("sec-fetch-site") === "same-origin" ? "ui" : "api";
}

/** How pages show an actor: the environment tokens by a readable name (runs and entries store the `token:` form). */
export function actorLabel(actor: string): string {
  if (actor === ADMIN_TOKEN_ACTOR) return "Admin token (STUDIO_ADMIN_TOKEN)";
  if (actor === MCP_TOKEN_ACTOR) return "MCP token (STUDIO_MCP_TOKEN)";
  return actor;
}

/** Why a presented credential was not accepted: each answers 401 with its own message. */
export type CredentialProblem = "invalid" | "expired" | "revoked";

export type Identification = { principal: Principal } | { principal: null; problem?: CredentialProblem; message?: string };
