// fetch for code under test that calls the studio's API by path (components): each /api request
// goes to the real route handler of app/api, found as the studio finds it (lib/auth/routes.ts
// findRoute: the declared pattern is the route file's folder), in this process, with the caller's
// headers plus `headers` (e.g. the admin token). A path the studio does not serve is refused.
import path from "node:path";
import { findRoute } from "@/lib/auth/routes";

type Params = Record<string, string | string[]>;
type Handler = (req: Request, ctx: { params: Promise<Params> }) => Promise<Response>;

const APP = path.resolve(__dirname, "../../app");

/** The values of the pattern's [name] and [...name] segments in `parts`. */
function paramsOf(pattern: string, parts: string[]): Params {
  const params: Params = {};
  pattern
    .split("/")
    .filter(Boolean)
    .forEach((s, i) => {
      const m = /^\[(\.\.\.)?([^\]]+)\]$/.exec(s);
      if (m) params[m[2]!] = m[1] ? parts.slice(i) : parts[i]!;
    });
  return params;
}

export function routeFetch(opts: { origin?: string; headers?: Record<string, string> } = {}): typeof fetch {
  const origin = opts.origin ?? "http://127.0.0.1:3000";
  return (async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(typeof input === "string" || input instanceof URL ? String(input) : input.url, origin);
    const route = findRoute(url.pathname);
    if (route?.kind !== "api") throw new TypeError(`routeFetch: no API route answers ${url.pathname}`);
    const mod = (await import(/* @vite-ignore */ path.join(APP, route.pattern, "route.ts"))) as Record<string, unknown>;
    const method = (init?.method ?? "GET").toUpperCase();
    const handler = mod[method] as Handler | undefined;
    if (!handler) return Response.json({ error: { kind: "method_not_allowed", message: `${method} is not a method of ${url.pathname}` } }, { status: 405 });
    const headers = new Headers(init?.headers);
    headers.set("host", url.host);
    for (const [k, v] of Object.entries(opts.headers ?? {})) headers.set(k, v);
    const req = new Request(url, { method, headers, body: init?.body ?? undefined, signal: init?.signal ?? undefined });
    const parts = url.pathname.split("/").filter(Boolean).map(decodeURIComponent);
    return handler(req, { params: Promise.resolve(paramsOf(route.pattern, parts)) });
  }) as typeof fetch;
}
