import { NextResponse, type NextRequest } from "next/server";
import { findRoute } from "./lib/auth/routes";
import { checkRequest, guardConfigFromEnv } from "./lib/http/guard";
import { contentSecurityPolicy, newNonce } from "./lib/http/csp";
import { urlProblem } from "./lib/http/input";

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
export function proxy(request: NextRequest) {
  const { pathname } = request.nextUrl;
  const api = pathname.startsWith("/api/");
  const refused = checkRequest(
    { method: request.method, pathname, host: request.headers.get("host"), origin: request.headers.get("origin"), secFetchSite: request.headers.get("sec-fetch-site") },
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
  const headers = new Headers(request.headers);
  headers.set("x-nonce", nonce);
  headers.set("content-security-policy", csp);
  const res = NextResponse.next({ request: { headers } });
  res.headers.set("content-security-policy", csp);
  return res;
}

function refuse(status: number, kind: string, message: string, api: boolean) {
  const headers: Record<string, string> = { "cache-control": "no-store" };
  if (status === 401) headers["www-authenticate"] = 'Bearer realm="tool-studio"';
  if (api) return NextResponse.json({ error: { kind, message } }, { status, headers });
  return new NextResponse(`${status} ${kind}: ${message}`, { status, headers: { ...headers, "content-type": "text/plain; charset=utf-8" } });
}

// Everything except Next's static files and the files in public/.
export const config = { matcher: ["/((?!_next/static|_next/image|icon\\.svg|schemas/|favicon\\.ico).*)"] };
