/**
 * The first checks of the one door (lib/auth/door.ts): a request must name this studio in its
 * Host header (DNS rebinding: a name that resolves to our address must not reach us), and
 * another web site must not make the user's browser write to the studio (cross-site requests).
 */

const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]", "::1"]);
const WILDCARD = new Set(["0.0.0.0", "::", "[::]"]);
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

export interface GuardInput {
  method: string;
  /** The Host header. */
  host: string | null;
  origin: string | null;
  secFetchSite: string | null;
  /** The path, for the cross-site read rule of the API. */
  pathname?: string;
}

export interface GuardConfig {
  /** Extra host names the studio may be reached by (STUDIO_ALLOWED_HOSTS, comma-separated). */
  allowedHosts: string[];
  /** The address the studio listens on (STUDIO_HOST). */
  listenHost: string;
  /** The host name of STUDIO_PUBLIC_URL, when set. */
  publicHost: string | null;
}

export function guardConfigFromEnv(env: Record<string, string | undefined> = process.env): GuardConfig {
  let publicHost: string | null = null;
  if (env.STUDIO_PUBLIC_URL) {
    try {
      publicHost = new URL(env.STUDIO_PUBLIC_URL).hostname.toLowerCase();
    } catch {
      publicHost = null; // reported at start by bindProblem()
    }
  }
  return {
    allowedHosts: (env.STUDIO_ALLOWED_HOSTS ?? "")
      .split(",")
      .map((h) => h.trim().toLowerCase())
      .filter(Boolean),
    listenHost: (env.STUDIO_HOST?.trim() || "127.0.0.1").toLowerCase(),
    publicHost,
  };
}

export const isLoopbackHost = (h: string): boolean => LOOPBACK.has(h.toLowerCase());

/**
 * Why the studio must not start with this configuration, else null. Off loopback anyone on the
 * network can reach it, so the names it answers to must be stated (a public URL or allowed hosts).
 */
export function bindProblem(env: Record<string, string | undefined> = process.env): string | null {
  if (env.STUDIO_PUBLIC_URL) {
    try {
      const u = new URL(env.STUDIO_PUBLIC_URL);
      if (u.protocol !== "http:" && u.protocol !== "https:") return `STUDIO_PUBLIC_URL must be an http(s) URL, not ${u.protocol}`;
    } catch {
      return `STUDIO_PUBLIC_URL is not a URL: ${env.STUDIO_PUBLIC_URL}`;
    }
  }
  const cfg = guardConfigFromEnv(env);
  if (isLoopbackHost(cfg.listenHost) || cfg.publicHost || cfg.allowedHosts.length) return null;
  return (
    `The studio would listen on ${cfg.listenHost}, beyond this machine, without knowing the names it is reached by. ` +
    "Set STUDIO_PUBLIC_URL (e.g. https://studio.example.com) or STUDIO_ALLOWED_HOSTS (comma-separated host names)."
  );
}

const hostname = (hostHeader: string) => {
  const h = hostHeader.trim().toLowerCase();
  return h.startsWith("[") ? h.replace(/(\])(:\d+)?$/, "$1") : h.replace(/:\d+$/, "");
};

/** Null when the Host header names this studio; otherwise why not. */
export function checkHost(hostHeader: string | null, cfg: GuardConfig): string | null {
  if (!hostHeader) return "The request has no Host header.";
  const name = hostname(hostHeader);
  const known = LOOPBACK.has(name) || cfg.allowedHosts.includes(name) || name === cfg.publicHost || (name === cfg.listenHost && !WILDCARD.has(cfg.listenHost));
  if (known) return null;
  return `Host "${name.slice(0, 200)}" is not allowed. Reach the studio as localhost or 127.0.0.1, or add the name to STUDIO_ALLOWED_HOSTS (or set STUDIO_PUBLIC_URL).`;
}

/** An MCP server's OAuth callback (lib/mcp/oauth): the authorization server redirects the browser here. */
const OAUTH_CALLBACK = /^\/api\/servers\/[^/]+\/oauth\/callback\/?$/;

/** Null when the request may proceed; otherwise why it is refused (answered with 403). */
export function checkRequest(req: GuardInput, cfg: GuardConfig): string | null {
  const badHost = checkHost(req.host, cfg);
  if (badHost) return badHost;
  const safe = SAFE_METHODS.has(req.method.toUpperCase());
  // Reads of the API from another site are refused too (an export must not stream to a link
  // clicked elsewhere); the sign-in callbacks (the studio's own, and an MCP server's OAuth
  // callback, which checks its one-time state) are the API reads another site sends the user to.
  const apiRead = safe && req.pathname?.startsWith("/api/") && !req.pathname.startsWith("/api/auth/") && !OAUTH_CALLBACK.test(req.pathname);
  if (req.secFetchSite === "cross-site" && (!safe || apiRead)) return "Cross-site requests are refused.";
  if (!safe) {
    if (req.origin === "null") return "Requests from an opaque origin are refused.";
    if (req.origin && req.host) {
      let originHost: string;
      try {
        originHost = new URL(req.origin).host.toLowerCase();
      } catch {
        return "The Origin header is not a valid URL.";
      }
      if (originHost !== req.host.toLowerCase()) return `Cross-origin request from ${req.origin.slice(0, 200)} refused.`;
    }
  }
  return null;
}
