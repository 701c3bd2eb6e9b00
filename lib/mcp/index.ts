/** The MCP client side as a tool source: connections, the manager (registry source "mcp"), x-mcp-header rules. */
export {
  McpConnection,
  backoffDelay,
  namespacedName,
  toToolOutput,
  toToolSpec,
  type BackoffOptions,
  type McpConnectionEvent,
  type McpConnectionListener,
  type McpConnectionOptions,
  type McpConnectionState,
  type McpConnectionStatus,
  type McpExcludedTool,
  type McpServerConfig,
} from "./connection";
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
