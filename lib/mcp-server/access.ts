import { ProtocolError, type Server } from "@modelcontextprotocol/server";
import type { AuditLog } from "../audit/log";
import type { Principal } from "../auth/principal";
import { roleAtLeast, type Role } from "../auth/roles";
import { mcpMethodAccess } from "../auth/routes";
import type { CallerContext } from "./caller";

/**
 * The door of /api/mcp per JSON-RPC method. The HTTP route admits any viewer, because one URL
 * carries every method; what each method needs is declared in MCP_METHODS (lib/auth/routes.ts)
 * and checked here before its handler runs.
 */

/** The JSON-RPC error code of a refused method (the spec leaves -32000…-32099 to servers; the SDK defines none for this). */
export const FORBIDDEN_CODE = -32003;

/** The error's `data`, so a client can tell a refusal from any other failure without parsing the message. */
export interface ForbiddenData {
  kind: "forbidden";
  method: string;
  /** The role the method needs; null when the method is not declared at all. */
  need: Role | null;
  role: Role;
}

/** Why `who` may not call `method`, or null when they may. tools/call is the run policy's (execution captures a refused call as a run). */
export function methodRefusal(method: string, who: Pick<Principal, "role" | "actor">): ProtocolError | null {
  if (method === "tools/call") return null;
  const need = mcpMethodAccess(method);
  if (need && roleAtLeast(who.role, need)) return null;
  const data: ForbiddenData = { kind: "forbidden", method, need, role: who.role };
  const message = need
    ? `${method} needs the ${need} role; ${who.actor} has the ${who.role} role.`
    : `${method} is not declared in the studio's method table (MCP_METHODS in lib/auth/routes.ts), so nobody may call it.`;
  return new ProtocolError(FORBIDDEN_CODE, message, data);
}

/** What a refused request named (a resource's URI, a prompt's name, a completion's reference), for the audit entry. */
function targetOf(params: unknown): string | undefined {
  if (typeof params !== "object" || params === null) return undefined;
  const p = params as { uri?: unknown; name?: unknown; ref?: { uri?: unknown; name?: unknown } };
  const v = p.uri ?? p.name ?? p.ref?.uri ?? p.ref?.name;
  return typeof v === "string" ? v.slice(0, 500) : undefined;
}

/**
 * Makes every request handler registered on `server` from now on check its method first: a
 * caller whose role is too low gets FORBIDDEN_CODE and an `mcp.refused` audit entry, as a refused
 * run gets its `run` entry. The SDK's own handlers (initialize, ping, logging/setLevel,
 * subscriptions/listen, server/discover) are registered by its constructor, before this, and are
 * viewer methods. Without a caller (a server built directly, as tests do, with no door in front)
 * nothing is checked: the route always passes the door's principal.
 */
export function guardMethods(server: Server, opts: { caller: (ctx: CallerContext) => Principal | undefined; audit?: Pick<AuditLog, "append"> }): void {
  type Handler = (request: { method: string; params?: unknown }, ctx: CallerContext) => unknown;
  const set = server.setRequestHandler.bind(server) as (method: string, ...rest: unknown[]) => void;
  const guardedSet = (method: string, ...rest: unknown[]): void => {
    const handler = rest.pop() as Handler;
    const checked: Handler = async (request, ctx) => {
      const who = opts.caller(ctx);
      const refused = who ? methodRefusal(method, who) : null;
      if (refused && who) {
        await opts.audit
          ?.append({
            actor: who.actor,
            action: "mcp.refused",
            target: method,
            detail: {
              ...(refused.data as ForbiddenData),
              resource: targetOf(request.params),
              userId: who.userId ?? undefined,
              tokenId: who.tokenId ?? undefined,
            },
            from: null,
          })
          .catch((err: unknown) => console.warn("[tool-studio] MCP endpoint: auditing a refused method failed:", err instanceof Error ? err.message : err));
        throw refused;
      }
      return handler(request, ctx);
    };
    set(method, ...rest, checked);
  };
  // eslint-disable-next-line no-restricted-syntax -- the SDK's overloads are per method; the wrapper takes any method and passes its arguments on unchanged
  (server as unknown as { setRequestHandler: typeof guardedSet }).setRequestHandler = guardedSet;
}
