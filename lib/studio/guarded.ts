import { passDoor, type DoorAnswer, type DoorDeps } from "../auth/door";
import type { Principal } from "../auth/principal";
import { ROUTES, type RouteAccess } from "../auth/routes";
import { guardConfigFromEnv } from "../http/guard";
import { errorResponse, MAX_BODY_BYTES, readBody, toErrorResponse } from "../http/http";
import { urlProblem } from "../http/input";
import { getStudio } from "./studio";

/**
 * The one door for route handlers: every exported handler is `guarded(pattern, method, fn)`.
 * The pattern and method must be declared in lib/auth/routes.ts (this throws at load time
 * otherwise, so an undeclared route fails the build); the door checks the Host, cross-site
 * writes, who is calling and their role before `fn` runs, and maps anything `fn` throws to the
 * one error shape.
 */
type Method = keyof RouteAccess["methods"];

export interface Guarded<P> {
  params: P;
  /** Who is calling; null only on public routes. */
  principal: Principal;
}

const guard = guardConfigFromEnv();

function declared(pattern: string, method: Method): RouteAccess {
  const route = ROUTES.find((r) => r.pattern === pattern);
  if (!route?.methods[method]) throw new Error(`${method} ${pattern} is not declared in lib/auth/routes.ts: declare who may call it there.`);
  return route;
}

export function guarded<P = Record<string, never>>(pattern: string, method: Method, fn: (req: Request, ctx: Guarded<P>) => Promise<Response> | Response) {
  declared(pattern, method);
  // `unknown` params: Next passes each route's own params type; the pattern says what P is.
  return async (req: Request, ctx?: { params?: Promise<unknown> }): Promise<Response> => {
    try {
      const url = new URL(req.url);
      // proxy.ts refuses these first, except on the routes it skips (UNPROXIED_API).
      const badUrl = urlProblem(url.pathname, url.search);
      if (badUrl) return errorResponse("bad_request", badUrl);
      // Who is calling first (an anonymous body is answered 401 whatever its size; scripts/server.mjs
      // drains what a handler left unread). Then the one body limit on every route, before anything
      // reads it: readBody drains what the client still sends and throws the 413, so the client
      // reads it; bodies without a declared length are cut off by whichever reader takes them.
      const answer = await admit({ method: req.method, pathname: url.pathname, headers: req.headers });
      if (!answer.admit) return refusal(answer, req);
      if (Number(req.headers.get("content-length")) > MAX_BODY_BYTES) await readBody(req);
      const params = ((await ctx?.params) ?? {}) as P;
      return await fn(req, { params, principal: answer.principal as Principal });
    } catch (err) {
      return toErrorResponse(err);
    }
  };
}

/**
 * Routes proxy.ts does not run for (see UNPROXIED_API there) answer the methods they do not
 * serve here, as the proxy answers them elsewhere: 401 without credentials, else 405 with Allow
 * (Next's own 405 would have neither the body nor the order). Export the result's members next
 * to the route's own handlers.
 */
export function otherMethods(pattern: string): Record<Method, (req: Request) => Promise<Response>> {
  const route = ROUTES.find((r) => r.pattern === pattern);
  if (!route) throw new Error(`${pattern} is not declared in lib/auth/routes.ts.`);
  const refuse = async (req: Request): Promise<Response> => {
    try {
      const answer = await admit({ method: req.method, pathname: new URL(req.url).pathname, headers: req.headers });
      // Admitted means the method is declared after all: such a route exports its own handler instead.
      return answer.admit ? errorResponse("method_not_allowed", `${req.method} is not allowed here.`) : refusal(answer, req);
    } catch (err) {
      return toErrorResponse(err);
    }
  };
  return { GET: refuse, POST: refuse, PUT: refuse, PATCH: refuse, DELETE: refuse };
}

/** The door for one request (pages pass their own route pattern as the path). */
export async function admit(req: { method: string; pathname: string; headers: Headers }, identify?: DoorDeps["identify"]): Promise<DoorAnswer> {
  return passDoor(req, { guard, identify: identify ?? (async (headers, c) => (await getStudio()).identity.identify(headers, c)) });
}

export function refusal(a: Extract<DoorAnswer, { admit: false }>, req: Request): Response {
  const headers: Record<string, string> = { "cache-control": "no-store" };
  if (a.kind === "unauthenticated")
    headers["www-authenticate"] = req.headers.get("authorization") ? 'Bearer realm="tool-studio", error="invalid_token"' : 'Bearer realm="tool-studio"';
  if (a.allow) headers.allow = a.allow;
  const res = errorResponse(a.kind, a.message);
  for (const [k, v] of Object.entries(headers)) res.headers.set(k, v);
  return res;
}
