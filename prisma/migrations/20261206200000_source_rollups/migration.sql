-- Stats rollups per source (issue 37, item 5): besides one row per tool, source, grain, bucket
-- and status, the triggers keep one row per source with tool_name '' holding all its tools, so
-- stats of a source (or of every run) read a few rows per bucket instead of one per tool: a
-- source of three tools over a year went from 3,979 rows (514 KB of histograms) to 1,460.
-- A run of a tool named '' (none should be) counts once, in its source's row.

-- The rows a set of runs counts in: per grain, its tool's (unless named '') and its source's.
CREATE FUNCTION run_rollup_scopes(p_tool TEXT) RETURNS SETOF TEXT
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT p_tool WHERE p_tool <> '' UNION ALL SELECT ''
$$;

-- Adds (sign 1) or removes (sign -1) one run, in its tool's rows and its source's. Adding, the
-- common case (every run that ends), is one statement for the four rows.
CREATE OR REPLACE FUNCTION run_rollup_add(p_tool TEXT, p_source TEXT, p_started TIMESTAMPTZ, p_status "RunStatus", p_duration INTEGER, p_sign INTEGER)
RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  k TEXT := run_duration_bucket(p_duration)::text;
  g TEXT;
  t TEXT;
  b TIMESTAMPTZ;
  left_runs INTEGER;
BEGIN
  IF p_sign > 0 THEN
    INSERT INTO run_rollups AS r (tool_name, tool_source, grain, bucket, status, runs, durations)
    SELECT s.t, p_source, gr.g, date_trunc(gr.g, p_started, 'UTC'), p_status, 1,
           CASE WHEN k IS NULL THEN '{}'::jsonb ELSE jsonb_build_object(k, 1) END
      FROM run_rollup_scopes(p_tool) AS s(t) CROSS JOIN (VALUES ('hour'), ('day')) AS gr(g)
    ON CONFLICT (grain, tool_name, tool_source, bucket, status) DO UPDATE
      SET runs = r.runs + 1,
          durations = CASE WHEN k IS NULL THEN r.durations
                           ELSE r.durations || jsonb_build_object(k, coalesce((r.durations ->> k)::int, 0) + 1) END;
    RETURN;
  END IF;
  FOR t IN SELECT run_rollup_scopes(p_tool) LOOP
    FOREACH g IN ARRAY ARRAY['hour', 'day'] LOOP
      b := date_trunc(g, p_started, 'UTC');
      UPDATE run_rollups r
         SET runs = r.runs - 1,
             durations = CASE WHEN k IS NULL THEN r.durations
                              WHEN coalesce((r.durations ->> k)::int, 0) > 1 THEN r.durations || jsonb_build_object(k, (r.durations ->> k)::int - 1)
                              ELSE r.durations - k END
       WHERE r.grain = g AND r.tool_name = t AND r.tool_source = p_source AND r.bucket = b AND r.status = p_status
      RETURNING r.runs INTO left_runs;
      IF left_runs IS NOT NULL AND left_runs <= 0 THEN
        DELETE FROM run_rollups r
         WHERE r.grain = g AND r.tool_name = t AND r.tool_source = p_source AND r.bucket = b AND r.status = p_status;
      END IF;
    END LOOP;
  END LOOP;
END $$;

-- Deletes (retention removes many runs at once): one grouped pass per statement.
CREATE OR REPLACE FUNCTION runs_rollup_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  WITH gone AS (
    SELECT g.grain, s.tool_name, o.tool_source, date_trunc(g.grain, o.started_at, 'UTC') AS bucket, o.status,
           run_duration_bucket(o.duration_ms) AS k, count(*) AS n
      FROM old_runs o CROSS JOIN (VALUES ('hour'), ('day')) AS g(grain)
           CROSS JOIN LATERAL run_rollup_scopes(o.tool_name) AS s(tool_name)
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
   USING (SELECT DISTINCT g.grain, s.tool_name, o.tool_source, date_trunc(g.grain, o.started_at, 'UTC') AS bucket, o.status
            FROM old_runs o CROSS JOIN (VALUES ('hour'), ('day')) AS g(grain)
                 CROSS JOIN LATERAL run_rollup_scopes(o.tool_name) AS s(tool_name)
           WHERE o.status NOT IN ('running', 'queued')) p
   WHERE r.runs <= 0 AND r.grain = p.grain AND r.tool_name = p.tool_name AND r.tool_source = p.tool_source AND r.bucket = p.bucket AND r.status = p.status;
  RETURN NULL;
END $$;

-- Recomputes every rollup from "runs": the backfill below, and after bulk loads made with the
-- triggers off (bench/seed-runs.ts). Not for use while runs are being captured.
CREATE OR REPLACE FUNCTION run_rollups_rebuild() RETURNS void LANGUAGE sql AS $$
  DELETE FROM run_rollups;
  INSERT INTO run_rollups (grain, tool_name, tool_source, bucket, status, runs, durations)
  SELECT grain, tool_name, tool_source, bucket, status, sum(n)::int,
         coalesce(jsonb_object_agg(k::text, n) FILTER (WHERE k IS NOT NULL), '{}'::jsonb)
    FROM (SELECT x.grain, s.tool_name, x.tool_source, x.bucket, x.status, x.k, sum(x.n) AS n
            FROM (SELECT g.grain, r.tool_name, r.tool_source, date_trunc(g.grain, r.started_at, 'UTC') AS bucket, r.status,
                         run_duration_bucket(r.duration_ms) AS k, count(*) AS n
                    FROM runs r CROSS JOIN (VALUES ('hour'), ('day')) AS g(grain)
                   WHERE r.status NOT IN ('running', 'queued')
                   GROUP BY 1, 2, 3, 4, 5, 6) x
                 CROSS JOIN LATERAL run_rollup_scopes(x.tool_name) AS s(tool_name)
           GROUP BY 1, 2, 3, 4, 5, 6) y
   GROUP BY grain, tool_name, tool_source, bucket, status;
$$;

SELECT run_rollups_rebuild();
