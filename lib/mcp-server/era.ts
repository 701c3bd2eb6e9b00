const FIRST_MODERN_VERSION = "2026-07-28";

/**
 * A POSTed JSON-RPC request or notification (one object, not a response) with a 2026-07-28-or-later
 * MCP-Protocol-Version header: the SDK's classification (classifyInboundRequest) never calls it
 * legacy, it serves it or rejects it on the modern side. Answering that here saves classifying
 * each agent call twice (isLegacyRequest, then the modern handler); anything else is asked.
 */
export function surelyModern(request: Request, parsedBody: unknown): boolean {
  if (request.method !== "POST" || parsedBody === null || typeof parsedBody !== "object" || Array.isArray(parsedBody)) return false;
  const message = parsedBody as Record<string, unknown>;
  if (message.jsonrpc !== "2.0" || typeof message.method !== "string" || "result" in message || "error" in message) return false;
  const version = request.headers.get("mcp-protocol-version")?.trim();
  return version !== undefined && /^\d{4}-\d{2}-\d{2}$/.test(version) && version >= FIRST_MODERN_VERSION;
}
