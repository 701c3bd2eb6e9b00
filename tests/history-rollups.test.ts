// Stats rollups (run_rollups, kept by triggers on runs) against the exact query over the runs, on a
// realistic mix of captures: runs recorded final, started then finished, queued then claimed,
// still running or queued, marked interrupted, a final run whose status is corrected, and runs
// removed by retention and by hand.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RuntimeConfigSchema } from "@/lib/config/schema";
import { addHistogram, bucketValue, durationBucket, histogramPercentile, newHistogram } from "@/lib/runs/rollup";
import { runStats, type ToolStats } from "@/lib/runs/stats";
import { RunStore, type RunStart } from "@/lib/runs/store";
import type { RunFilter } from "@/lib/runs/query";
import { createTestDatabase, type TestDatabase } from "./helpers/db";

let db: TestDatabase;
let runs: RunStore;
const DAY = 86_400_000;
const t0 = Date.parse("2026-09-01T00:00:00Z");

// A deterministic spread of durations: mostly fast, a long tail up to minutes, a few 0 ms.
function duration(i: number): number {
  const r = ((i * 2654435761) % 4294967296) / 4294967296;
  if (i % 37 === 0) return 0;
  return Math.round(r < 0.8 ? 5 + r * 200 : r < 0.97 ? 200 + (r - 0.8) * 20_000 : 5000 + (r - 0.97) * 4_000_000);
}

function start(i: number, tool: string, source: string, spanDays: number): RunStart {
  return {
    id: randomUUID(),
    toolName: tool,
    toolSource: source,
    toolSpecHash: "h",
    arguments: { i },
    startedAt: new Date(t0 + Math.floor((((i * 7919) % 10_000) / 10_000) * spanDays * DAY) + (i % 1000)),
    actor: i % 3 ? "alice" : "bob",
    origin: i % 2 ? "api" : "mcp",
  };
}

async function capture(i: number, tool: string, source: string, spanDays: number): Promise<void> {
  const s = start(i, tool, source, spanDays);
  const finishedAt = new Date(s.startedAt.getTime() + duration(i));
  switch (i % 10) {
    case 0: // invalid arguments: INSERTed final
      await runs.record(s, { status: "rejected", finishedAt: s.startedAt, error: { kind: "invalid_args", message: "bad" } });
      return;
    case 1: // started, then failed
      await runs.start(s);
      await runs.finish(s.id, s.startedAt, { status: "error", finishedAt, error: { kind: "provider", message: "upstream" } });
      return;
    case 2: // queued, claimed by a worker (startedAt moves), then finished
      await runs.enqueue(s, 0, async () => {});
      {
        const claimed = await runs.claim(s.id);
        if (!claimed || !("start" in claimed)) throw new Error("not claimed");
        await runs.finish(s.id, claimed.start.startedAt, {
          status: "success",
          finishedAt: new Date(claimed.start.startedAt.getTime() + duration(i)),
          content: [],
        });
      }
      return;
    case 3:
      if (i % 30 === 3) return void (await runs.start(s)); // still running
      if (i % 30 === 13) return void (await runs.enqueue(s, 0, async () => {})); // still queued
      break;
    case 4:
      if (i % 20 === 4) {
        await runs.start(s);
        await runs.finish(s.id, s.startedAt, { status: "timeout", finishedAt, error: { kind: "timeout", message: "slow" } });
        return;
      }
      break;
  }
  await runs.start(s);
  await runs.finish(s.id, s.startedAt, { status: "success", finishedAt, content: [{ type: "text", text: `ok ${i}` }] });
}

