// MCP connections belong to the workers: a "worker" (its own McpManager on the example server,
// started by the test over stdio, its own queue instance) publishes its servers and tools; a "web"
// instance with no connections lists them from the database and hands runs of MCP tools to the
// worker, waiting for each to end. One PostgreSQL database, no mocks.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AuditLog, runAudit } from "@/lib/audit";
import type { Db } from "@/lib/db/client";
import type { Prisma } from "@/lib/db/generated/client";
import { PgNotifier } from "@/lib/db/notify";
import { requestCancel } from "@/lib/execution/cancel";
import { RUN_FINAL_CHANNEL, RunWaiter } from "@/lib/execution/delegate";
import { executeTool, runQueued, type ExecuteDeps, type QueueDeps } from "@/lib/execution/execute";
import type { McpServerConfig } from "@/lib/mcp/connection";
import { McpDirectory } from "@/lib/mcp/directory";
import { McpPublisher } from "@/lib/mcp/publish";
import { McpManager } from "@/lib/mcp/source";
import { RunQueue } from "@/lib/queue/run-queue";
import { Registry } from "@/lib/registry/registry";
import { RunStore } from "@/lib/runs/store";
import type { ProgressUpdate } from "@/lib/tools/define";
import { createTestDatabase, type TestDatabase } from "./helpers/db";
import { EXAMPLE_SERVER } from "./helpers/mcp";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const ex: McpServerConfig = { name: "ex", transport: "stdio", command: process.execPath, args: [EXAMPLE_SERVER], env: {}, enabled: true };

async function until<T>(read: () => T | Promise<T>, ok: (v: T) => boolean, ms = 15_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await read();
    if (ok(v) || Date.now() > end) return v;
    await sleep(10);
  }
}

