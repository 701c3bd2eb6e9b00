-- CreateTable
CREATE TABLE "mcp_oauth_credentials" (
    "server" TEXT NOT NULL,
    "server_url" TEXT NOT NULL,
    "client" TEXT,
    "tokens" TEXT,
    "discovery" JSONB,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "mcp_oauth_credentials_pkey" PRIMARY KEY ("server")
);

-- CreateTable
CREATE TABLE "mcp_oauth_flows" (
    "state_hash" TEXT NOT NULL,
    "server" TEXT NOT NULL,
    "server_url" TEXT NOT NULL,
    "verifier" TEXT NOT NULL,
    "actor" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "mcp_oauth_flows_pkey" PRIMARY KEY ("state_hash")
);

-- CreateIndex
CREATE INDEX "mcp_oauth_flows_server_idx" ON "mcp_oauth_flows"("server");
