// History at scale: seeds 1,000,000 runs (BENCH_HISTORY_RUNS) into a fresh PostgreSQL database and
// times the history queries against a plain indexed SELECT measured in the same run, each with its
// target (issue 12, item 4): pages and filters within 2x the plain SELECT of the same 51 rows
// (p50; a SELECT of ids only is shown too), text search and
// one tool's stats within 50 ms (p95). It also measures what the capture-time maintenance (the
// search text and rollup triggers, the trigram index) costs a run's writes: start (INSERT running),
// finish (UPDATE to final) and record (INSERT final), with and without it, on the seeded table.
import { randomUUID } from "node:crypto";
import { performance } from "node:perf_hooks";
import { RunStore } from "../lib/runs/store";
import { createTestDatabase } from "../tests/helpers/db";
import { intEnv } from "./env";
import { seedRuns } from "./seed-runs";

const N = intEnv("BENCH_HISTORY_RUNS", 1_000_000, 1000, 100_000_000);
const ITER = intEnv("BENCH_HISTORY_ITER", 30, 3, 10_000);
const CAPTURE = intEnv("BENCH_HISTORY_CAPTURE", 1000, 10, 100_000);

// The bulk steps (seed batches, index build) take longer than the app's default query timeout.
process.env.STUDIO_DB_QUERY_TIMEOUT_MS ??= "900000";
const db = await createTestDatabase();
const runs = new RunStore(db.prisma);
const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;

const TRIGGERS = ["runs_search_text", "runs_rollup_insert", "runs_rollup_update", "runs_rollup_delete"];
const setTriggers = async (on: boolean) => {
  for (const tr of TRIGGERS) await db.prisma.$executeRawUnsafe(`ALTER TABLE runs ${on ? "ENABLE" : "DISABLE"} TRIGGER ${tr}`);
};

/**
 * What a run's writes cost with and without the capture-time maintenance, on the seeded table:
 * start (INSERT running), finish (UPDATE to final) and record (INSERT final) of CAPTURE runs, in
 * alternating blocks so both sides see the same load. "Without" has the triggers off, so no
 * search text is computed (the trigram index then only gets a NULL entry) and no rollup is kept.
 */
async function captureCost() {
  type Op = "start" | "finish" | "record";
  const times = { with: { start: [], finish: [], record: [] }, without: { start: [], finish: [], record: [] } } as Record<
    "with" | "without",
    Record<Op, number[]>
  >;
  const block = Math.min(50, CAPTURE); // both sides get runs even when CAPTURE is small
  for (let i = 0; i < 2 * CAPTURE; i++) {
    const side = Math.floor(i / block) % 2 ? "without" : "with";
    if (i % block === 0) await setTriggers(side === "with");
    const id = randomUUID();
    const startedAt = new Date();
    const base = {
      id,
      toolName: "capture_tool",
      toolSource: "builtin",
      toolSpecHash: "h",
      arguments: { query: `capture ${i}`, limit: i % 100, tags: ["bench"] },
      startedAt,
      actor: "bench",
      origin: "api" as const,
    };
    let t = performance.now();
    await runs.start(base);
    times[side].start.push(performance.now() - t);
    t = performance.now();
    await runs.finish(id, startedAt, {
      status: "success",
      finishedAt: new Date(startedAt.getTime() + 5 + (i % 300)),
      content: [{ type: "text", text: `captured output ${i} `.repeat(8) }],
      structuredContent: { i, ok: true },
    });
    times[side].finish.push(performance.now() - t);
    t = performance.now();
    await runs.record(
      { ...base, id: randomUUID() },
      { status: "rejected", finishedAt: startedAt, error: { kind: "invalid_args", message: `bad argument ${i}` } },
    );
    times[side].record.push(performance.now() - t);
  }
  await setTriggers(true);
  const summary = (v: number[]) => (v.sort((a, b) => a - b), { p50: pct(v, 0.5), p95: pct(v, 0.95), mean: v.reduce((a, b) => a + b, 0) / v.length });
  console.log(
    `\n${"capture write (ms)".padEnd(20)} ${"without p50".padStart(12)} ${"p95".padStart(7)} ${"mean".padStart(7)} ${"with p50".padStart(10)} ${"p95".padStart(7)} ${"mean".padStart(7)} ${"mean +ms".padStart(9)}`,
  );
  for (const op of ["start", "finish", "record"] as const) {
    const a = summary(times.without[op]);
    const b = summary(times.with[op]);
    console.log(
      `${op.padEnd(20)} ${a.p50.toFixed(2).padStart(12)} ${a.p95.toFixed(2).padStart(7)} ${a.mean.toFixed(2).padStart(7)} ${b.p50.toFixed(2).padStart(10)} ${b.p95.toFixed(2).padStart(7)} ${b.mean.toFixed(2).padStart(7)} ${(b.mean - a.mean).toFixed(2).padStart(9)}`,
    );
  }
  // Leave the query benchmark the seeded runs only, and rollups that match them.
  await db.prisma.$executeRawUnsafe(`DELETE FROM runs WHERE tool_name = 'capture_tool'`);
  await db.prisma.$executeRawUnsafe(`DELETE FROM run_rollups WHERE tool_name = 'capture_tool'`);
  await db.prisma.$executeRawUnsafe(`VACUUM ANALYZE runs`);
}

