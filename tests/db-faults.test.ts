import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPrisma, type Db } from "@/lib/db/client";
import { executeTool } from "@/lib/execution/execute";
import { Registry } from "@/lib/registry/registry";
import { defineTool } from "@/lib/tools/define";
import { structured } from "@/lib/tools/output";
import { isDatabaseUnavailable } from "@/lib/db/faults";
import { databaseReachable } from "@/lib/db/health";
import { toErrorResponse } from "@/lib/http/http";
import { RunNotRunningError, RunStore } from "@/lib/runs/store";
import { AuditLog } from "@/lib/audit/log";
import { runAudit } from "@/lib/audit/observer";
import { createTestDatabase, type TestDatabase } from "./helpers/db";
import { gatedTool } from "./helpers/gated-tool";
import { privatePgUnavailable, startPrivatePg, type PrivatePg } from "./helpers/private-pg";

// The database stopped or frozen under the studio: every call ends within the configured timeout
// as 503 `unavailable` with Retry-After, and the same client works again once it is back.
const suite = privatePgUnavailable ? describe.skip : describe;
if (privatePgUnavailable) console.warn(`[db-faults] skipped: ${privatePgUnavailable}`);

let pg: PrivatePg;
let db: Db;
let runs: RunStore;

suite("database faults", () => {
  beforeAll(async () => {
    pg = await startPrivatePg();
    db = await createPrisma({ databaseUrl: pg.url, timeouts: { connectMs: 1_500, queryMs: 2_000 } });
    await db.migrate();
    runs = new RunStore(db.prisma);
  }, 90_000);
  afterAll(async () => {
    await db?.close().catch(() => {});
    pg?.destroy();
  });

  /** The same client, polled for up to 5 s: no restart, no new pool. */
  const answersAgain = async (): Promise<boolean> => {
    for (let i = 0; i < 20; i++) {
      if (
        await runs.list().then(
          () => true,
          () => false,
        )
      )
        return true;
      await new Promise((r) => setTimeout(r, 250));
    }
    return false;
  };

  const unavailable = async (work: () => Promise<unknown>) => {
    const err = await work().then(
      () => null,
      (e: unknown) => e,
    );
    expect(err, "the call should fail while the database is down").not.toBeNull();
    expect(isDatabaseUnavailable(err)).toBe(true);
    const res = toErrorResponse(err);
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toBe("5");
    expect((await res.json()).error.kind).toBe("unavailable");
  };

  it("stopped: calls fail fast as unavailable; after a restart the same client works", async () => {
    expect((await runs.list()).runs).toEqual([]);
    pg.stop();
    await unavailable(() => runs.list());
    pg.start();
    expect(await answersAgain()).toBe(true);
  }, 60_000);

  it("the door's reachability check: false while the database is stopped, true again once it is back", async () => {
    expect(await databaseReachable(pg.url)).toBe(true);
    expect(await databaseReachable(undefined), "PGlite is always reachable").toBe(true);
    pg.stop();
    try {
      await new Promise((r) => setTimeout(r, 1_100)); // past the cached answer
      expect(await databaseReachable(pg.url)).toBe(false);
    } finally {
      pg.start();
    }
    let ok = false;
    for (let i = 0; i < 20 && !ok; i++) {
      await new Promise((r) => setTimeout(r, 300));
      ok = await databaseReachable(pg.url);
    }
    expect(ok).toBe(true);
  }, 60_000);

  it("frozen (SIGSTOP): calls end within the query timeout as unavailable; thawed, it answers again", async () => {
    await runs.list();
    pg.freeze(true);
    try {
      await unavailable(() => runs.list());
    } finally {
      pg.freeze(false);
    }
    expect(await answersAgain()).toBe(true);
  }, 60_000);

  it("a run in flight when the database goes away answers its outcome (never 'try again': the tool ran), and is stored once the database is back", async () => {
    const { registry, release } = gatedTool("waits");
    let runId = "";
    const pending = executeTool({ registry, runs }, { tool: "waits", arguments: {}, origin: "api", actor: "t@example.com", onStart: (id) => (runId = id) });
    while (!runId) await new Promise((r) => setTimeout(r, 20));
    pg.stop();
    release();
    const answer = await pending;
    expect(answer).toMatchObject({ id: runId, status: "success", capture: "pending", output: { structuredContent: { done: true } } });
    // Longer than the first retry's wait, so a retry meets the outage too and backs off.
    await new Promise((r) => setTimeout(r, 1_200));
    pg.start();
    let run = null;
    for (let i = 0; i < 60 && run?.status !== "success"; i++) {
      await new Promise((r) => setTimeout(r, 250));
      run = await runs.get(runId).catch(() => null);
    }
    expect(run).toMatchObject({ status: "success", output: { structuredContent: { done: true } } });
  }, 60_000);
});

