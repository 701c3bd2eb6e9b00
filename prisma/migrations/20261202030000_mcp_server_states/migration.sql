-- MCP servers' status and tool lists as the connection holders (workers) see them, so that web
-- instances without connections (STUDIO_WORKER=off) list the same tools (lib/mcp/directory.ts).
CREATE TABLE "mcp_server_states" (
    "name" TEXT NOT NULL,
    "config_hash" TEXT NOT NULL,
    "state" JSONB NOT NULL,
    "tools" JSONB NOT NULL,
    "publisher" TEXT NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "mcp_server_states_pkey" PRIMARY KEY ("name")
);
