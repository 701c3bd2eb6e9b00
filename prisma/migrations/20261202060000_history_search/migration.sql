-- History at scale (issue 12, item 4): text search through a trigram index, and stats rollups.
-- Both are kept by triggers on "runs", so they hold whichever process (web, worker, script)
-- writes a run. The app never writes search_text or run_rollups itself.
CREATE EXTENSION IF NOT EXISTS pg_trgm;

-- AlterTable
ALTER TABLE "runs" ADD COLUMN     "search_text" TEXT;

-- CreateTable
CREATE TABLE "run_rollups" (
    "tool_name" TEXT NOT NULL,
    "tool_source" TEXT NOT NULL,
    "grain" TEXT NOT NULL,
    "bucket" TIMESTAMPTZ(3) NOT NULL,
    "status" "RunStatus" NOT NULL,
    "runs" INTEGER NOT NULL,
    "durations" JSONB NOT NULL DEFAULT '{}',

    CONSTRAINT "run_rollups_pkey" PRIMARY KEY ("grain","tool_name","tool_source","bucket","status")
);

-- CreateIndex
CREATE INDEX "run_rollups_grain_tool_source_bucket_idx" ON "run_rollups"("grain", "tool_source", "bucket");

-- ---------------------------------------------------------------------------------------------
-- Search text: what `q` looks in, lower-cased (so the query is a LIKE, cheaper to recheck than
-- ILIKE) and capped so a large output cannot make the row or its index entries huge: the first
-- 1,000 characters of the arguments' JSON, 500 of the error message, 2,000 of the content's
-- JSON and 1,000 of structuredContent's.
CREATE FUNCTION run_search_text(args JSONB, err TEXT, content JSONB, structured JSONB) RETURNS TEXT
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT lower(concat_ws(' ', left(args::text, 1000), left(err, 500), left(content::text, 2000), left(structured::text, 1000)))
$$;

CREATE FUNCTION runs_search_text_trigger() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.search_text := run_search_text(NEW.arguments, NEW.error_message, NEW.content, NEW.structured_content);
  RETURN NEW;
END $$;

UPDATE "runs" SET "search_text" = run_search_text("arguments", "error_message", "content", "structured_content");

CREATE TRIGGER runs_search_text BEFORE INSERT OR UPDATE OF "arguments", "error_message", "content", "structured_content" ON "runs"
  FOR EACH ROW EXECUTE FUNCTION runs_search_text_trigger();

-- CreateIndex (after the backfill: one build instead of a million inserts)
CREATE INDEX "runs_search_text_idx" ON "runs" USING GIN ("search_text" gin_trgm_ops);

-- ---------------------------------------------------------------------------------------------
-- Rollups: per tool, source, UTC hour and UTC day, and final status: the number of runs and a
-- histogram of duration_ms {bucket: count}. Buckets: exact below 32 ms, then 5% wide (bucket
-- 32 + k holds [32 * 1.05^k, 32 * 1.05^(k+1))), so a percentile read as the bucket's geometric
-- middle is within 2.5% of the true value (lib/runs/rollup.ts reads them). Runs in flight
-- (queued, running) are not in the rollups: stats add them from "runs" (there are few).
CREATE FUNCTION run_duration_bucket(ms INTEGER) RETURNS INTEGER
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN ms IS NULL THEN NULL WHEN ms < 32 THEN greatest(ms, 0) ELSE 32 + floor(ln(ms / 32.0) / ln(1.05))::int END
$$;

-- Adds (sign 1) or removes (sign -1) one run.
CREATE FUNCTION run_rollup_add(p_tool TEXT, p_source TEXT, p_started TIMESTAMPTZ, p_status "RunStatus", p_duration INTEGER, p_sign INTEGER)
RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  k TEXT := run_duration_bucket(p_duration)::text;
  g TEXT;
  b TIMESTAMPTZ;
  left_runs INTEGER;
BEGIN
  FOREACH g IN ARRAY ARRAY['hour', 'day'] LOOP
    b := date_trunc(g, p_started, 'UTC');
    IF p_sign > 0 THEN
      INSERT INTO run_rollups AS r (tool_name, tool_source, grain, bucket, status, runs, durations)
      VALUES (p_tool, p_source, g, b, p_status, 1, CASE WHEN k IS NULL THEN '{}'::jsonb ELSE jsonb_build_object(k, 1) END)
      ON CONFLICT (grain, tool_name, tool_source, bucket, status) DO UPDATE
        SET runs = r.runs + 1,
            durations = CASE WHEN k IS NULL THEN r.durations
                             ELSE r.durations || jsonb_build_object(k, coalesce((r.durations ->> k)::int, 0) + 1) END;
    ELSE
      UPDATE run_rollups r
         SET runs = r.runs - 1,
             durations = CASE WHEN k IS NULL THEN r.durations
                              WHEN coalesce((r.durations ->> k)::int, 0) > 1 THEN r.durations || jsonb_build_object(k, (r.durations ->> k)::int - 1)
                              ELSE r.durations - k END
       WHERE r.grain = g AND r.tool_name = p_tool AND r.tool_source = p_source AND r.bucket = b AND r.status = p_status
      RETURNING r.runs INTO left_runs;
      IF left_runs IS NOT NULL AND left_runs <= 0 THEN
        DELETE FROM run_rollups r
         WHERE r.grain = g AND r.tool_name = p_tool AND r.tool_source = p_source AND r.bucket = b AND r.status = p_status;
      END IF;
    END IF;
  END LOOP;
END $$;

