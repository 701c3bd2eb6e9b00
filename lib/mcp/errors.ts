import { ProtocolError, SdkError, SdkErrorCode, SdkHttpError } from "@modelcontextprotocol/client";
import { ToolError, type ErrorKind, isToolError } from "../tools/errors";
import { TOO_LARGE_MARK } from "./stdio-guard";

/** JSON-RPC error codes that matter here. */
export const JSONRPC = {
  METHOD_NOT_FOUND: -32601,
  INVALID_PARAMS: -32602,
  HEADER_MISMATCH: -32020,
  /** resources/read of a URI the server does not have. */
  RESOURCE_NOT_FOUND: -32002,
} as const;

const NETWORK_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "ENOTFOUND",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EAI_AGAIN",
  "UND_ERR_SOCKET",
  "UND_ERR_CONNECT_TIMEOUT",
]);
const NETWORK_SDK_CODES = new Set<string>([
  SdkErrorCode.NotConnected,
  SdkErrorCode.ConnectionClosed,
  SdkErrorCode.SendFailed,
  SdkErrorCode.ClientHttpFailedToOpenStream,
  SdkErrorCode.ClientHttpUnexpectedContent,
]);
/**
 * "Tool not found" is sent as -32602 by most servers (the spec's choice), and so is "Resource not
 * found" since 2026-07-28 (-32002 before): spot both by their text.
 */
const TOOL_NOT_FOUND = /\b(unknown (tool|resource)|(tool|resource)\b[^.]*\bnot found|no such (tool|resource)|(tool|resource)\b[^.]*\bdoes not exist)\b/i;

/** Everything an operator may want about a failure, as JSON text (never shown to other callers). */
export function errorDetail(err: unknown): string {
  if (err instanceof Error) {
    const e = err as Error & { code?: unknown; data?: unknown; status?: unknown };
    const cause = e.cause instanceof Error ? `${e.cause.name}: ${e.cause.message}` : e.cause;
    return safeJson({ name: e.name, code: e.code, message: e.message, data: e.data, cause, stack: e.stack });
  }
  return safeJson(err);
}

function safeJson(v: unknown): string {
  try {
    return (JSON.stringify(v) ?? String(v)).slice(0, 8000);
  } catch {
    return String(v);
  }
}

/** True when the failure means the connection to the server is gone (worth a reconnect). */
export function isNetworkFailure(err: unknown): boolean {
  return toMcpToolError(err, "").kind === "network";
}

/**
 * Maps a failure of an MCP request to a ToolError: JSON-RPC errors from the server by code
 * (-32602 -> invalid_args, method / tool not found -> not_found, others -> provider), transport
 * failures and a closed connection -> network, the SDK's request timeout -> timeout. The raw
 * error is kept as the operator detail. (Aborts are handled by the caller: it rethrows the
 * signal's reason.)
 */
export function toMcpToolError(err: unknown, server: string): ToolError {
  if (isToolError(err)) return err;
  const detail = errorDetail(err);
  const make = (kind: ErrorKind, message: string) => new ToolError(kind, message, { detail, cause: err });
  const label = server ? `MCP server "${server}"` : "The MCP server";

  if (err instanceof ProtocolError) {
    const msg = err.message.replace(/^MCP error -?\d+:\s*/, "");
    // Put in place of an answer over the limit by stdio-guard.ts.
    if (typeof err.data === "object" && err.data !== null && TOO_LARGE_MARK in err.data) return make("result_too_large", `${label}: ${msg}`);
    if (err.code === JSONRPC.METHOD_NOT_FOUND) return make("not_found", `${label} does not know this method or tool: ${msg}`);
    if (err.code === JSONRPC.RESOURCE_NOT_FOUND) return make("not_found", `${label}: ${msg}`);
    if (err.code === JSONRPC.INVALID_PARAMS) {
      return TOOL_NOT_FOUND.test(msg) ? make("not_found", `${label}: ${msg}`) : make("invalid_args", `${label} rejected the arguments: ${msg}`);
    }
    return make("provider", `${label} returned error ${err.code}: ${msg}`);
  }
  if (err instanceof SdkHttpError) {
    const status = err.status;
    if (status === 401 || status === 403) return make("permission_denied", `${label} refused access (HTTP ${status}).`);
    if (status === 429) return make("rate_limited", `${label} is rate limiting requests (HTTP 429).`);
    if (status === 404 || status >= 500) return make("network", `${label} could not be reached (HTTP ${status}).`);
    return make("provider", `${label} answered HTTP ${status}: ${err.message}`);
  }
  if (err instanceof SdkError) {
    if (err.code === SdkErrorCode.RequestTimeout) return make("timeout", `${label} did not answer in time.`);
    if (NETWORK_SDK_CODES.has(err.code)) return make("network", `${label} connection failed: ${err.message}`);
    return make("provider", `${label} request failed: ${err.message}`);
  }
  if (looksLikeNetwork(err)) return make("network", `${label} could not be reached: ${(err as Error).message}`);
  return make("other", `${label} call failed with an unexpected error.`);
}

function looksLikeNetwork(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e instanceof Error && depth < 4; e = e.cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string" && NETWORK_CODES.has(code)) return true;
    if (e instanceof TypeError && /fetch failed|network/i.test(e.message)) return true;
    if (/socket hang up|other side closed|connection closed/i.test(e.message)) return true;
  }
  return false;
}
