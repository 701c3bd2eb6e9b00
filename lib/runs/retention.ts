import { Prisma, type PrismaClient } from "../db/generated/client";
import type { RuntimeConfig } from "../config/schema";

export interface PurgeReport {
  dryRun: boolean;
  /** Runs removed (or that would be) per tool. */
  byTool: Record<string, number>;
  total: number;
}

/**
 * Applies the retention rules: per tool, runs older than maxAgeDays and beyond the newest
 * maxRuns go. Runs still in flight are never purged. With dryRun nothing is deleted.
 */
export async function purgeRuns(
  prisma: PrismaClient,
  retention: RuntimeConfig["retention"],
  opts: { dryRun?: boolean; now?: Date } = {},
): Promise<PurgeReport> {
  const now = opts.now ?? new Date();
  const tools = await prisma.$queryRaw<{ v: string }[]>`
    WITH RECURSIVE t AS (
      (SELECT tool_name AS v FROM runs ORDER BY tool_name LIMIT 1)
      UNION ALL SELECT (SELECT tool_name FROM runs WHERE tool_name > t.v ORDER BY tool_name LIMIT 1) FROM t WHERE t.v IS NOT NULL
    ) SELECT v FROM t WHERE v IS NOT NULL`;
  const byTool: Record<string, number> = {};
  for (const { v: tool } of tools) {
    const rule = retention.perTool[tool] ?? {};
    const maxAgeDays = rule.maxAgeDays ?? retention.maxAgeDays;
    const maxRuns = rule.maxRuns ?? retention.maxRunsPerTool;
    if (maxAgeDays === undefined && maxRuns === undefined) continue;
    const conditions: Prisma.Sql[] = [];
    if (maxAgeDays !== undefined) conditions.push(Prisma.sql`started_at < ${new Date(now.getTime() - maxAgeDays * 86_400_000)}`);
    if (maxRuns !== undefined) {
      // Everything older than the maxRuns-th newest run.
      conditions.push(
        Prisma.sql`(started_at, id) < (SELECT started_at, id FROM runs WHERE tool_name = ${tool} ORDER BY started_at DESC, id DESC OFFSET ${maxRuns - 1} LIMIT 1)`,
      );
    }
    const where = Prisma.sql`tool_name = ${tool} AND status <> 'running' AND (${Prisma.join(conditions, " OR ")})`;
    const n = opts.dryRun
      ? Number((await prisma.$queryRaw<{ n: bigint }[]>`SELECT count(*) AS n FROM runs WHERE ${where}`)[0]?.n ?? 0)
      : await prisma.$executeRaw`DELETE FROM runs WHERE ${where}`;
    if (n > 0) byTool[tool] = n;
  }
  return { dryRun: Boolean(opts.dryRun), byTool, total: Object.values(byTool).reduce((a, b) => a + b, 0) };
}