describe("MCP servers held by the workers, listed and called from a web instance without connections", () => {
  let db: TestDatabase;
  let servers: McpServerConfig[] = [ex];
  let manager: McpManager;
  let publisher: McpPublisher;
  let workerQueue: RunQueue;
  let webQueue: RunQueue;
  let notifier: PgNotifier;
  let directory: McpDirectory;
  let web: ExecuteDeps;
  let runs: RunStore;
  const pg = (): Pick<Db, "kind" | "url"> => ({ kind: "pg", url: db.url });

  beforeAll(async () => {
    db = await createTestDatabase();
    const audit = new AuditLog(db.prisma);
    // The worker's side.
    manager = new McpManager();
    await manager.sync(servers);
    publisher = new McpPublisher(manager, db.prisma, { publisher: "worker-1", debounceMs: 20 });
    const workerRegistry = new Registry();
    workerRegistry.addSource(manager.source());
    const workerRuns = new RunStore(db.prisma, { audit: runAudit(audit), lease: { owner: "worker-1", ms: 30_000 } });
    workerQueue = RunQueue.create(pg(), { maxRunMs: 60_000, instanceName: "worker" });
    await workerQueue.start();
    const announce = (id: string) => async (tx: Prisma.TransactionClient) => void (await tx.$executeRaw`SELECT pg_notify(${RUN_FINAL_CHANNEL}, ${id})`);
    const workerDeps: ExecuteDeps & QueueDeps = {
      registry: workerRegistry,
      runs: workerRuns,
      queue: workerQueue,
      onQueuedFinal: announce,
      sourcesSettled: () => manager.settled(),
    };
    await workerQueue.work(async (id, signal, job) => void (await runQueued(workerDeps, id, { signal, retries: !job.waited })), { concurrency: 2 });

    // The web instance's side: no connections.
    notifier = new PgNotifier(db.url);
    runs = new RunStore(db.prisma, { audit: runAudit(audit), lease: { owner: "web-1", ms: 30_000 } });
    directory = new McpDirectory(db.prisma, { servers: () => servers, notifier, pollMs: 60_000 });
    await directory.start();
    const registry = new Registry();
    registry.addSource(directory.source());
    webQueue = RunQueue.create(pg(), { maxRunMs: 60_000, instanceName: "web" });
    await webQueue.start();
    const cancelQueued = async (id: string) => {
      const run = await runs.endQueued(id, {
        status: "cancelled",
        finishedAt: new Date(),
        error: { kind: "cancelled", message: "Cancelled by the caller before it started." },
      });
      if (run) await webQueue.cancel(id);
      return run;
    };
    const waiter = new RunWaiter({ runs, notifier, cancel: (id) => requestCancel({ runs, notifier, cancelQueued }, id), dropJob: (id) => webQueue.cancel(id) });
    web = {
      registry,
      runs,
      sourcesSettled: () => directory.settled(),
      delegate: { wanted: (t) => t.spec.source.kind === "mcp", queue: webQueue, wait: waiter.wait.bind(waiter) },
    };
  }, 60_000);

  afterAll(async () => {
    await workerQueue?.stop(5000);
    await webQueue?.stop(5000);
    await publisher?.stop();
    await manager?.close();
    await directory?.close();
    await notifier?.close();
    await db?.drop();
  });

  it("lists the worker's servers and tools, as the worker sees them", async () => {
    await directory.settled(20_000);
    expect(directory.state("ex")).toMatchObject({ name: "ex", state: "connected", origin: "config" });
    const names = (await web.registry.list()).map((t) => t.name).sort();
    expect(names).toEqual(
      manager
        .tools()
        .map((t) => t.spec.name)
        .sort(),
    );
    expect(names).toContain("ex__slow_count");
    // Every declared field survives the trip through the database.
    const spec = (await web.registry.get("ex__fancy"))!.spec;
    expect(spec).toEqual(manager.tools().find((t) => t.spec.name === "ex__fancy")!.spec);
    // Nothing of the server runs here.
    expect(directory.holdsConnections).toBe(false);
    expect(directory.connection()).toBeUndefined();
  });

  it("a synchronous call is run by the worker and answered here, with its progress", async () => {
    const progress: ProgressUpdate[] = [];
    let started = "";
    const run = await executeTool(web, {
      tool: "ex__slow_count",
      arguments: { to: 3, delayMs: 300 },
      origin: "api",
      actor: "ana@example.com",
      onStart: (id) => (started = id),
      onProgress: (p) => progress.push(p),
    });
    expect(run).toMatchObject({ id: started, status: "success", tool: "ex__slow_count", actor: "ana@example.com" });
    expect(JSON.stringify(run.output)).toContain("counted to 3");
    expect(progress.length).toBeGreaterThan(0);
    expect(progress.at(-1)!.total).toBe(3);
    const row = await db.prisma.run.findUniqueOrThrow({ where: { id: run.id } });
    expect(row.owner).toBe("worker-1"); // run by the worker, which holds the connection
    expect(row.retryOfId).toBeNull();
  });

  it("a tool's error is the run's error, and the waiting call is not retried", async () => {
    const run = await executeTool(web, { tool: "ex__fail_politely", arguments: {}, origin: "api", actor: "ana@example.com" });
    expect(run.status).toBe("error");
    await sleep(200);
    expect(await db.prisma.run.count({ where: { retryOfId: run.id } })).toBe(0);
  });

  it("a caller that goes away cancels the run on the worker", async () => {
    const ac = new AbortController();
    const pending = executeTool(web, {
      tool: "ex__slow_count",
      arguments: { to: 50, delayMs: 200 },
      origin: "api",
      actor: "ana@example.com",
      signal: ac.signal,
      onStart: () => setTimeout(() => ac.abort(), 600),
    });
    const run = await pending;
    expect(run.status).toBe("cancelled");
    expect(run.durationMs).toBeLessThan(5000);
  });

  it("a run no worker takes in time ends timeout and says why", async () => {
    await workerQueue.stop(5000);
    const run = await executeTool(web, { tool: "ex__echo", arguments: { message: "hi" }, origin: "api", actor: "ana@example.com", timeoutMs: 1000 });
    expect(run.status).toBe("timeout");
    expect(run.error?.message).toMatch(/No worker started the run within 1 s/);
    const jobs = await db.prisma.$queryRawUnsafe<{ state: string }[]>(`SELECT state::text FROM pgboss.job WHERE data->>'runId' = $1`, run.id);
    expect(jobs.every((j) => j.state === "cancelled")).toBe(true);
  });

  it("a server removed from the config leaves the list once the worker has followed", async () => {
    servers = [];
    await manager.sync(servers);
    await publisher.flush();
    expect(directory.states()).toEqual([]);
    await until(
      () => db.prisma.mcpServerState.count(),
      (n) => n === 0,
    );
    expect(await db.prisma.mcpServerState.count()).toBe(0);
    // A config entry the worker has not connected yet shows as connecting, with no tools.
    servers = [{ ...ex, name: "later" }];
    expect(directory.state("later")).toMatchObject({ state: "connecting", toolCount: 0 });
    expect(await web.registry.list()).toEqual([]);
  });
});
