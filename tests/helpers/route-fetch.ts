// fetch for code under test that calls the studio's API by path (components): each /api request
// goes to the real route handler of app/api (found by its file, as Next routes it), in this
// process, with the caller's headers plus `headers` (e.g. the admin token). Anything else is refused.
import fs from "node:fs";
import path from "node:path";

type Params = Record<string, string | string[]>;
type RouteModule = Record<string, unknown>;
type Handler = (req: Request, ctx: { params: Promise<Params> }) => Promise<Response>;

interface Route {
  file: string;
  /** Path segments: a literal, ":name" for [name], "*name" for [...name]. */
  segments: string[];
}

const APP = path.resolve(__dirname, "../../app");

function routesUnder(dir: string, at: string[] = []): Route[] {
  const out: Route[] = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    if (e.isDirectory()) {
      const m = /^\[(\.\.\.)?([^\]]+)\]$/.exec(e.name);
      out.push(...routesUnder(path.join(dir, e.name), [...at, m ? `${m[1] ? "*" : ":"}${m[2]}` : e.name]));
    } else if (e.name === "route.ts") out.push({ file: path.join(dir, e.name), segments: at });
  }
  return out;
}

/** Literal segments win over parameters, as in Next. */
const rank = (r: Route) => r.segments.map((s) => (s.startsWith("*") ? "2" : s.startsWith(":") ? "1" : "0")).join("");
const ROUTES = routesUnder(path.join(APP, "api"), ["api"]).sort((a, b) => rank(a).localeCompare(rank(b)));

function match(route: Route, parts: string[]): Params | null {
  const params: Params = {};
  for (let i = 0; i < route.segments.length; i++) {
    const s = route.segments[i]!;
    if (s.startsWith("*")) {
      if (i >= parts.length) return null;
      params[s.slice(1)] = parts.slice(i);
      return params;
    }
    if (i >= parts.length) return null;
    if (s.startsWith(":")) params[s.slice(1)] = parts[i]!;
    else if (s !== parts[i]) return null;
  }
  return parts.length === route.segments.length ? params : null;
}

export function routeFetch(opts: { origin?: string; headers?: Record<string, string> } = {}): typeof fetch {
  const origin = opts.origin ?? "http://127.0.0.1:3000";
  return (async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(typeof input === "string" || input instanceof URL ? String(input) : input.url, origin);
    const parts = url.pathname.split("/").filter(Boolean).map(decodeURIComponent);
    for (const route of ROUTES) {
      const params = match(route, parts);
      if (!params) continue;
      const mod = (await import(/* @vite-ignore */ route.file)) as RouteModule;
      const method = (init?.method ?? "GET").toUpperCase();
      const handler = mod[method] as Handler | undefined;
      if (!handler) return Response.json({ error: { kind: "method_not_allowed", message: `${method} is not a method of ${url.pathname}` } }, { status: 405 });
      const headers = new Headers(init?.headers);
      headers.set("host", url.host);
      for (const [k, v] of Object.entries(opts.headers ?? {})) headers.set(k, v);
      const req = new Request(url, { method, headers, body: init?.body ?? undefined, signal: init?.signal ?? undefined });
      return handler(req, { params: Promise.resolve(params) });
    }
    throw new TypeError(`routeFetch: no route of app/api answers ${url.pathname}`);
  }) as typeof fetch;
}
