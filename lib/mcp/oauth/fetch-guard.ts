import { isIP } from "node:net";
import type { FetchLike } from "@modelcontextprotocol/client";

/**
 * A URL the studio would not fetch for a server's OAuth. A TypeError, as a fetch that cannot
 * reach its URL is: the SDK's discovery swallows other errors of its metadata reads and goes on
 * elsewhere, where this refusal must end the attempt with its reason.
 */
export class OAuthUrlRefusedError extends TypeError {
  override readonly name = "OAuthUrlRefusedError";
  constructor(
    readonly url: string,
    readonly reason: string,
  ) {
    super(`OAuth discovery refused ${clip(url)}: ${reason}`);
  }
}

const PRM_PATH = "/.well-known/oauth-protected-resource";

/**
 * Why `target` may not be fetched for the OAuth of the MCP server at `server`, or undefined when
 * it may. A server's 401 names the URLs the studio then fetches (its protected resource
 * metadata, which names the authorization server, whose metadata names its endpoints), so a
 * hostile server could make the studio reach anything it reaches, loopback included. Allowed:
 * the server's own origin; the authorization server over https (not at a loopback or link-local
 * address); plain http only on the server's own host (a local setup: nothing the server could
 * not reach itself). Protected resource metadata only from the server's own origin (RFC 9728 §3).
 */
export function oauthUrlRefusal(server: URL, target: URL): string | undefined {
  if (target.origin === server.origin) return undefined;
  if (target.pathname.startsWith(PRM_PATH)) return `protected resource metadata is read only from the server's own origin (${server.origin})`;
  const ownHost = target.hostname === server.hostname;
  if (target.protocol === "https:") {
    if (!ownHost && isLocalAddress(target.hostname)) return "an authorization server at a loopback or link-local address is not the server's to name";
    return undefined;
  }
  if (target.protocol === "http:" && ownHost) return undefined;
  return `the authorization server must be reached over https (plain http only on the server's own host, ${server.hostname})`;
}

/**
 * The `fetch` of one server's OAuth (its connection's transport, its sign-in): every URL passes
 * oauthUrlRefusal before it is fetched, and a 401 whose `resource_metadata` points off the
 * server's origin is refused before the SDK acts on it. Requests off the server's origin do not
 * carry the headers configured for the server (its credentials are for it, not the authorization
 * server). `challenged` says the server answered 401: what fails from then on is OAuth's.
 */
export class OAuthFetchGuard {
  challenged = false;
  readonly fetch: FetchLike;
  private readonly server: URL;

  constructor(serverUrl: string | URL, base: FetchLike, opts: { serverHeaders?: readonly string[] } = {}) {
    this.server = new URL(serverUrl);
    const href = this.server.href;
    const strip = (opts.serverHeaders ?? []).map((h) => h.toLowerCase());
    this.fetch = async (url, init) => {
      // The hot path: the MCP endpoint itself.
      if ((typeof url === "string" ? url : url.href) !== href) {
        const target = new URL(url);
        const why = oauthUrlRefusal(this.server, target);
        if (why) throw new OAuthUrlRefusedError(target.href, why);
        if (target.origin !== this.server.origin && strip.length && init?.headers) init = { ...init, headers: without(init.headers, strip) };
      }
      const res = await base(url, init);
      if (res.status === 401) this.check401(res);
      return res;
    };
  }

  private check401(res: Response): void {
    this.challenged = true;
    const named = resourceMetadataOf(res.headers.get("www-authenticate"));
    if (named === undefined) return;
    let target: URL;
    try {
      target = new URL(named);
    } catch {
      return; // the SDK ignores a value that is not a URL, and discovers on the server's origin
    }
    if (target.origin === this.server.origin) return;
    res.body?.cancel().catch(() => {});
    throw new OAuthUrlRefusedError(target.href, `the server's 401 names protected resource metadata off its own origin (${this.server.origin})`);
  }
}

/** `resource_metadata` of a Bearer or DPoP challenge, as the SDK reads it (extractWWWAuthenticateParams). */
function resourceMetadataOf(header: string | null): string | undefined {
  if (!header) return undefined;
  const m = /resource_metadata=(?:"([^"]+)"|([^\s,]+))/.exec(header);
  return m ? (m[1] ?? m[2]) : undefined;
}

function without(headers: HeadersInit, names: readonly string[]): Headers {
  const h = new Headers(headers);
  for (const n of names) h.delete(n);
  return h;
}

/** A loopback, link-local or unspecified address, or a name that always means this machine. */
function isLocalAddress(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, "").toLowerCase();
  if (host === "localhost" || host.endsWith(".localhost")) return true;
  const v = isIP(host);
  if (v === 4) return /^(127\.|0\.|169\.254\.)/.test(host);
  if (v === 6) {
    // An IPv4-mapped address, as URL writes it (::ffff:7f00:1 for 127.0.0.1).
    const mapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(host);
    if (mapped) {
      const [hi, lo] = [parseInt(mapped[1]!, 16), parseInt(mapped[2]!, 16)];
      return isLocalAddress(`${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`);
    }
    return host === "::1" || host === "::" || /^fe[89ab]/.test(host);
  }
  return false;
}

const clip = (s: string) => (s.length > 200 ? `${s.slice(0, 200)}…` : s);