describe("a run's outcome is written once", () => {
  let tdb: TestDatabase;
  let audit: AuditLog;
  let store: RunStore;
  const add = defineTool({
    name: "add1",
    description: "adds one",
    inputSchema: { type: "object", properties: { n: { type: "number" } }, required: ["n"], additionalProperties: false } as const,
    run: async ({ n }) => structured({ n: n + 1 }),
  });
  const registry = new Registry();
  registry.addSource({ id: "builtin", list: () => [add] });
  const entriesFor = async (id: string) =>
    (await tdb.prisma.auditEntry.findMany({ where: { action: "run" } })).filter((e) => (e.detail as { runId?: string }).runId === id).length;

  beforeAll(async () => {
    tdb = await createTestDatabase();
    audit = new AuditLog(tdb.prisma);
    store = new RunStore(tdb.prisma, { audit: runAudit(audit) });
  });
  afterAll(() => tdb?.drop());

  it("a retried finish of a run already finished writes nothing: no second outcome, no second audit entry", async () => {
    const run = await executeTool({ registry, runs: store }, { tool: "add1", arguments: { n: 1 }, origin: "api", actor: "t@example.com" });
    expect(run.status).toBe("success");
    const again = await store.finish(run.id, new Date(run.startedAt), { status: "error", finishedAt: new Date() }).catch((e: unknown) => e);
    expect(again).toBeInstanceOf(RunNotRunningError);
    expect((await store.get(run.id))?.status).toBe("success");
    expect(await entriesFor(run.id)).toBe(1);
  });

  it("a start whose answer was lost (the row committed, the connection dropped) is closed, not left running", async () => {
    // The row is written, then the driver reports the connection gone, as a frozen server's would.
    class LostAnswer extends RunStore {
      override async start(r: Parameters<RunStore["start"]>[0]) {
        await super.start(r);
        throw Object.assign(new Error("Connection terminated unexpectedly"), { code: "ECONNRESET" });
      }
    }
    const lossy = new LostAnswer(tdb.prisma, { audit: runAudit(audit) });
    let id = "";
    const err = await executeTool(
      { registry, runs: lossy },
      { tool: "add1", arguments: { n: 2 }, origin: "api", actor: "t@example.com", idempotencyKey: "lost-start", onStart: (i) => (id = i) },
    ).catch((e: unknown) => e);
    expect(isDatabaseUnavailable(err)).toBe(true);
    expect(id, "the tool was not called").toBe("");
    const row = await tdb.prisma.run.findFirst({ where: { toolName: "add1", arguments: { equals: { n: 2 } } } });
    expect(row).not.toBeNull();
    let status = row!.status;
    for (let i = 0; i < 40 && status === "running"; i++) {
      await new Promise((r) => setTimeout(r, 100));
      status = (await store.get(row!.id))!.status;
    }
    expect(status).toBe("interrupted");
    expect((await store.get(row!.id))?.error?.message).toMatch(/the tool was not called/);
    expect(await entriesFor(row!.id)).toBe(1);
    // The tool never ran, so the run gave its Idempotency-Key up: the client's retry with it runs the tool.
    expect((await tdb.prisma.run.findUnique({ where: { id: row!.id } }))?.idempotencyKey).toBeNull();
    const retry = await executeTool(
      { registry, runs: store },
      { tool: "add1", arguments: { n: 2 }, origin: "api", actor: "t@example.com", idempotencyKey: "lost-start" },
    );
    expect(retry).toMatchObject({ status: "success", idempotencyKey: "lost-start" });
    expect(retry.idempotentReplay).toBeUndefined();
  });
});
