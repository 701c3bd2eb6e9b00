import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AuditLog, runAudit } from "@/lib/audit";
import { createPrisma, type Db } from "@/lib/db/client";
import { requestCancel } from "@/lib/execution/cancel";
import { enqueueTool, executeTool, runQueued, type ExecuteDeps, type QueuedRunResult } from "@/lib/execution/execute";
import { RunQueue } from "@/lib/queue/run-queue";
import { Registry } from "@/lib/registry/registry";
import { RunStore } from "@/lib/runs/store";
import type { Run } from "@/lib/runs/types";
import { defineTool } from "@/lib/tools/define";
import { structured } from "@/lib/tools/output";
import { createTestDatabase, type TestDatabase } from "./helpers/db";
import { gatedTool } from "./helpers/gated-tool";

// Runs sent with "mode": "async" go through pg-boss on the studio's own database: a queued row
// and its job in one transaction, taken by a worker (another "process": its own queue instance
// and pool), priorities first, cancel while queued. PGlite runs the same queue in-process.
const ranRun = (r: QueuedRunResult) => (r && "run" in r ? r.run : null);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const MAX_RUN_MS = 60_000;

function registry(order: string[] = []): Registry {
  const add = defineTool({
    name: "add",
    description: "adds",
    inputSchema: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"], additionalProperties: false } as const,
    async run({ a, b }) {
      order.push(`${a}`);
      await sleep(20);
      return structured({ sum: a + b });
    },
  });
  const r = new Registry();
  r.addSource({ id: "builtin", list: () => [add] });
  return r;
}

const call = (a: number, priority = 0) => ({ tool: "add", arguments: { a, b: 1 }, origin: "api" as const, actor: "queue@example.com", priority });

async function until<T>(read: () => Promise<T>, ok: (v: T) => boolean, ms = 15_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await read();
    if (ok(v) || Date.now() > end) return v;
    await sleep(25);
  }
}

