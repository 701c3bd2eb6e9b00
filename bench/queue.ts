// npm run bench:queue — what the job queue costs a short run, to decide where short synchronous
// runs execute. On one PostgreSQL database, with capture and audit as in production, `add` is
// run N times one after the other (c=1) and N times 16 at once:
//   direct: executeTool in this process (what a sync POST does in a web instance);
//   queued: enqueueTool (row + job in one transaction), a worker's poller takes the job, claims
//           the run and runs it; timed until the worker has stored the outcome.
// Knob: BENCH_QUEUE_RUNS (300).
import { AuditLog, runAudit } from "../lib/audit";
import { enqueueTool, executeTool, runQueued } from "../lib/execution/execute";
import { RunQueue } from "../lib/queue/run-queue";
import { Registry } from "../lib/registry/registry";
import { RunStore } from "../lib/runs/store";
import { createBuiltinSource } from "../lib/builtin-tools";
import { OutboxStore } from "../lib/outbox/store";
import { RuntimeConfigSchema } from "../lib/config/schema";
import { createTestDatabase } from "../tests/helpers/db";
import { intEnv } from "./env";

const N = intEnv("BENCH_QUEUE_RUNS", 300, 20, 100_000);
const db = await createTestDatabase();
const audit = new AuditLog(db.prisma);
const runs = new RunStore(db.prisma, { audit: runAudit(audit), lease: { owner: "bench", ms: 30_000 } });
const config = RuntimeConfigSchema.parse({});
const registry = new Registry();
registry.addSource(createBuiltinSource({ outbox: new OutboxStore(db.prisma), config: () => config, listTools: () => registry.list() }));
const deps = { registry, runs };

const web = RunQueue.create({ kind: "pg", url: db.url }, { maxRunMs: 60_000, instanceName: "bench-web" });
const worker = RunQueue.create({ kind: "pg", url: db.url }, { maxRunMs: 60_000, instanceName: "bench-worker" });
await web.start();
await worker.start();
const finished = new Map<string, () => void>();
const early = new Set<string>();
await worker.work(
  async (id, signal) => {
    await runQueued(deps, id, { signal });
    const done = finished.get(id);
    if (done) done();
    else early.add(id);
  },
  { concurrency: 16 },
);

const req = (i: number) => ({ tool: "add", arguments: { a: i, b: 1 }, origin: "api" as const, actor: "bench" });
async function direct(i: number): Promise<void> {
  const r = await executeTool(deps, req(i));
  if (r.status !== "success") throw new Error(`direct run ${r.status}`);
}
async function queued(i: number): Promise<void> {
  let resolve!: () => void;
  const done = new Promise<void>((r) => (resolve = r));
  const r = await enqueueTool({ ...deps, queue: web }, req(i));
  if (early.delete(r.id)) resolve();
  else finished.set(r.id, resolve);
  await done;
  finished.delete(r.id);
}

async function measure(name: string, fn: (i: number) => Promise<void>, concurrency: number) {
  for (let i = 0; i < 20; i++) await fn(i); // warm-up
  const times: number[] = [];
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < N) {
        const i = next++;
        const s = performance.now();
        await fn(i);
        times.push(performance.now() - s);
      }
    }),
  );
  const wall = performance.now() - t0;
  times.sort((a, b) => a - b);
  const p = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!;
  return { name, concurrency, p50: p(0.5), p95: p(0.95), perSec: (N / wall) * 1000 };
}

const rows = [];
for (const c of [1, 16]) {
  rows.push(await measure("direct (in the web instance)", direct, c));
  rows.push(await measure("queued (row + job, a worker runs it)", queued, c));
}
console.log(`\n| ${N} runs of add, capture + audit | c | p50 ms | p95 ms | runs/s |\n| --- | --- | --- | --- | --- |`);
for (const r of rows) console.log(`| ${r.name} | ${r.concurrency} | ${r.p50.toFixed(1)} | ${r.p95.toFixed(1)} | ${r.perSec.toFixed(0)} |`);
await worker.stop(5000);
await web.stop(5000);
await db.drop();
process.exit(0);
