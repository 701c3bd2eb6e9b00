/**
 * Keeps other web pages out of a studio that runs on the user's machine: a page on another
 * site must not be able to run tools or edit config through the user's browser (cross-site
 * requests), nor reach the studio through a DNS name that resolves to 127.0.0.1 (rebinding).
 */

const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]", "::1"]);
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

export interface GuardInput {
  method: string;
  /** The Host header. */
  host: string | null;
  origin: string | null;
  secFetchSite: string | null;
}

export interface GuardConfig {
  /** Extra host names the studio may be reached by (STUDIO_ALLOWED_HOSTS, comma-separated). */
  allowedHosts: string[];
  /** The address the studio listens on (STUDIO_HOST). */
  listenHost: string;
}

export function guardConfigFromEnv(env: Record<string, string | undefined> = process.env): GuardConfig {
  return {
    allowedHosts: (env.STUDIO_ALLOWED_HOSTS ?? "").split(",").map((h) => h.trim().toLowerCase()).filter(Boolean),
    listenHost: (env.STUDIO_HOST ?? "127.0.0.1").toLowerCase(),
  };
}

const hostname = (hostHeader: string) => hostHeader.toLowerCase().replace(/:\d+$/, "");

/** Null when the request may proceed; otherwise why it is refused (answered with 403). */
export function checkRequest(req: GuardInput, cfg: GuardConfig): string | null {
  if (req.host) {
    const name = hostname(req.host);
    const bindsLoopback = LOOPBACK.has(cfg.listenHost);
    const known = LOOPBACK.has(name) || name === cfg.listenHost || cfg.allowedHosts.includes(name);
    // Bound to loopback, only loopback names (and configured ones) can be genuine.
    if (!known && (bindsLoopback || cfg.allowedHosts.length > 0)) {
      return `Host "${name}" is not allowed. Reach the studio as localhost or 127.0.0.1, or add the name to STUDIO_ALLOWED_HOSTS.`;
    }
  }
  if (!SAFE_METHODS.has(req.method.toUpperCase())) {
    if (req.secFetchSite === "cross-site") return "Cross-site requests are refused.";
    if (req.origin && req.origin !== "null" && req.host) {
      let originHost: string;
      try {
        originHost = new URL(req.origin).host.toLowerCase();
      } catch {
        return "The Origin header is not a valid URL.";
      }
      if (originHost !== req.host.toLowerCase()) return `Cross-origin request from ${req.origin} refused.`;
    } else if (req.origin === "null") {
      return "Requests from an opaque origin are refused.";
    }
  }
  return null;
}
