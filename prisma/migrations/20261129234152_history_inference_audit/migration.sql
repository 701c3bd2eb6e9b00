-- CreateTable
CREATE TABLE "shape_stats" (
    "tool_name" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "samples" INTEGER NOT NULL DEFAULT 0,
    "stats" JSONB NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "shape_stats_pkey" PRIMARY KEY ("tool_name","kind")
);

-- CreateTable
CREATE TABLE "run_presets" (
    "id" UUID NOT NULL,
    "tool_name" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "arguments" JSONB NOT NULL,
    "agent" TEXT,
    "created_by" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "run_presets_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "audit_log" (
    "seq" BIGSERIAL NOT NULL,
    "at" TIMESTAMPTZ(3) NOT NULL,
    "actor" TEXT NOT NULL,
    "action" TEXT NOT NULL,
    "target" TEXT,
    "detail" JSONB,
    "from_addr" TEXT,
    "prev_hash" TEXT NOT NULL,
    "hash" TEXT NOT NULL,

    CONSTRAINT "audit_log_pkey" PRIMARY KEY ("seq")
);

-- CreateIndex
CREATE UNIQUE INDEX "run_presets_tool_name_name_key" ON "run_presets"("tool_name", "name");

-- CreateIndex
CREATE UNIQUE INDEX "audit_log_hash_key" ON "audit_log"("hash");

-- CreateIndex
CREATE INDEX "audit_log_at_idx" ON "audit_log"("at" DESC);

-- CreateIndex
CREATE INDEX "audit_log_action_at_idx" ON "audit_log"("action", "at" DESC);

-- CreateIndex
CREATE INDEX "audit_log_actor_at_idx" ON "audit_log"("actor", "at" DESC);

-- CreateIndex
CREATE INDEX "runs_tool_source_started_at_id_idx" ON "runs"("tool_source", "started_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "runs_error_kind_started_at_id_idx" ON "runs"("error_kind", "started_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "runs_origin_started_at_id_idx" ON "runs"("origin", "started_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "runs_actor_started_at_id_idx" ON "runs"("actor", "started_at" DESC, "id" DESC);

-- The audit log is append-only: the database itself refuses to change or remove entries.
CREATE FUNCTION "audit_log_refuse_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit_log is append-only: % is not allowed', TG_OP USING ERRCODE = 'insufficient_privilege';
END;
$$;

CREATE TRIGGER "audit_log_no_update_delete" BEFORE UPDATE OR DELETE ON "audit_log"
  FOR EACH ROW EXECUTE FUNCTION "audit_log_refuse_change"();

CREATE TRIGGER "audit_log_no_truncate" BEFORE TRUNCATE ON "audit_log"
  FOR EACH STATEMENT EXECUTE FUNCTION "audit_log_refuse_change"();
