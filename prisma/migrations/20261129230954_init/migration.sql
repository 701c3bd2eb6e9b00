-- CreateEnum
CREATE TYPE "RunStatus" AS ENUM ('running', 'success', 'error', 'rejected', 'timeout', 'cancelled', 'interrupted');

-- CreateEnum
CREATE TYPE "RunOrigin" AS ENUM ('ui', 'api', 'mcp');

-- CreateEnum
CREATE TYPE "ErrorKind" AS ENUM ('invalid_args', 'not_found', 'timeout', 'cancelled', 'permission_denied', 'rate_limited', 'provider', 'network', 'other');

-- CreateTable
CREATE TABLE "runs" (
    "id" UUID NOT NULL,
    "tool_name" TEXT NOT NULL,
    "tool_source" TEXT NOT NULL,
    "tool_spec_hash" TEXT NOT NULL,
    "arguments" JSONB NOT NULL,
    "status" "RunStatus" NOT NULL,
    "error_kind" "ErrorKind",
    "error_message" TEXT,
    "error_detail" TEXT,
    "error_fields" JSONB,
    "content" JSONB,
    "structured_content" JSONB,
    "output_valid" BOOLEAN,
    "output_errors" JSONB,
    "timeout_ms" INTEGER,
    "duration_ms" INTEGER,
    "started_at" TIMESTAMPTZ(3) NOT NULL,
    "finished_at" TIMESTAMPTZ(3),
    "actor" TEXT NOT NULL,
    "origin" "RunOrigin" NOT NULL,
    "client_name" TEXT,
    "replay_of_id" UUID,

    CONSTRAINT "runs_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "runs_started_at_id_idx" ON "runs"("started_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "runs_tool_name_started_at_id_idx" ON "runs"("tool_name", "started_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "runs_status_started_at_id_idx" ON "runs"("status", "started_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "runs_replay_of_id_idx" ON "runs"("replay_of_id");

-- AddForeignKey
ALTER TABLE "runs" ADD CONSTRAINT "runs_replay_of_id_fkey" FOREIGN KEY ("replay_of_id") REFERENCES "runs"("id") ON DELETE SET NULL ON UPDATE CASCADE;