-- A run reaching a final status (INSERTed final, or UPDATEd from queued/running), and a final
-- run whose status, duration, start, tool or source changes (e.g. marked interrupted).
CREATE FUNCTION runs_rollup_row() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND OLD.status NOT IN ('running', 'queued') THEN
    PERFORM run_rollup_add(OLD.tool_name, OLD.tool_source, OLD.started_at, OLD.status, OLD.duration_ms, -1);
  END IF;
  IF NEW.status NOT IN ('running', 'queued') THEN
    PERFORM run_rollup_add(NEW.tool_name, NEW.tool_source, NEW.started_at, NEW.status, NEW.duration_ms, 1);
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER runs_rollup_insert AFTER INSERT ON "runs"
  FOR EACH ROW WHEN (NEW.status NOT IN ('running', 'queued'))
  EXECUTE FUNCTION runs_rollup_row();

CREATE TRIGGER runs_rollup_update AFTER UPDATE OF "status", "duration_ms", "started_at", "tool_name", "tool_source" ON "runs"
  FOR EACH ROW WHEN ((OLD.status NOT IN ('running', 'queued') OR NEW.status NOT IN ('running', 'queued'))
    AND (OLD.status, OLD.duration_ms, OLD.started_at, OLD.tool_name, OLD.tool_source)
        IS DISTINCT FROM (NEW.status, NEW.duration_ms, NEW.started_at, NEW.tool_name, NEW.tool_source))
  EXECUTE FUNCTION runs_rollup_row();

-- Deletes (retention removes many runs at once): one grouped pass per statement.
CREATE FUNCTION run_hist_merge(a JSONB, b JSONB, sign INTEGER) RETURNS JSONB
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT coalesce(jsonb_object_agg(key, n), '{}'::jsonb) FROM (
    SELECT key, sum(n) AS n FROM (
      SELECT key, value::int AS n FROM jsonb_each_text(a)
      UNION ALL SELECT key, value::int * sign FROM jsonb_each_text(b)
    ) x GROUP BY key HAVING sum(n) > 0
  ) y
$$;

CREATE FUNCTION runs_rollup_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  WITH gone AS (
    SELECT g.grain, o.tool_name, o.tool_source, date_trunc(g.grain, o.started_at, 'UTC') AS bucket, o.status,
           run_duration_bucket(o.duration_ms) AS k, count(*) AS n
      FROM old_runs o CROSS JOIN (VALUES ('hour'), ('day')) AS g(grain)
     WHERE o.status NOT IN ('running', 'queued')
     GROUP BY 1, 2, 3, 4, 5, 6
  ), per_key AS (
    SELECT grain, tool_name, tool_source, bucket, status, sum(n)::int AS n,
           coalesce(jsonb_object_agg(k::text, n) FILTER (WHERE k IS NOT NULL), '{}'::jsonb) AS h
      FROM gone GROUP BY 1, 2, 3, 4, 5
  )
  UPDATE run_rollups r SET runs = r.runs - p.n, durations = run_hist_merge(r.durations, p.h, -1)
    FROM per_key p
   WHERE r.grain = p.grain AND r.tool_name = p.tool_name AND r.tool_source = p.tool_source AND r.bucket = p.bucket AND r.status = p.status;

  DELETE FROM run_rollups r
   USING (SELECT DISTINCT g.grain, o.tool_name, o.tool_source, date_trunc(g.grain, o.started_at, 'UTC') AS bucket, o.status
            FROM old_runs o CROSS JOIN (VALUES ('hour'), ('day')) AS g(grain)
           WHERE o.status NOT IN ('running', 'queued')) p
   WHERE r.runs <= 0 AND r.grain = p.grain AND r.tool_name = p.tool_name AND r.tool_source = p.tool_source AND r.bucket = p.bucket AND r.status = p.status;
  RETURN NULL;
END $$;

CREATE TRIGGER runs_rollup_delete AFTER DELETE ON "runs"
  REFERENCING OLD TABLE AS old_runs
  FOR EACH STATEMENT EXECUTE FUNCTION runs_rollup_delete();

CREATE FUNCTION runs_rollup_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM run_rollups;
  RETURN NULL;
END $$;

CREATE TRIGGER runs_rollup_truncate AFTER TRUNCATE ON "runs"
  FOR EACH STATEMENT EXECUTE FUNCTION runs_rollup_truncate();

-- Recomputes every rollup from "runs": the backfill below, and after bulk loads made with the
-- triggers off (bench/seed-runs.ts). Not for use while runs are being captured.
CREATE FUNCTION run_rollups_rebuild() RETURNS void LANGUAGE sql AS $$
  DELETE FROM run_rollups;
  INSERT INTO run_rollups (grain, tool_name, tool_source, bucket, status, runs, durations)
  SELECT grain, tool_name, tool_source, bucket, status, sum(n)::int,
         coalesce(jsonb_object_agg(k::text, n) FILTER (WHERE k IS NOT NULL), '{}'::jsonb)
    FROM (SELECT g.grain, r.tool_name, r.tool_source, date_trunc(g.grain, r.started_at, 'UTC') AS bucket, r.status,
                 run_duration_bucket(r.duration_ms) AS k, count(*) AS n
            FROM runs r CROSS JOIN (VALUES ('hour'), ('day')) AS g(grain)
           WHERE r.status NOT IN ('running', 'queued')
           GROUP BY 1, 2, 3, 4, 5, 6) x
   GROUP BY grain, tool_name, tool_source, bucket, status;
$$;

SELECT run_rollups_rebuild();