beforeAll(async () => {
  db = await createTestDatabase();
  runs = new RunStore(db.prisma);
  const jobs: (() => Promise<void>)[] = [];
  // "wide" spans 40 days (a series by day), "narrow" 5 days (by hour), "burst" 3 hours (by minute: exact;
  // its runs claimed from the queue start now, so only its errors keep to the 3 hours).
  for (let i = 0; i < 900; i++) jobs.push(() => capture(i, "wide", i % 4 ? "builtin" : "mcp:ext", 40));
  for (let i = 0; i < 400; i++) jobs.push(() => capture(i + 5000, "narrow", "builtin", 5));
  for (let i = 0; i < 60; i++) jobs.push(() => capture(i + 9000, "burst", "builtin", 0.125));
  // Four at a time, as concurrent captures would.
  for (let k = 0; k < jobs.length; k += 4) await Promise.all(jobs.slice(k, k + 4).map((job) => job()));
  // A process that died: its running runs are marked interrupted (no duration).
  const running = await db.prisma.run.findMany({ where: { status: "running", toolName: "wide" }, select: { id: true }, take: 5 });
  const keep = (await db.prisma.run.findMany({ where: { status: "running" }, select: { id: true } }))
    .map((r) => r.id)
    .filter((id) => !running.some((r) => r.id === id));
  expect(await runs.markInterrupted(keep)).toBe(running.length);
}, 180_000);
afterAll(async () => db?.drop());

const FILTERS: RunFilter[] = [
  { tool: "wide" },
  { tool: "wide", source: "mcp:ext" },
  { tool: "wide", status: "error" },
  { tool: "wide", status: "running" },
  { tool: "narrow" },
  { source: "builtin" },
  { source: "mcp:ext" },
  { source: "builtin", status: "success" },
  { status: "error" },
  {},
  { tool: "wide", since: new Date(t0 + 3 * DAY), until: new Date(t0 + 30 * DAY) },
  { tool: "wide", since: new Date(t0 + 3 * DAY + 5 * 3600_000) },
  { tool: "narrow", since: new Date(t0 + DAY), until: new Date(t0 + 4 * DAY) },
];

/** Rollup stats equal the exact ones: counts exactly, percentiles within the buckets' 2.5%. */
async function expectRollupsMatch(f: RunFilter, mustUseRollups = true): Promise<void> {
  const rolled = await runStats(db.prisma, f);
  const exact = await runStats(db.prisma, f, { exact: true });
  const label = JSON.stringify(f);
  if (mustUseRollups) expect(rolled.approximate, label).toBe(true);
  expect(exact.approximate).toBe(false);
  const counts = (s: ToolStats) => ({
    count: s.count,
    success: s.success,
    successRate: s.successRate,
    byStatus: s.byStatus,
    bucket: s.bucket,
    series: s.series.map((p) => [p.t, p.count, p.failed]),
  });
  expect(counts(rolled), label).toEqual(counts(exact));
  const close = (a: number | null, b: number | null) => {
    if (b === null) return expect(a, label).toBeNull();
    expect(a, label).not.toBeNull();
    expect(Math.abs(a! - b), `${label}: ${a} vs ${b}`).toBeLessThanOrEqual(b * 0.025 + 0.5);
  };
  close(rolled.p50Ms, exact.p50Ms);
  close(rolled.p95Ms, exact.p95Ms);
  rolled.series.forEach((p, i) => close(p.p95Ms, exact.series[i]!.p95Ms));
}

async function rollupRows() {
  return db.prisma.$queryRawUnsafe<unknown[]>(
    `SELECT grain, tool_name, tool_source, bucket, status::text, runs, durations FROM run_rollups WHERE runs > 0 ORDER BY 1, 2, 3, 4, 5`,
  );
}

