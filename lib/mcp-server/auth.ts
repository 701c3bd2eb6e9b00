import { createHash, timingSafeEqual } from "node:crypto";

/**
 * Who may use the studio's MCP endpoint. Bound to loopback, only local processes can reach it,
 * so a token is optional (but enforced once STUDIO_MCP_TOKEN is set). Bound to anything else, a
 * bearer token is required, and without one configured the endpoint refuses to serve at all.
 */

const LOOPBACK = new Set(["127.0.0.1", "localhost", "::1", "[::1]"]);
const REALM = "tool-studio";

export interface McpAuthConfig {
  /** The address the studio listens on (STUDIO_HOST, default 127.0.0.1). */
  listenHost: string;
  /** STUDIO_MCP_TOKEN; unset or blank means none. */
  token?: string;
}

export function mcpAuthConfigFromEnv(env: Record<string, string | undefined> = process.env): McpAuthConfig {
  const token = env.STUDIO_MCP_TOKEN?.trim();
  return { listenHost: (env.STUDIO_HOST?.trim() || "127.0.0.1").toLowerCase(), token: token || undefined };
}

export const bindsLoopback = (cfg: McpAuthConfig): boolean => LOOPBACK.has(cfg.listenHost);

/** Null when the request may be served; otherwise the 401/503 answer. */
export function checkMcpAuth(request: Request, cfg: McpAuthConfig): Response | null {
  if (!cfg.token) {
    if (bindsLoopback(cfg)) return null;
    return Response.json(
      {
        error: "mcp_disabled",
        error_description:
          `The MCP endpoint is disabled: the studio listens on ${cfg.listenHost}, not on loopback, and STUDIO_MCP_TOKEN is not set. ` +
          "Set STUDIO_MCP_TOKEN to a long random secret and send it as `Authorization: Bearer <token>`.",
      },
      { status: 503, headers: { "cache-control": "no-store" } },
    );
  }
  const presented = bearerToken(request.headers.get("authorization"));
  if (presented === null) {
    return unauthorized(`Bearer realm="${REALM}"`, "unauthorized", "This MCP endpoint requires `Authorization: Bearer <STUDIO_MCP_TOKEN>`.");
  }
  if (!sameSecret(presented, cfg.token)) {
    return unauthorized(`Bearer realm="${REALM}", error="invalid_token"`, "invalid_token", "The bearer token is not valid.");
  }
  return null;
}

/** The token of an `Authorization: Bearer <token>` header, else null. */
function bearerToken(header: string | null): string | null {
  const m = header?.match(/^\s*Bearer\s+(\S+)\s*$/i);
  return m ? m[1] : null;
}

/** Constant-time comparison: both sides are hashed first, so neither content nor length leaks. */
function sameSecret(presented: string, expected: string): boolean {
  const a = createHash("sha256").update(presented, "utf8").digest();
  const b = createHash("sha256").update(expected, "utf8").digest();
  return timingSafeEqual(a, b);
}

function unauthorized(challenge: string, error: string, description: string): Response {
  return Response.json(
    { error, error_description: description },
    { status: 401, headers: { "www-authenticate": challenge, "cache-control": "no-store" } },
  );
}
