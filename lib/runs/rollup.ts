// Stats read from run_rollups (kept by triggers on runs: migration 20261202060000_history_search)
// instead of every run. Only filters a rollup can answer come here: tool, source, status and a
// time range on the grain's boundaries. Runs in flight (queued, running) are not in the rollups
// and are read from runs (there are few of them). Each run counts twice: in its tool's rows and in
// its source's (tool_name ''), so a filter without a tool reads one row per source and bucket.
//
// Percentiles are approximate: durations are counted in buckets, exact below 32 ms and 5% wide
// above (bucket 32 + k holds [32 * 1.05^k, 32 * 1.05^(k+1))); a percentile is interpolated
// between the geometric middles of the buckets of its two neighbouring ranks, so it is within
// 2.5% of what percentile_cont over the runs gives. Counts, success and byStatus are exact.
import { Prisma, type PrismaClient } from "../db/generated/client";
import type { RunFilter } from "./query";
import type { RunStatus } from "./types";

export type Grain = "hour" | "day";

const EXACT_BELOW = 32;
const RATIO = 1.05;

/** The bucket of a duration (the same formula as the SQL function run_duration_bucket). */
export function durationBucket(ms: number): number {
  if (ms < EXACT_BELOW) return Math.max(0, Math.floor(ms));
  return EXACT_BELOW + Math.floor(Math.log(ms / EXACT_BELOW) / Math.log(RATIO));
}

/** The value a bucket stands for: itself when exact, else its geometric middle. */
export function bucketValue(b: number): number {
  return b < EXACT_BELOW ? b : EXACT_BELOW * RATIO ** (b - EXACT_BELOW + 0.5);
}

/** Buckets a histogram has: enough for any duration_ms (an int4: at most 2^31 - 1 ms). */
export const HISTOGRAM_BUCKETS = durationBucket(2 ** 31) + 1;

/** A duration histogram: counts indexed by bucket. */
export type Histogram = Float64Array;

export function newHistogram(): Histogram {
  return new Float64Array(HISTOGRAM_BUCKETS);
}

/** Adds a rollup row's {bucket: count} to a histogram. */
export function addHistogram(into: Histogram, from: Record<string, unknown>): void {
  for (const k in from) {
    const b = Number(k);
    const n = Number(from[k]);
    if (n > 0 && b >= 0 && b < HISTOGRAM_BUCKETS) into[b]! += n;
  }
}

/** Adds one histogram into another. */
export function sumHistogram(into: Histogram, from: Histogram): void {
  for (let b = 0; b < from.length; b++) into[b]! += from[b]!;
}

/**
 * percentile_cont(p) read from a histogram: the values at ranks floor and ceil of p * (n - 1),
 * each as its bucket's value, interpolated. Null for an empty histogram.
 */
export function histogramPercentile(h: Histogram, p: number): number | null {
  let n = 0;
  for (let b = 0; b < h.length; b++) n += h[b]!;
  if (!n) return null;
  const pos = p * (n - 1);
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  let a: number | null = null;
  let seen = 0;
  for (let b = 0; b < h.length; b++) {
    seen += h[b]!;
    if (a === null && lo < seen) a = bucketValue(b);
    if (hi < seen) {
      const v = bucketValue(b);
      return a! + (pos - lo) * (v - a!);
    }
  }
  return a;
}

const HOUR = 3600_000;
const DAY = 86_400_000;
const aligned = (d: Date | undefined, ms: number) => d === undefined || d.getTime() % ms === 0;

/**
 * The finest grain that answers this filter for a series of `bucket`s, or null when the runs must
 * be read: filters the rollups do not keep (errorKind, origin, actor, q), a minute series, or a
 * time range that does not start and end on an hour (UTC).
 */
export function rollupGrain(f: RunFilter, bucket: "minute" | "hour" | "day"): Grain | null {
  if (f.errorKind || f.origin || f.actor || f.q) return null;
  if (bucket === "minute") return null;
  if (bucket === "day" && aligned(f.since, DAY) && aligned(f.until, DAY)) return "day";
  return aligned(f.since, HOUR) && aligned(f.until, HOUR) ? "hour" : null;
}

export interface RollupRow {
  /** The bucket's start, in ms since the epoch. */
  bucket: number;
  status: RunStatus;
  runs: number;
  durations: Record<string, unknown>;
}

/**
 * The rollup rows of a filter (runs in flight excluded), at a grain. They come as one JSON array
 * (a year of one tool by day is over a thousand rows: one value parses far faster than rows).
 */
export async function readRollups(prisma: PrismaClient, f: RunFilter, grain: Grain): Promise<RollupRow[]> {
  const parts: Prisma.Sql[] = [Prisma.sql`grain = ${grain}`, Prisma.sql`runs > 0`];
  parts.push(Prisma.sql`tool_name = ${f.tool ?? ""}`);
  if (f.source) parts.push(Prisma.sql`tool_source = ${f.source}`);
  if (f.status) parts.push(Prisma.sql`status = ${f.status}::"RunStatus"`);
  if (f.since) parts.push(Prisma.sql`bucket >= ${f.since}`);
  if (f.until) parts.push(Prisma.sql`bucket < ${f.until}`);
  const [r] = await prisma.$queryRaw<{ rows: [number, RunStatus, number, Record<string, unknown>][] | null }[]>`
    SELECT json_agg(json_build_array((extract(epoch FROM bucket) * 1000)::bigint, status, runs, durations)) AS rows
    FROM run_rollups WHERE ${Prisma.join(parts, " AND ")}`;
  return (r?.rows ?? []).map(([bucket, status, runs, durations]) => ({ bucket: Number(bucket), status, runs, durations }));
}
