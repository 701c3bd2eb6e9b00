import type { SqlClient } from "../db/sql";
import type { RuntimeConfig } from "../config/schema";

export interface PurgeReport {
  dryRun: boolean;
  /** Runs removed (or that would be) per tool. */
  byTool: Record<string, number>;
  total: number;
}

/** Every tool name with runs, by a skip scan of the (tool_name, ...) index rather than a scan of every run. */
const TOOLS_WITH_RUNS = `WITH RECURSIVE t AS (
    (SELECT tool_name AS v FROM runs ORDER BY tool_name LIMIT 1)
    UNION ALL SELECT (SELECT tool_name FROM runs WHERE tool_name > t.v ORDER BY tool_name LIMIT 1) FROM t WHERE t.v IS NOT NULL
  ) SELECT v FROM t WHERE v IS NOT NULL`;

/** The runs of one tool that its rule lets go: $1 the tool, $2 the age cut (or null), $3 the count kept (or null). Never a run in flight. */
const EXPIRED = `tool_name = $1 AND status <> 'running' AND (
    ($2::timestamptz IS NOT NULL AND started_at < $2::timestamptz)
    OR ($3::int IS NOT NULL AND (started_at, id) < (SELECT started_at, id FROM runs WHERE tool_name = $1 ORDER BY started_at DESC, id DESC OFFSET ($3::int - 1) LIMIT 1))
  )`;

/**
 * Applies the retention rules through `sql` (the caller's transaction, so the purge and its audit
 * entry commit together): per tool, runs older than maxAgeDays and beyond the newest maxRuns go.
 * Runs still in flight are never purged. With dryRun nothing is deleted, only counted.
 */
export async function purgeRuns(sql: SqlClient, retention: RuntimeConfig["retention"], opts: { dryRun?: boolean; now?: Date } = {}): Promise<PurgeReport> {
  const now = opts.now ?? new Date();
  const tools = await sql.query<{ v: string }>(TOOLS_WITH_RUNS);
  const byTool: Record<string, number> = {};
  for (const { v: tool } of tools) {
    const rule = retention.perTool[tool] ?? {};
    const maxAgeDays = rule.maxAgeDays ?? retention.maxAgeDays;
    const maxRuns = rule.maxRuns ?? retention.maxRunsPerTool;
    if (maxAgeDays === undefined && maxRuns === undefined) continue;
    const params = [tool, maxAgeDays === undefined ? null : new Date(now.getTime() - maxAgeDays * 86_400_000), maxRuns ?? null];
    const n = opts.dryRun
      ? Number((await sql.query<{ n: bigint | number | string }>(`SELECT count(*) AS n FROM runs WHERE ${EXPIRED}`, params))[0]?.n ?? 0)
      : await sql.exec(`DELETE FROM runs WHERE ${EXPIRED}`, params);
    if (n > 0) byTool[tool] = n;
  }
  return { dryRun: Boolean(opts.dryRun), byTool, total: Object.values(byTool).reduce((a, b) => a + b, 0) };
}
