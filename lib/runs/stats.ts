import { Prisma, type PrismaClient } from "../db/generated/client";
import { whereSql, type RunFilter } from "./query";
import { addHistogram, durationBucket, histogramPercentile, newHistogram, readRollups, rollupGrain, sumHistogram, type Histogram } from "./rollup";

export interface ToolStats {
  count: number;
  success: number;
  successRate: number | null;
  /**
   * Duration percentiles. Exact (percentile_cont over the runs) when `approximate` is false; read
   * from the stats rollups when true, then within 2.5% of the exact value (lib/runs/rollup.ts).
   */
  p50Ms: number | null;
  p95Ms: number | null;
  byStatus: Record<string, number>;
  series: { t: string; count: number; failed: number; p95Ms: number | null }[];
  bucket: "minute" | "hour" | "day";
  /** The percentiles came from the rollups' duration histograms (counts are exact either way). */
  approximate: boolean;
}

/** Picks a bucket so a chart over the range has at most a few hundred points. */
export function bucketFor(rangeMs: number): ToolStats["bucket"] {
  if (rangeMs <= 6 * 3600_000) return "minute";
  if (rangeMs <= 14 * 86_400_000) return "hour";
  return "day";
}

const SERIES_LIMIT = 1000;

/**
 * Count, success rate, p50/p95 duration and a time series (UTC buckets) for the runs matching a
 * filter. A filter on tool, source, status and an hour-aligned time range is answered from the
 * stats rollups (a few rows per hour or day, whatever the number of runs); any other filter, a
 * range of 6 hours or less (a series by minute), or `exact` reads the runs.
 */
export async function runStats(prisma: PrismaClient, f: RunFilter, opts: { exact?: boolean } = {}): Promise<ToolStats> {
  const where = whereSql(f);
  if (!opts.exact && rollupGrain(f, "hour")) {
    // The span of the matching runs picks the series' bucket (two index probes).
    const [span] = await prisma.$queryRaw<
      { first: Date | null; last: Date | null }[]
    >`SELECT min(started_at) AS first, max(started_at) AS last FROM runs ${where}`;
    const bucket = bucketFor(span?.first && span.last ? span.last.getTime() - span.first.getTime() : 0);
    const grain = rollupGrain(f, bucket);
    if (grain) return fromRollups(prisma, f, grain, bucket);
  }
  return exactStats(prisma, where);
}

async function exactStats(prisma: PrismaClient, where: Prisma.Sql): Promise<ToolStats> {
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
    SELECT date_trunc(${bucket}, started_at, 'UTC') AS t, count(*) AS count,
           count(*) FILTER (WHERE status <> 'success') AS failed,
           percentile_cont(0.95) WITHIN GROUP (ORDER BY duration_ms) AS p95
    FROM runs ${where} GROUP BY 1 ORDER BY 1 LIMIT ${SERIES_LIMIT}`;
  return {
    count,
    success,
    successRate: count ? success / count : null,
    p50Ms: totals?.p50 ?? null,
    p95Ms: totals?.p95 ?? null,
    byStatus: Object.fromEntries(statuses.map((s) => [s.status, Number(s.n)])),
    series: series.map((r) => ({ t: r.t.toISOString(), count: Number(r.count), failed: Number(r.failed), p95Ms: r.p95 })),
    bucket,
    approximate: false,
  };
}

const SPAN_MS = { minute: 60_000, hour: 3600_000, day: 86_400_000 } as const;

async function fromRollups(prisma: PrismaClient, f: RunFilter, grain: "hour" | "day", bucket: ToolStats["bucket"]): Promise<ToolStats> {
  const rows = await readRollups(prisma, f, grain);
  // Runs in flight are not in the rollups: read them (the status index finds them; there are few).
  const inFlight =
    f.status && f.status !== "running" && f.status !== "queued"
      ? []
      : await prisma.$queryRaw<{ started_at: Date; status: string; duration_ms: number | null }[]>`
          SELECT started_at, status::text AS status, duration_ms FROM runs
          ${whereSql(f)} ${f.tool || f.source || f.status || f.since || f.until ? Prisma.sql`AND` : Prisma.sql`WHERE`} status IN ('running', 'queued')`;

  const span = SPAN_MS[bucket];
  const total = newHistogram();
  const byStatus: Record<string, number> = {};
  const series = new Map<number, { count: number; failed: number; hist: Histogram }>();
  // Each run is added to its point's histogram only; the total is the sum of the points (far
  // fewer than the rollup rows: a source's tools by day are thousands of rows, a year 366 points).
  const add = (at: number, status: string, runs: number, hist: (h: Histogram) => void) => {
    byStatus[status] = (byStatus[status] ?? 0) + runs;
    const t = Math.floor(at / span) * span;
    let point = series.get(t);
    if (!point) series.set(t, (point = { count: 0, failed: 0, hist: newHistogram() }));
    point.count += runs;
    if (status !== "success") point.failed += runs;
    hist(point.hist);
  };
  for (const r of rows) add(r.bucket, r.status, r.runs, (h) => addHistogram(h, r.durations));
  for (const r of inFlight) {
    const d = r.duration_ms;
    add(r.started_at.getTime(), r.status, 1, (h) => {
      if (d !== null) h[durationBucket(d)]! += 1;
    });
  }

  for (const p of series.values()) sumHistogram(total, p.hist);
  const count = Object.values(byStatus).reduce((a, b) => a + b, 0);
  const success = byStatus.success ?? 0;
  return {
    count,
    success,
    successRate: count ? success / count : null,
    p50Ms: histogramPercentile(total, 0.5),
    p95Ms: histogramPercentile(total, 0.95),
    byStatus,
    series: [...series.entries()]
      .sort((a, b) => a[0] - b[0])
      .slice(0, SERIES_LIMIT)
      .map(([t, p]) => ({ t: new Date(t).toISOString(), count: p.count, failed: p.failed, p95Ms: histogramPercentile(p.hist, 0.95) })),
    bucket,
    approximate: true,
  };
}