describe("stats rollups", () => {
  it("the duration buckets are exact below 32 ms and within 2.5% above", () => {
    for (let ms = 0; ms < 32; ms++) expect(bucketValue(durationBucket(ms))).toBe(ms);
    for (let ms = 32; ms < 5_000_000; ms = Math.ceil(ms * 1.013)) expect(Math.abs(bucketValue(durationBucket(ms)) - ms) / ms).toBeLessThanOrEqual(0.025);
    const h = newHistogram();
    expect(histogramPercentile(h, 0.5)).toBeNull();
    addHistogram(h, { 3: 1, 10: 1, 12: 0 });
    expect(histogramPercentile(h, 0.5)).toBe(6.5);
    expect(histogramPercentile(h, 0)).toBe(3);
    expect(histogramPercentile(h, 1)).toBe(10);
  });

  it("the SQL bucket function agrees with the one the stats read", async () => {
    const ms = [0, 1, 31, 32, 33, 100, 1000, 12345, 3_600_000, 86_400_000];
    const rows = await db.prisma.$queryRawUnsafe<{ b: number }[]>(
      `SELECT run_duration_bucket(ms) AS b FROM unnest($1::int[]) WITH ORDINALITY AS t(ms, n) ORDER BY n`,
      ms,
    );
    expect(rows.map((r) => r.b)).toEqual(ms.map(durationBucket));
  });

  it("answer tool, source, status and hour-aligned time filters as the exact query does", async () => {
    for (const f of FILTERS) await expectRollupsMatch(f, f.status !== "running");
  });

  it("fall back to the runs for filters they do not keep, minute series and unaligned ranges", async () => {
    for (const f of [
      { tool: "wide", actor: "bob" },
      { tool: "wide", q: "ok 1" },
      { tool: "burst", status: "error" },
      { tool: "wide", since: new Date(t0 + 90_000) },
    ] satisfies RunFilter[]) {
      expect((await runStats(db.prisma, f)).approximate, JSON.stringify(f)).toBe(false);
    }
  });

  it("keep one row per source beside the rows per tool", async () => {
    const perSource = await db.prisma.$queryRawUnsafe<{ source: string; runs: number }[]>(
      `SELECT tool_source AS source, sum(runs)::int AS runs FROM run_rollups WHERE grain = 'day' AND tool_name = '' GROUP BY 1 ORDER BY 1`,
    );
    const perTool = await db.prisma.$queryRawUnsafe<{ source: string; runs: number }[]>(
      `SELECT tool_source AS source, sum(runs)::int AS runs FROM run_rollups WHERE grain = 'day' AND tool_name <> '' GROUP BY 1 ORDER BY 1`,
    );
    expect(perSource.map((r) => r.source)).toEqual(["builtin", "mcp:ext"]);
    expect(perSource).toEqual(perTool);
  });

  it("are what a rebuild from the runs computes", async () => {
    const kept = await rollupRows();
    await db.prisma.$executeRawUnsafe(`SELECT run_rollups_rebuild()`);
    expect(await rollupRows()).toEqual(kept);
  });

  it("follow a final run whose status changes, retention and deletes", async () => {
    const [one] = await db.prisma.run.findMany({ where: { toolName: "wide", status: "success" }, take: 1 });
    await db.prisma.run.update({ where: { id: one!.id }, data: { status: "error", durationMs: 123_456 } });
    await db.prisma.run.update({ where: { id: one!.id }, data: { progress: { progress: 1 } } }); // not a rollup column
    const retention = RuntimeConfigSchema.parse({ retention: { maxRunsPerTool: 300, perTool: { narrow: { maxAgeDays: 3 } } } }).retention;
    const purged = await runs.purge(retention, { now: new Date(t0 + 6 * DAY) });
    expect(purged.total).toBeGreaterThan(500);
    await db.prisma.run.deleteMany({ where: { toolName: "wide", status: "timeout" } });
    for (const f of FILTERS) await expectRollupsMatch(f, f.status !== "running");
    const kept = await rollupRows();
    await db.prisma.$executeRawUnsafe(`SELECT run_rollups_rebuild()`);
    expect(await rollupRows()).toEqual(kept);
  });

  it("are emptied with the runs", async () => {
    await db.prisma.$executeRawUnsafe(`TRUNCATE runs CASCADE`);
    expect(await rollupRows()).toEqual([]);
    expect(await runStats(db.prisma, { tool: "wide" })).toMatchObject({ count: 0, p50Ms: null, series: [] });
  });
});
