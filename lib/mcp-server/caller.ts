import type { AuthInfo } from "@modelcontextprotocol/server";
import type { Principal } from "../auth/principal";

/**
 * How the caller of a request (the one door's principal, lib/studio/guarded.ts) reaches the MCP
 * handlers: as the SDK's `authInfo`, given per HTTP request and seen as `ctx.http.authInfo`, so a
 * 2025-era session serves each request as the caller who sent it. Not an AsyncLocalStorage: once
 * one runs, Node's promise hooks slow every promise of the process (profiled: about 60 µs of a
 * `tools/call`, REST calls included).
 */
const PRINCIPAL = "toolStudioPrincipal";

/** What a handler's context carries of the HTTP request: enough to name its caller. */
export type CallerContext = { http?: { authInfo?: AuthInfo } };

export function authInfoOf(principal: Principal): AuthInfo {
  // No token: handlers need who is calling, never the credential.
  return { token: "", clientId: principal.actor, scopes: [], extra: { [PRINCIPAL]: principal } };
}

export function callerOf(ctx: CallerContext | undefined): Principal | undefined {
  return ctx?.http?.authInfo?.extra?.[PRINCIPAL] as Principal | undefined;
}