describe("the run queue on PostgreSQL", () => {
  let db: TestDatabase;
  let web: RunQueue;
  let worker: RunQueue | undefined;
  let runs: RunStore;
  let deps: ExecuteDeps;
  const order: string[] = [];
  const pg = (): Pick<Db, "kind" | "url"> => ({ kind: "pg", url: db.url });

  beforeAll(async () => {
    db = await createTestDatabase();
    const audit = new AuditLog(db.prisma);
    runs = new RunStore(db.prisma, { audit: runAudit(audit), lease: { owner: "worker-1", ms: 30_000 } });
    deps = { registry: registry(order), runs };
    web = RunQueue.create(pg(), { maxRunMs: MAX_RUN_MS, instanceName: "web" });
    await web.start();
  });
  afterAll(async () => {
    await worker?.stop(5000);
    await web?.stop(5000);
    await db?.drop();
  });

  const startWorker = async (concurrency = 1) => {
    worker = RunQueue.create(pg(), { maxRunMs: MAX_RUN_MS, instanceName: "worker" });
    await worker.start();
    await worker.work(async (id, signal) => void (await runQueued(deps, id, { signal })), { concurrency });
  };
  const auditOf = async (id: string) =>
    (await db.prisma.auditEntry.findMany({ where: { action: "run" } })).filter((e) => (e.detail as { runId?: string }).runId === id);

  it("stores the call queued with its job in one transaction; a failed send leaves no run", async () => {
    const queued = await enqueueTool({ ...deps, queue: web }, call(1));
    expect(queued.status).toBe("queued");
    expect(queued.queuedAt).toBe(queued.startedAt);
    const job = await db.prisma.$queryRawUnsafe<{ id: string; state: string }[]>(`SELECT id::text, state::text FROM pgboss.job WHERE id = $1::uuid`, queued.id);
    expect(job).toEqual([{ id: queued.id, state: "created" }]);

    const before = await db.prisma.run.count();
    const broken = { send: async () => Promise.reject(new Error("queue down")) };
    await expect(enqueueTool({ ...deps, queue: broken }, call(2))).rejects.toThrow("queue down");
    expect(await db.prisma.run.count()).toBe(before);
  });

  it("a call the checks refuse is captured rejected at once, with no job", async () => {
    const r = await enqueueTool({ ...deps, queue: web }, { ...call(3), arguments: { a: "x" } });
    expect(r.status).toBe("rejected");
    expect(r.error?.kind).toBe("invalid_args");
    const job = await db.prisma.$queryRawUnsafe<unknown[]>(`SELECT 1 FROM pgboss.job WHERE id = $1::uuid`, r.id);
    expect(job).toHaveLength(0);
  });

  it("a run cancelled while queued ends cancelled, with its audit entry, and no worker runs it", async () => {
    const queued = await enqueueTool({ ...deps, queue: web }, call(4));
    const answer = await requestCancel(
      {
        runs,
        cancelQueued: async (id) => {
          const run = await runs.endQueued(id, {
            status: "cancelled",
            finishedAt: new Date(),
            error: { kind: "cancelled", message: "Cancelled before it started." },
          });
          if (run) await web.cancel(id);
          return run;
        },
      },
      queued.id,
    );
    expect(answer).toEqual({ kind: "cancelled", status: "cancelled" });
    const run = await runs.get(queued.id);
    expect(run?.status).toBe("cancelled");
    expect(run?.error?.message).toBe("Cancelled before it started.");
    expect(await auditOf(queued.id)).toHaveLength(1);
    // A second cancel finds it finished.
    expect(await requestCancel({ runs, cancelQueued: (id) => runs.endQueued(id, { status: "cancelled", finishedAt: new Date() }) }, queued.id)).toEqual({
      kind: "finished",
      status: "cancelled",
    });
  });

  it("a worker runs what waits, higher priority first, and each run is captured once with its audit entry", async () => {
    const low = await enqueueTool({ ...deps, queue: web }, call(10, -5));
    const high = await enqueueTool({ ...deps, queue: web }, call(20, 50));
    const mid = await enqueueTool({ ...deps, queue: web }, call(30, 0));
    order.length = 0;
    await startWorker(1);
    const ids = [low.id, high.id, mid.id, (await runs.get(low.id))!.id];
    const done = await until(
      async () => Promise.all(ids.map((id) => runs.get(id))),
      (rs) => rs.every((r) => r?.status === "success"),
    );
    expect(done.map((r) => r?.status)).toEqual(["success", "success", "success", "success"]);
    // The first queued run (a=1) waited longest at priority 0; the cancelled one never ran.
    expect(order.filter((a) => a !== "1")).toEqual(["20", "30", "10"]);
    expect(order).not.toContain("4");
    const highRun = done[1] as Run;
    expect(highRun.output?.structuredContent).toEqual({ sum: 21 });
    expect(highRun.priority).toBe(50);
    expect(new Date(highRun.startedAt).getTime()).toBeGreaterThanOrEqual(new Date(highRun.queuedAt!).getTime());
    const row = await db.prisma.run.findUniqueOrThrow({ where: { id: high.id } });
    expect(row.owner).toBe("worker-1");
    for (const id of [low.id, high.id, mid.id]) expect(await auditOf(id)).toHaveLength(1);
  });

  it("a queued run whose job is gone is ended interrupted by the sweep, once, with its audit entry; one with a live job is left", async () => {
    await worker?.stop(5000); // nothing takes jobs meanwhile
    worker = undefined;
    const lost = await enqueueTool({ ...deps, queue: web }, call(50));
    const waiting = await enqueueTool({ ...deps, queue: web }, call(51));
    await db.prisma.$executeRawUnsafe(`DELETE FROM pgboss.job WHERE id = $1::uuid`, lost.id);
    expect(await RunQueue.sweepOrphans(db.prisma, runs, 60_000)).toBe(0); // within the grace period
    expect(await RunQueue.sweepOrphans(db.prisma, runs, 0)).toBe(1);
    expect(await RunQueue.sweepOrphans(db.prisma, runs, 0)).toBe(0);
    const run = await runs.get(lost.id);
    expect(run?.status).toBe("interrupted");
    expect(run?.error?.message).toMatch(/gave up on this run before any worker could start it/);
    expect(await auditOf(lost.id)).toHaveLength(1);
    expect((await runs.get(waiting.id))?.status).toBe("queued");
    await startWorker(1);
    expect(
      (
        await until(
          () => runs.get(waiting.id),
          (r) => r?.status === "success",
        )
      )?.status,
    ).toBe("success");
  });

  it("a worker whose tool sources are still connecting waits for them; a tool gone for good ends the run not_found", async () => {
    const later = new Registry();
    // The run is queued while the web instance has the tool; the worker's registry gets it only once its sources settle.
    const queuedEarly = await runs.enqueue(
      {
        id: crypto.randomUUID(),
        toolName: "add",
        toolSource: "mcp",
        toolSpecHash: "h",
        arguments: { a: 60, b: 1 },
        startedAt: new Date(),
        actor: "queue@example.com",
        origin: "api",
      },
      0,
      async () => {},
    );
    let settled = false;
    const workerDeps: ExecuteDeps = {
      registry: later,
      runs,
      sourcesSettled: async () => {
        if (!settled) later.addSource({ id: "builtin", list: async () => (await registry().snapshot()).tools });
        settled = true;
      },
    };
    expect(ranRun(await runQueued(workerDeps, queuedEarly.id))?.status).toBe("success");

    const gone = await runs.enqueue(
      {
        id: crypto.randomUUID(),
        toolName: "nope",
        toolSource: "mcp",
        toolSpecHash: "h",
        arguments: {},
        startedAt: new Date(),
        actor: "queue@example.com",
        origin: "api",
      },
      0,
      async () => {},
    );
    const ended = ranRun(await runQueued(workerDeps, gone.id));
    expect(ended).toMatchObject({ status: "error", error: { kind: "not_found" } });
    expect(ended?.error?.message).toMatch(/No tool named "nope" is registered any more/);
  });

  it("a running run's progress is in its row for any instance to read: throttled, the latest update kept", async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const stepper = defineTool({
      name: "stepper",
      description: "reports progress, then waits for the test",
      inputSchema: { type: "object", properties: {}, additionalProperties: false } as const,
      async run(_args, ctx) {
        for (let i = 1; i <= 50; i++) ctx.progress({ progress: i, total: 50, message: `step ${i}` });
        await gate;
        return structured({ done: true });
      },
    });
    const reg = new Registry();
    reg.addSource({ id: "builtin", list: () => [stepper] });
    const stepDeps: ExecuteDeps = { registry: reg, runs };
    const seen: number[] = [];
    const sync = executeTool(stepDeps, { tool: "stepper", arguments: {}, origin: "api", actor: "queue@example.com", onProgress: (p) => seen.push(p.progress) });
    const running = await until(
      async () => (await db.prisma.run.findFirst({ where: { toolName: "stepper", status: "running" } }))?.progress as { progress?: number } | null | undefined,
      (p) => p?.progress === 50,
    );
    // The first update is written at once, the latest at the end of the 250 ms interval.
    expect(running).toEqual({ progress: 50, total: 50, message: "step 50" });
    expect(seen).toHaveLength(50); // the caller still gets every update
    const id = (await db.prisma.run.findFirstOrThrow({ where: { toolName: "stepper", status: "running" } })).id;
    expect((await runs.get(id))?.progress).toEqual({ progress: 50, total: 50, message: "step 50" });
    release();
    expect((await sync).status).toBe("success");
  });

  it("a worker stopped while a run outlasts its drain time ends that run interrupted, not cancelled", async () => {
    await worker?.stop(5000); // only the draining worker may take the job (the other has no "gate" tool)
    worker = undefined;
    const gated = gatedTool("gate");
    const q = RunQueue.create(pg(), { maxRunMs: MAX_RUN_MS, instanceName: "draining" });
    await q.start();
    const gatedDeps: ExecuteDeps = { registry: gated.registry, runs };
    await q.work(async (id, signal) => void (await runQueued(gatedDeps, id, { signal, stopping: () => q.stopping })));
    const queued = await enqueueTool({ ...gatedDeps, queue: web }, { tool: "gate", arguments: {}, origin: "api", actor: "queue@example.com" });
    await until(
      () => runs.get(queued.id),
      (r) => r?.status === "running",
    );
    await q.stop(300);
    const run = await until(
      () => runs.get(queued.id),
      (r) => r?.status !== "running",
      5000,
    );
    expect(run).toMatchObject({
      status: "interrupted",
      error: { kind: "other", message: expect.stringMatching(/worker stopped .* before this run finished/) },
    });
    expect(await auditOf(queued.id)).toHaveLength(1);
    gated.release();
    await startWorker(1); // back for the tests that follow
  });

  it("a job taken again finds its run no longer queued and leaves it alone", async () => {
    const queued = await enqueueTool({ ...deps, queue: web }, call(40));
    await until(
      () => runs.get(queued.id),
      (r) => r?.status === "success",
    );
    expect(await runQueued(deps, queued.id)).toBeNull();
    expect(await auditOf(queued.id)).toHaveLength(1);
  });
});

describe("the run queue on PGlite, in-process", () => {
  let dir: string;
  let db: Db;
  let queue: RunQueue;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), "tool-studio-queue-"));
    db = await createPrisma({ databaseUrl: "", dataDir: dir });
    await db.migrate();
  });
  afterAll(async () => {
    await queue?.stop(5000);
    await db?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it("queues and runs a call in the same process", async () => {
    const runs = new RunStore(db.prisma, { audit: runAudit(new AuditLog(db.prisma)) });
    const deps = { registry: registry(), runs };
    queue = RunQueue.create(db, { maxRunMs: MAX_RUN_MS });
    await queue.start();
    await queue.work(async (id, signal) => void (await runQueued(deps, id, { signal })));
    const queued = await enqueueTool({ ...deps, queue }, call(7));
    expect(queued.status).toBe("queued");
    const run = await until(
      () => runs.get(queued.id),
      (r) => r?.status === "success",
    );
    expect(run?.output?.structuredContent).toEqual({ sum: 8 });
  });
});
