/** The MCP client side as a tool source: connections, the manager (registry source "mcp"), x-mcp-header rules. */
export {
  McpConnection,
  type McpConnectionEvent,
  type McpConnectionListener,
  type McpConnectionOptions,
  type McpConnectionState,
  type McpConnectionStatus,
} from "./connection";
export { backoffDelay, type BackoffOptions } from "./backoff";
export { namespacedName, toToolOutput, toToolSpec } from "./mapping";
export { describeExit, StdioServerProcess, type ProcessExit } from "./process";
export { StderrTail } from "./stderr";
export { listAllTools, screenTools, type ListToolsOptions, type McpExcludedTool, type ScreenedTools } from "./tools-list";
export { createTransport, type McpServerConfig, type ServerTransport, type TransportHooks } from "./transport";
export {
  McpManager,
  entryHash,
  type McpManagerEvent,
  type McpManagerListener,
  type McpManagerOptions,
  type McpServerOrigin,
  type McpServerState,
  type McpSyncResult,
} from "./source";
export { toMcpToolError, isNetworkFailure, errorDetail } from "./errors";
export {
  scanXMcpHeaders,
  mcpParamHeaders,
  encodeMcpParamValue,
  MCP_PARAM_PREFIX,
  X_MCP_HEADER,
  type XMcpHeaderDeclaration,
  type XMcpHeaderScan,
  type XMcpHeaderType,
} from "./x-mcp-header";
