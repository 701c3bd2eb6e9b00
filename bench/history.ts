// History at scale: seeds 1,000,000 runs (BENCH_HISTORY_RUNS) into a fresh PostgreSQL database and
// times the history queries against a plain indexed SELECT measured in the same run.
import { performance } from "node:perf_hooks";
import { RunStore } from "../lib/runs/store";
import { createTestDatabase } from "../tests/helpers/db";
import { seedRuns } from "./seed-runs";

const N = Number(process.env.BENCH_HISTORY_RUNS ?? 1_000_000);
const ITER = Number(process.env.BENCH_HISTORY_ITER ?? 30);

const db = await createTestDatabase();
const runs = new RunStore(db.prisma);
try {
  console.log(`history bench: seeding ${N.toLocaleString("en")} runs…`);
  const t = performance.now();
  await seedRuns(db.prisma, N);
  console.log(`  seeded in ${((performance.now() - t) / 1000).toFixed(1)} s`);

  const [mid] = await db.prisma.$queryRawUnsafe<{ started_at: Date; id: string }[]>(`SELECT started_at, id FROM runs ORDER BY started_at DESC, id DESC OFFSET ${Math.floor(N / 2)} LIMIT 1`);
  const cursor = Buffer.from(`${mid!.started_at.toISOString()}|${mid!.id}`).toString("base64url");
  const weekAgo = new Date(Date.parse("2026-10-01T00:00:00Z"));

  const ops: [string, () => Promise<unknown>][] = [
    ["baseline: plain indexed SELECT (51 ids)", () => db.prisma.$queryRawUnsafe(`SELECT id FROM runs ORDER BY started_at DESC, id DESC LIMIT 51`)],
    ["history page 1 (50 runs)", () => runs.list({ limit: 50 })],
    ["page at 500,000 deep (cursor)", () => runs.list({ limit: 50, cursor })],
    ["filter tool", () => runs.list({ tool: "tool_3", limit: 50 })],
    ["filter source", () => runs.list({ source: "runtime", limit: 50 })],
    ["filter status=error", () => runs.list({ status: "error", limit: 50 })],
    ["filter errorKind=timeout", () => runs.list({ errorKind: "timeout", limit: 50 })],
    ["filter origin + actor", () => runs.list({ origin: "mcp", actor: "user_2", limit: 50 })],
    ["filter time range (Oct 2026)", () => runs.list({ since: weekAgo, until: new Date(Date.parse("2026-10-31T00:00:00Z")), limit: 50 })],
    ["text in arguments (common)", () => runs.list({ q: "item 42", limit: 50 })],
    ["text in output (rare: 1 match)", () => runs.list({ q: `result ${N - 17}`, limit: 50 })],
    ["filter facets (tools, sources, actors)", () => runs.facets()],
    ["stats of one tool (83k runs)", () => runs.stats({ tool: "tool_3" })],
  ];

  const rows: { op: string; p50: number; p95: number }[] = [];
  for (const [op, fn] of ops) {
    await fn(); // warm the cache
    const times: number[] = [];
    const iters = op.startsWith("stats") || op.includes("rare") ? Math.max(3, Math.floor(ITER / 6)) : ITER;
    for (let i = 0; i < iters; i++) {
      const s = performance.now();
      await fn();
      times.push(performance.now() - s);
    }
    times.sort((a, b) => a - b);
    rows.push({ op, p50: times[Math.floor(times.length * 0.5)]!, p95: times[Math.min(times.length - 1, Math.floor(times.length * 0.95))]! });
  }
  const base = rows[0]!.p50;
  console.log(`\n${"operation".padEnd(42)} ${"p50 ms".padStart(9)} ${"p95 ms".padStart(9)} ${"x baseline".padStart(11)}`);
  for (const r of rows) console.log(`${r.op.padEnd(42)} ${r.p50.toFixed(2).padStart(9)} ${r.p95.toFixed(2).padStart(9)} ${(r.p50 / base).toFixed(1).padStart(11)}`);
} finally {
  await db.drop();
}
