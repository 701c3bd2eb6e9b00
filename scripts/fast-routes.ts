/**
 * The hot routes' handlers, for the production server's own router (scripts/server.mjs): the entry
 * of the bundle scripts/build-fast-routes.mjs makes at build time. One module per route of
 * FAST_ROUTES (lib/http/fast-path.ts), the same route files Next serves; lib/http/fast-path.test.ts
 * checks that the two lists agree, and the server refuses to start when a handler is missing.
 */
import * as run from "../app/api/tools/[name]/run/route";
import * as tools from "../app/api/tools/route";
import * as mcp from "../app/api/mcp/route";

export { FAST_ROUTES, matchFastRoute } from "../lib/http/fast-path";

type Handler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;

/** By pattern, the route module's exports: its handlers by method (and Next's segment options, unused here). */
export const HANDLERS: Record<string, Partial<Record<string, Handler | string>>> = {
  "/api/tools/[name]/run": run,
  "/api/tools": tools,
  "/api/mcp": mcp,
};
