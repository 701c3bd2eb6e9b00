import { checkRequest, type GuardConfig } from "../http/guard";
import type { Identification, Principal } from "./principal";
import { roleAtLeast } from "./roles";
import { findRoute, type RouteAccess } from "./routes";

/**
 * The one door every request passes (applied by proxy.ts): Host allow-list and cross-site
 * writes first, then who is calling, then the route's declared access. The answer is either
 * "come in" with the principal, or a refusal in the one error shape:
 *   401 unauthenticated   no credentials, or a wrong, expired or revoked token
 *   403 forbidden         a known caller whose role may not use this route; a foreign Host; a cross-site write
 *   404 not_found         no route declares this path (or this method)
 */
export interface DoorRequest {
  method: string;
  pathname: string;
  headers: Headers;
}

export type DoorAnswer =
  | { admit: true; principal: Principal | null; route: RouteAccess }
  | { admit: false; kind: "unauthenticated" | "forbidden" | "not_found" | "method_not_allowed"; message: string; page: boolean; allow?: string };

export interface DoorDeps {
  guard: GuardConfig;
  identify(headers: Headers, ctx: { mcp: boolean }): Promise<Identification>;
}

const isPagePath = (pathname: string) => !pathname.startsWith("/api/");

export async function passDoor(req: DoorRequest, deps: DoorDeps): Promise<DoorAnswer> {
  const page = isPagePath(req.pathname);
  const refused = checkRequest(
    {
      method: req.method,
      pathname: req.pathname,
      host: req.headers.get("host"),
      origin: req.headers.get("origin"),
      secFetchSite: req.headers.get("sec-fetch-site"),
    },
    deps.guard,
  );
  if (refused) return { admit: false, kind: "forbidden", message: refused, page };

  const route = findRoute(req.pathname);
  const method = req.method.toUpperCase() === "HEAD" ? "GET" : (req.method.toUpperCase() as keyof RouteAccess["methods"]);
  const access = route?.methods[method];
  if (access === "public") return { admit: true, principal: null, route: route! };

  const who = await deps.identify(req.headers, { mcp: req.pathname === "/api/mcp" });
  // Anonymous callers learn nothing about which paths exist: 401 before 404.
  if (!who.principal) return { admit: false, kind: "unauthenticated", message: who.message ?? "Sign in, or send `Authorization: Bearer <token>`.", page };
  if (!route) return { admit: false, kind: "not_found", message: `Nothing is served at ${req.pathname.slice(0, 300)}.`, page };
  if (!access) {
    if (req.method.toUpperCase() === "OPTIONS") return { admit: true, principal: who.principal, route };
    const allow = Object.keys(route.methods).join(", ");
    return { admit: false, kind: "method_not_allowed", message: `${req.method} is not allowed here (allowed: ${allow}).`, page, allow };
  }
  if (!roleAtLeast(who.principal.role, access)) {
    return {
      admit: false,
      kind: "forbidden",
      message: `This needs the ${access} role; you are signed in as ${who.principal.actor} with the ${who.principal.role} role.`,
      page,
    };
  }
  return { admit: true, principal: who.principal, route };
}
