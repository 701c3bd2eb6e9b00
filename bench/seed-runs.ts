import type { PrismaClient } from "../lib/db/generated/client";

/**
 * Inserts `count` synthetic runs in one SQL statement per batch (generate_series): 12 tools over
 * 3 sources, a realistic status mix, 4 origins/actors, a year of start times, small JSON bodies.
 * Used by the history benchmark and `npm run seed:runs`.
 */
export async function seedRuns(prisma: PrismaClient, count: number, opts: { batch?: number; log?: (m: string) => void } = {}): Promise<void> {
  const batch = opts.batch ?? 200_000;
  const end = Date.parse("2026-11-01T00:00:00Z");
  for (let from = 0; from < count; from += batch) {
    const to = Math.min(count, from + batch) - 1;
    await prisma.$executeRawUnsafe(`
      INSERT INTO runs (id, tool_name, tool_source, tool_spec_hash, arguments, status, error_kind, error_message,
                        content, structured_content, output_valid, timeout_ms, duration_ms, started_at, finished_at,
                        actor, origin)
      SELECT gen_random_uuid(),
             'tool_' || (i % 12),
             CASE WHEN i % 12 < 8 THEN 'builtin' WHEN i % 12 < 11 THEN 'mcp:everything' ELSE 'runtime' END,
             md5((i % 12)::text),
             jsonb_build_object('query', 'item ' || (i % 5000), 'limit', i % 100, 'tags', jsonb_build_array('t' || (i % 7))),
             (CASE WHEN i % 50 = 0 THEN 'error' WHEN i % 97 = 0 THEN 'rejected' WHEN i % 211 = 0 THEN 'timeout' ELSE 'success' END)::"RunStatus",
             (CASE WHEN i % 50 = 0 THEN 'provider' WHEN i % 97 = 0 THEN 'invalid_args' WHEN i % 211 = 0 THEN 'timeout' END)::"ErrorKind",
             CASE WHEN i % 50 = 0 THEN 'upstream failed' END,
             jsonb_build_array(jsonb_build_object('type', 'text', 'text', 'result ' || i)),
             jsonb_build_object('count', i % 1000, 'ok', i % 50 <> 0),
             CASE WHEN i % 12 = 0 THEN true END,
             30000,
             (5 + (i::bigint * 7919) % 900)::int,
             to_timestamp(${end / 1000} - (${count} - i) * (31536000.0 / ${count})),
             to_timestamp(${end / 1000} - (${count} - i) * (31536000.0 / ${count})) + interval '50 milliseconds',
             'user_' || (i % 4),
             (CASE i % 4 WHEN 0 THEN 'ui' WHEN 1 THEN 'api' ELSE 'mcp' END)::"RunOrigin"
      FROM generate_series(${from}, ${to}) AS i`);
    opts.log?.(`seeded ${to + 1} / ${count}`);
  }
  await prisma.$executeRawUnsafe("ANALYZE runs");
}
