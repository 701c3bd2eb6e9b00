import { McpConnection } from "../../lib/mcp/connection.ts";
