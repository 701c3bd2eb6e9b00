import { NextResponse, type NextRequest } from "next/server";
import { findRoute } from "./lib/auth/routes";
import { checkRequest, guardConfigFromEnv } from "./lib/http/guard";
import { contentSecurityPolicy, newNonce } from "./lib/http/csp";
import { urlProblem } from "./lib/http/input";
import { databaseReachable } from "./lib/db/health";

const guard = guardConfigFromEnv();
const dev = process.env.NODE_ENV === "development";

/**
 * The outer half of the one door, for every path but static assets: a foreign Host and
 * cross-site writes are refused, URLs that do not decode (or carry NUL) are refused, paths no
 * route declares are refused, and every page gets a
 * Content-Security-Policy with a fresh nonce. Who is calling and what their role allows is
 * decided next to the handler (lib/studio/guarded.ts for routes, app/_auth for pages), where
 * the database client lives.
 */
export async function proxy(request: NextRequest) {
  const { pathname } = request.nextUrl;
  const api = pathname.startsWith("/api/");
  const refused = checkRequest(
    {
      method: request.method,
      pathname,
      host: request.headers.get("host"),
      origin: request.headers.get("origin"),
      secFetchSite: request.headers.get("sec-fetch-site"),
    },
    guard,
  );
  if (refused) return refuse(403, "forbidden", refused, api);
  // Names, ids and filters in the URL: bad encoding, NUL or overlong parts end here, as a 400.
  const badUrl = urlProblem(request.nextUrl.pathname, request.nextUrl.search);
  if (badUrl) return refuse(400, "bad_request", badUrl, api);
  const route = findRoute(pathname);
  const method = request.method.toUpperCase() as keyof NonNullable<typeof route>["methods"];
  const declared = route && (method in route.methods || (request.method === "HEAD" && "GET" in route.methods) || request.method === "OPTIONS");
  if (!declared) {
    const credentials = request.headers.get("authorization") || request.cookies.getAll().some((c) => c.name.endsWith("session_token"));
    if (!credentials) return refuse(401, "unauthenticated", "Sign in, or send `Authorization: Bearer <token>`.", api);
    if (!route) return refuse(404, "not_found", `Nothing is served at ${pathname.slice(0, 300)}.`, api);
    // A method no route declares would otherwise reach Next's own bare 405.
    const allow = Object.keys(route.methods).join(", ");
    const res = refuse(405, "method_not_allowed", `${request.method} is not allowed here (allowed: ${allow}).`, api);
    res.headers.set("allow", allow);
    return res;
  }
  if (api) return NextResponse.next();

  // Pages: Next puts the nonce on its own scripts when it finds it in the request's CSP.
  const nonce = newNonce();
  const csp = contentSecurityPolicy(nonce, { dev });
  // A page needs the database: without it, say so with 503 rather than fail half-way through.
  if (!(await databaseReachable())) return databaseUnreachable(csp);
  const headers = new Headers(request.headers);
  headers.set("x-nonce", nonce);
  headers.set("content-security-policy", csp);
  const res = NextResponse.next({ request: { headers } });
  res.headers.set("content-security-policy", csp);
  return res;
}

function databaseUnreachable(csp: string) {
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="refresh" content="5"><title>Database unreachable · Tool Studio</title>
<style>body{font-family:system-ui,sans-serif;margin:0;display:grid;place-items:center;min-height:100vh;background:#fafafa;color:#18181b}
main{max-width:32rem;padding:2rem;text-align:center}h1{font-size:1.125rem;margin:0 0 .5rem}p{color:#52525b;margin:0}
@media (prefers-color-scheme:dark){body{background:#09090b;color:#fafafa}p{color:#a1a1aa}}</style></head>
<body><main role="alert" data-testid="database-unreachable"><h1>The database is unreachable</h1>
<p>The studio cannot reach its database right now. Nothing already stored is lost; this page reloads by itself every few seconds until the database is back.</p></main></body></html>`;
  return new NextResponse(html, {
    status: 503,
    headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store", "retry-after": "5", "content-security-policy": csp },
  });
}

function refuse(status: number, kind: string, message: string, api: boolean) {
  const headers: Record<string, string> = { "cache-control": "no-store" };
  if (status === 401) headers["www-authenticate"] = 'Bearer realm="tool-studio"';
  if (api) return NextResponse.json({ error: { kind, message } }, { status, headers });
  return new NextResponse(`${status} ${kind}: ${message}`, { status, headers: { ...headers, "content-type": "text/plain; charset=utf-8" } });
}

// Everything except Next's static files, the files in public/ and UNPROXIED_API.
//
// UNPROXIED_API: the hot routes that lib/http/fast-path.ts marks `unproxied` (POST
// /api/tools/{name}/run, the path every run takes), for names of plain characters (a name with any
// %-escape still comes here: Next fails on a bad escape in a dynamic segment with a bare 500 before
// any handler runs, and urlProblem answers it 400). The proxy costs each request Next's middleware
// machinery (its body copied, a second routing pass): measured 18% of a bare route's throughput
// (issue 12). That route's handler passes the same door itself (lib/studio/guarded.ts: the URL
// checks, Host, cross-site writes, who and which role) and refuses its other methods as this proxy
// would (otherMethods). The matcher must be a literal: tests/fast-path.test.ts fails when it and
// the table disagree. In production scripts/server.mjs serves every hot route before Next's router.
export const config = { matcher: ["/((?!_next/static|_next/image|icon\\.svg|schemas/|favicon\\.ico|api/tools/[A-Za-z0-9_.-]+/run$).*)"] };
