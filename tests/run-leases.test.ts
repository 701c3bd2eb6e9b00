import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AuditLog, runAudit } from "@/lib/audit";
import { heldRunIds, holdRun } from "@/lib/execution/active-runs";
import { executeTool } from "@/lib/execution/execute";
import { instanceId, keepLeases, leaseMs, maySweep } from "@/lib/runs/leases";
import { RunStore, type RunStart } from "@/lib/runs/store";
import { createTestDatabase, type TestDatabase } from "./helpers/db";
import { gatedTool } from "./helpers/gated-tool";

// Runs are leased to the process running them: a run is marked interrupted only once its lease
// has ended, by whichever instance sweeps; a live process renews what it holds.
let db: TestDatabase;
let audit: AuditLog;
const LEASE = 2500;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const storeFor = (owner: string) => new RunStore(db.prisma, { audit: runAudit(audit), lease: { owner, ms: LEASE } });
let n = 0;
const started = (): RunStart => ({
  id: crypto.randomUUID(),
  toolName: "t",
  toolSource: "builtin",
  toolSpecHash: "h",
  arguments: { n: n++ },
  startedAt: new Date(),
  actor: "t@example.com",
  origin: "api",
});
const auditEntries = async (id: string) =>
  (await db.prisma.auditEntry.findMany({ where: { action: "run" } })).filter((e) => (e.detail as { runId?: string }).runId === id).length;

beforeAll(async () => {
  db = await createTestDatabase();
  audit = new AuditLog(db.prisma);
  await db.prisma.run.count(); // the first query opens the pool: not part of any lease
});
afterAll(() => db?.drop());

describe("run leases", () => {
  it("a run is interrupted by another instance only after its lease has ended, with its audit entry", async () => {
    const a = storeFor("instance-a");
    const b = storeFor("instance-b");
    const run = started();
    await a.start(run);
    const row = await db.prisma.run.findUniqueOrThrow({ where: { id: run.id } });
    expect(row.owner).toBe("instance-a");
    expect(row.leaseUntil!.getTime()).toBeGreaterThan(Date.now());
    await b.expireLeases();
    expect((await b.get(run.id))?.status).toBe("running");
    await sleep(LEASE + 100);
    expect(await b.expireLeases()).toBeGreaterThanOrEqual(1);
    const after = await db.prisma.run.findUniqueOrThrow({ where: { id: run.id } });
    expect(after.status).toBe("interrupted");
    expect(after.finishedAt!.getTime()).toBeGreaterThanOrEqual(after.leaseUntil!.getTime());
    expect(await auditEntries(run.id)).toBe(1);
  });

  it("renewals keep a run leased; a run with no lease at all (from before leases) counts as ended", async () => {
    const a = storeFor("instance-a");
    const run = started();
    await a.start(run);
    for (let i = 0; i < 4; i++) {
      await sleep(LEASE / 2);
      expect(await a.renewLeases([run.id])).toBe(1);
      await storeFor("instance-b").expireLeases();
    }
    expect((await a.get(run.id))?.status).toBe("running");
    await a.finish(run.id, run.startedAt, { status: "success", finishedAt: new Date() });
    expect(await a.renewLeases([run.id]), "a finished run is not renewed").toBe(0);

    const legacy = started();
    await new RunStore(db.prisma).start(legacy);
    expect((await db.prisma.run.findUniqueOrThrow({ where: { id: legacy.id } })).leaseUntil).toBeNull();
    await a.expireLeases();
    expect((await a.get(legacy.id))?.status).toBe("interrupted");
  });

  it("a long run under a live keeper outlasts many leases while another instance sweeps; a run whose owner is gone is swept", async () => {
    const { registry, release } = gatedTool("slow");
    const mine = storeFor(instanceId());
    const keeper = keepLeases(mine, { ms: LEASE, held: heldRunIds });
    const other = storeFor("instance-b");
    try {
      let id = "";
      const pending = executeTool({ registry, runs: mine }, { tool: "slow", arguments: {}, origin: "api", actor: "t@example.com", onStart: (i) => (id = i) });
      const orphan = started();
      await storeFor("instance-dead").start(orphan);
      for (let i = 0; i < 6; i++) {
        await sleep(LEASE / 2);
        await other.expireLeases();
      }
      expect((await other.get(orphan.id))?.status, "the dead instance's run").toBe("interrupted");
      expect((await other.get(id))?.status, "the live instance's run").toBe("running");
      release();
      expect((await pending).status).toBe("success");
    } finally {
      keeper.stop();
    }
  });

  it("a run interrupted while its process still ran it keeps that outcome: the late result is not written over it", async () => {
    const { registry, release } = gatedTool("slow2");
    const mine = storeFor("instance-frozen"); // no keeper: as if it lost the database for longer than the lease
    let id = "";
    const pending = executeTool({ registry, runs: mine }, { tool: "slow2", arguments: {}, origin: "api", actor: "t@example.com", onStart: (i) => (id = i) });
    while (!id) await sleep(10);
    await sleep(LEASE + 100);
    await storeFor("instance-b").expireLeases();
    release();
    const run = await pending;
    expect(run.status).toBe("interrupted");
    expect(await auditEntries(id)).toBe(1);
  });

  it("a process never sweeps a run it still holds (an outcome waiting for the database outlived its lease); another instance does", async () => {
    const mine = storeFor(instanceId());
    const run = started();
    await mine.start(run);
    const release = holdRun(run.id);
    try {
      const afterLease = new Date(Date.now() + LEASE + 1_000);
      expect(await mine.expireLeases(afterLease, heldRunIds())).toBe(0);
      expect((await mine.get(run.id))?.status).toBe("running");
      expect(await storeFor("instance-b").expireLeases(afterLease)).toBeGreaterThanOrEqual(1);
      expect((await mine.get(run.id))?.status).toBe("interrupted");
    } finally {
      release();
    }
  });

  it("sweeps wait one lease after the database last failed this process, so live owners renew first", () => {
    expect(maySweep(Number.NEGATIVE_INFINITY, 1_000, 3_000)).toBe(true);
    expect(maySweep(10_000, 10_001, 3_000)).toBe(false);
    expect(maySweep(10_000, 12_999, 3_000)).toBe(false);
    expect(maySweep(10_000, 13_000, 3_000)).toBe(true);
  });

  it("reads its lease length from STUDIO_RUN_LEASE_MS", () => {
    expect(leaseMs({})).toBe(30_000);
    expect(leaseMs({ STUDIO_RUN_LEASE_MS: "5000" })).toBe(5000);
    expect(leaseMs({ STUDIO_RUN_LEASE_MS: "10" })).toBe(30_000);
    expect(leaseMs({ STUDIO_RUN_LEASE_MS: "abc" })).toBe(30_000);
    expect(instanceId()).toBe(instanceId());
  });
});
