import type { PrismaClient } from "../db/generated/client";
import { whereSql, type RunFilter } from "./query";

export interface ToolStats {
  count: number;
  success: number;
  successRate: number | null;
  p50Ms: number | null;
  p95Ms: number | null;
  byStatus: Record<string, number>;
  series: { t: string; count: number; failed: number; p95Ms: number | null }[];
  bucket: "minute" | "hour" | "day";
}

/** Picks a bucket so a chart over the range has at most a few hundred points. */
export function bucketFor(rangeMs: number): ToolStats["bucket"] {
  if (rangeMs <= 6 * 3600_000) return "minute";
  if (rangeMs <= 14 * 86_400_000) return "hour";
  return "day";
}

/** Count, success rate, p50/p95 duration and a time series for the runs matching a filter. */
export async function runStats(prisma: PrismaClient, f: RunFilter): Promise<ToolStats> {
  const where = whereSql(f);
  const [totals] = await prisma.$queryRaw<{ count: bigint; success: bigint; p50: number | null; p95: number | null; first: Date | null; last: Date | null }[]>`
    SELECT count(*) AS count,
           count(*) FILTER (WHERE status = 'success') AS success,
           percentile_cont(0.5) WITHIN GROUP (ORDER BY duration_ms) AS p50,
           percentile_cont(0.95) WITHIN GROUP (ORDER BY duration_ms) AS p95,
           min(started_at) AS first, max(started_at) AS last
    FROM runs ${where}`;
  const statuses = await prisma.$queryRaw<{ status: string; n: bigint }[]>`SELECT status::text AS status, count(*) AS n FROM runs ${where} GROUP BY status`;
  const count = Number(totals?.count ?? 0);
  const success = Number(totals?.success ?? 0);
  const range = totals?.first && totals?.last ? totals.last.getTime() - totals.first.getTime() : 0;
  const bucket = bucketFor(range);
  const series = await prisma.$queryRaw<{ t: Date; count: bigint; failed: bigint; p95: number | null }[]>`
    SELECT date_trunc(${bucket}, started_at) AS t, count(*) AS count,
           count(*) FILTER (WHERE status <> 'success') AS failed,
           percentile_cont(0.95) WITHIN GROUP (ORDER BY duration_ms) AS p95
    FROM runs ${where} GROUP BY 1 ORDER BY 1 LIMIT 1000`;
  return {
    count,
    success,
    successRate: count ? success / count : null,
    p50Ms: totals?.p50 ?? null,
    p95Ms: totals?.p95 ?? null,
    byStatus: Object.fromEntries(statuses.map((s) => [s.status, Number(s.n)])),
    series: series.map((r) => ({ t: r.t.toISOString(), count: Number(r.count), failed: Number(r.failed), p95Ms: r.p95 })),
    bucket,
  };
}

