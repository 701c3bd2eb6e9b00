import type { PrismaClient } from "../lib/db/generated/client";

/**
 * Inserts `count` synthetic runs in one SQL statement per batch (generate_series): 12 tools over
 * 3 sources, a realistic status mix, 4 origins/actors, a year of start times, small JSON bodies.
 * Used by the history benchmark and `npm run seed:runs`.
 *
 * A bulk load: the per-row capture triggers (search text, stats rollups) are off while it runs and
 * their work is done set-wise instead (search_text in the INSERT, then run_rollups_rebuild()), so
 * run it on a database that is not capturing runs at the same time.
 */
export async function seedRuns(prisma: PrismaClient, count: number, opts: { batch?: number; log?: (m: string) => void } = {}): Promise<void> {
  const batch = opts.batch ?? 200_000;
  const end = Date.parse("2026-11-01T00:00:00Z");
  await prisma.$executeRawUnsafe(`ALTER TABLE runs DISABLE TRIGGER runs_search_text`);
  await prisma.$executeRawUnsafe(`ALTER TABLE runs DISABLE TRIGGER runs_rollup_insert`);
  try {
    for (let from = 0; from < count; from += batch) {
      const to = Math.min(count, from + batch) - 1;
      await prisma.$executeRawUnsafe(`
        INSERT INTO runs (id, tool_name, tool_source, tool_spec_hash, arguments, status, error_kind, error_message,
                          content, structured_content, output_valid, timeout_ms, duration_ms, started_at, finished_at,
                          actor, origin, search_text)
        SELECT id, tool_name, tool_source, tool_spec_hash, arguments, status, error_kind, error_message,
               content, structured_content, output_valid, timeout_ms, duration_ms, started_at, finished_at,
               actor, origin, run_search_text(arguments, error_message, content, structured_content)
        FROM (
          SELECT gen_random_uuid() AS id,
                 'tool_' || (i % 12) AS tool_name,
                 CASE WHEN i % 12 < 8 THEN 'builtin' WHEN i % 12 < 11 THEN 'mcp:everything' ELSE 'runtime' END AS tool_source,
                 md5((i % 12)::text) AS tool_spec_hash,
                 jsonb_build_object('query', 'item ' || (i % 5000), 'limit', i % 100, 'tags', jsonb_build_array('t' || (i % 7))) AS arguments,
                 (CASE WHEN i % 50 = 0 THEN 'error' WHEN i % 97 = 0 THEN 'rejected' WHEN i % 211 = 0 THEN 'timeout' ELSE 'success' END)::"RunStatus" AS status,
                 (CASE WHEN i % 50 = 0 THEN 'provider' WHEN i % 97 = 0 THEN 'invalid_args' WHEN i % 211 = 0 THEN 'timeout' END)::"ErrorKind" AS error_kind,
                 CASE WHEN i % 50 = 0 THEN 'upstream failed' END AS error_message,
                 jsonb_build_array(jsonb_build_object('type', 'text', 'text', 'result ' || i)) AS content,
                 jsonb_build_object('count', i % 1000, 'ok', i % 50 <> 0) AS structured_content,
                 CASE WHEN i % 12 = 0 THEN true END AS output_valid,
                 30000 AS timeout_ms,
                 (5 + (i::bigint * 7919) % 900)::int AS duration_ms,
                 to_timestamp(${end / 1000} - (${count} - i) * (31536000.0 / ${count})) AS started_at,
                 to_timestamp(${end / 1000} - (${count} - i) * (31536000.0 / ${count})) + interval '50 milliseconds' AS finished_at,
                 'user_' || (i % 4) AS actor,
                 (CASE i % 4 WHEN 0 THEN 'ui' WHEN 1 THEN 'api' ELSE 'mcp' END)::"RunOrigin" AS origin
          FROM generate_series(${from}, ${to}) AS i
        ) s`);
      opts.log?.(`seeded ${to + 1} / ${count}`);
    }
  } finally {
    await prisma.$executeRawUnsafe(`ALTER TABLE runs ENABLE TRIGGER runs_search_text`);
    await prisma.$executeRawUnsafe(`ALTER TABLE runs ENABLE TRIGGER runs_rollup_insert`);
  }
  await prisma.$executeRawUnsafe("SELECT run_rollups_rebuild()");
  await prisma.$executeRawUnsafe("ANALYZE runs");
  await prisma.$executeRawUnsafe("ANALYZE run_rollups");
}