try {
  console.log(`history bench: seeding ${N.toLocaleString("en")} runs…`);
  const t = performance.now();
  await seedRuns(db.prisma, N);
  console.log(`  seeded in ${((performance.now() - t) / 1000).toFixed(1)} s`);

  console.log(`capture: ${CAPTURE} runs x (start, finish, record) with and ${CAPTURE} without the search text/rollup triggers…`);
  await captureCost();

  const [mid] = await db.prisma.$queryRawUnsafe<{ started_at: Date; id: string }[]>(
    `SELECT started_at, id FROM runs ORDER BY started_at DESC, id DESC OFFSET ${Math.floor(N / 2)} LIMIT 1`,
  );
  const cursor = Buffer.from(`${mid!.started_at.toISOString()}|${mid!.id}`).toString("base64url");
  const oct = new Date(Date.parse("2026-10-01T00:00:00Z"));
  const nov = new Date(Date.parse("2026-11-01T00:00:00Z"));
  const toolRuns = Math.ceil(N / 12);

  type Target = "2x" | "50ms" | null;
  const ops: [string, Target, () => Promise<unknown>][] = [
    ["baseline: plain indexed SELECT * (51 rows)", null, () => db.prisma.$queryRawUnsafe(`SELECT * FROM runs ORDER BY started_at DESC, id DESC LIMIT 51`)],
    ["(plain indexed SELECT of 51 ids)", null, () => db.prisma.$queryRawUnsafe(`SELECT id FROM runs ORDER BY started_at DESC, id DESC LIMIT 51`)],
    ["history page 1 (50 runs)", "2x", () => runs.list({ limit: 50 })],
    [`page at ${Math.floor(N / 2).toLocaleString("en")} deep (cursor)`, "2x", () => runs.list({ limit: 50, cursor })],
    ["filter tool", "2x", () => runs.list({ tool: "tool_3", limit: 50 })],
    ["filter source", "2x", () => runs.list({ source: "runtime", limit: 50 })],
    ["filter status=error", "2x", () => runs.list({ status: "error", limit: 50 })],
    ["filter errorKind=timeout", "2x", () => runs.list({ errorKind: "timeout", limit: 50 })],
    ["filter origin + actor", "2x", () => runs.list({ origin: "mcp", actor: "user_2", limit: 50 })],
    ["filter time range (Oct 2026)", "2x", () => runs.list({ since: oct, until: nov, limit: 50 })],
    ["filter facets (tools, sources, actors)", "2x", () => runs.facets()],
    ["text: common (item 42, 2%)", "50ms", () => runs.list({ q: "item 42", limit: 50 })],
    ["text: everywhere (result)", "50ms", () => runs.list({ q: "result", limit: 50 })],
    ["text: uncommon (item 4999, 0.02%)", "50ms", () => runs.list({ q: "item 4999", limit: 50 })],
    ["text: 1% of runs (upstream failed)", "50ms", () => runs.list({ q: "upstream failed", limit: 50 })],
    [`text: rare, 1 match (result ${N - 17})`, "50ms", () => runs.list({ q: `result ${N - 17}`, limit: 50 })],
    ["text: no match (zzzq)", "50ms", () => runs.list({ q: "zzzq", limit: 50 })],
    ["text: rare + tool filter", "50ms", () => runs.list({ q: `result ${N - 17}`, tool: `tool_${(N - 17) % 12}`, limit: 50 })],
    [`stats of one tool (${toolRuns.toLocaleString("en")} runs)`, "50ms", () => runs.stats({ tool: "tool_3" })],
    ["stats of one tool, Oct 2026", "50ms", () => runs.stats({ tool: "tool_3", since: oct, until: nov })],
    ["stats of one source", "50ms", () => runs.stats({ source: "mcp:everything" })],
    [`stats of one tool, exact (reads the runs)`, null, () => runs.stats({ tool: "tool_3", actor: "user_3" })],
  ];

  const rows: { op: string; target: Target; p50: number; p95: number }[] = [];
  for (const [op, target, fn] of ops) {
    await fn(); // warm the cache
    const times: number[] = [];
    const iters = op.startsWith("stats") ? Math.max(5, Math.floor(ITER / 3)) : ITER;
    for (let i = 0; i < iters; i++) {
      const s = performance.now();
      await fn();
      times.push(performance.now() - s);
    }
    times.sort((a, b) => a - b);
    rows.push({ op, target, p50: pct(times, 0.5), p95: pct(times, 0.95) });
  }
  const base = rows[0]!.p50;
  console.log(`\n${"operation".padEnd(42)} ${"p50 ms".padStart(9)} ${"p95 ms".padStart(9)} ${"x baseline".padStart(11)}  target`);
  let failed = 0;
  for (const r of rows) {
    const ok = r.target === "2x" ? r.p50 <= 2 * base : r.target === "50ms" ? r.p95 <= 50 : true;
    if (!ok) failed++;
    const target = r.target === "2x" ? "<= 2x baseline (p50)" : r.target === "50ms" ? "<= 50 ms p95" : "";
    console.log(
      `${r.op.padEnd(42)} ${r.p50.toFixed(2).padStart(9)} ${r.p95.toFixed(2).padStart(9)} ${(r.p50 / base).toFixed(1).padStart(11)}  ${target}${r.target ? (ok ? "  pass" : "  FAIL") : ""}`,
    );
  }
  console.log(
    `\n${failed ? `${failed} over target` : "all within target"} (load average ${(await import("node:os"))
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(" ")})`,
  );
} finally {
  await db.drop();
}
