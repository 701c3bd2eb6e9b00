// The statements of every run (lib/runs/store.ts, lib/audit/log.ts) go through plain SQL on one
// of three back ends (lib/db/sql.ts): the studio's pg pool, PGlite, or a Prisma client. Each must
// store and return the same runs and the same audit chain.
import { randomUUID } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AuditLog, runAudit } from "@/lib/audit";
import { createPrisma, type Db } from "@/lib/db/client";
import type { PrismaClient } from "@/lib/db/generated/client";
import { prismaClientSql, type Sql } from "@/lib/db/sql";
import { RunStore, type RunStart } from "@/lib/runs/store";
import { createTestDatabase, type TestDatabase } from "./helpers/db";

let pgDb: TestDatabase;
let lite: Db;
let liteDir: string;

beforeAll(async () => {
  pgDb = await createTestDatabase();
  liteDir = await mkdtemp(path.join(os.tmpdir(), "sql-backends-"));
  lite = await createPrisma({ dataDir: liteDir, databaseUrl: "" });
  await lite.migrate();
}, 120_000);

afterAll(async () => {
  await pgDb?.drop();
  await lite?.close();
  if (liteDir) await rm(liteDir, { recursive: true, force: true });
});

const backends: [string, () => { prisma: PrismaClient; sql: Sql }][] = [
  ["pg pool", () => pgDb],
  ["Prisma client", () => ({ prisma: pgDb.prisma, sql: prismaClientSql(pgDb.prisma) })],
  ["PGlite", () => lite],
];

const startOf = (over: Partial<RunStart> = {}): RunStart => ({
  id: randomUUID(),
  toolName: "add",
  toolSource: "builtin",
  toolSpecHash: "h".repeat(64),
  arguments: { a: 1, b: 2, text: "quote ' and \\ and \u00e9" },
  timeoutMs: 5000,
  startedAt: new Date(Date.now() - 25),
  actor: "ada@example.com",
  actorId: null,
  tokenId: null,
  agent: "default",
  origin: "api",
  clientName: "cli",
  ...over,
});

describe.each(backends)("the run store and audit log on %s", (_name, backend) => {
  it("stores a run's start and outcome with its audit entry; a second outcome is refused", async () => {
    const { prisma, sql } = backend();
    const audit = new AuditLog(prisma, sql);
    const runs = new RunStore(prisma, { audit: runAudit(audit), lease: { owner: "me", ms: 30_000 }, sql });
    const start = startOf();
    await runs.start(start);
    const running = await runs.get(start.id);
    expect(running).toMatchObject({ status: "running", arguments: start.arguments, actor: start.actor, agent: "default", clientName: "cli", timeoutMs: 5000 });
    const finishedAt = new Date();
    const run = await runs.finish(start.id, start.startedAt, {
      status: "success",
      finishedAt,
      content: [{ type: "text", text: "3" }],
      structuredContent: { sum: 3 },
      outputValid: true,
    });
    // What finish returns is what a later read returns.
    expect(run).toEqual(await runs.get(start.id));
    expect(run).toMatchObject({
      status: "success",
      output: { content: [{ type: "text", text: "3" }], structuredContent: { sum: 3 } },
      outputValid: true,
      finishedAt: finishedAt.toISOString(),
    });
    expect(run.durationMs).toBe(finishedAt.getTime() - start.startedAt.getTime());
    await expect(
      runs.finish(start.id, start.startedAt, { status: "error", finishedAt: new Date(), error: { kind: "other", message: "late" } }),
    ).rejects.toMatchObject({ name: "RunNotRunningError" });
    const entries = await prisma.auditEntry.findMany({ where: { action: "run" } });
    expect(entries.filter((e) => (e.detail as { runId?: string }).runId === start.id)).toHaveLength(1);
  });

  it("writes the whole run when its start row is gone (a database crash lost its asynchronous commit)", async () => {
    const { prisma, sql } = backend();
    const audit = new AuditLog(prisma, sql);
    const runs = new RunStore(prisma, { audit: runAudit(audit), lease: { owner: "me", ms: 30_000 }, sql });
    const start = startOf();
    await runs.start(start);
    await sql.exec(`DELETE FROM runs WHERE id = $1::uuid`, [start.id]);
    const outcome = { status: "success" as const, finishedAt: new Date(), content: [{ type: "text" as const, text: "3" }], structuredContent: { sum: 3 } };
    // Without the start it is a run that is not running, as before.
    await expect(runs.finish(start.id, start.startedAt, outcome)).rejects.toMatchObject({ name: "RunNotRunningError" });
    const run = await runs.finish(start.id, start.startedAt, outcome, undefined, { start });
    expect(run).toEqual(await runs.get(start.id));
    expect(run).toMatchObject({
      status: "success",
      arguments: start.arguments,
      actor: start.actor,
      output: { structuredContent: { sum: 3 } },
      startedAt: start.startedAt.toISOString(),
    });
    // Once stored, the run is finished: a second outcome is refused, with or without the start.
    await expect(runs.finish(start.id, start.startedAt, outcome, undefined, { start })).rejects.toMatchObject({ name: "RunNotRunningError" });
    const entries = await prisma.auditEntry.findMany({ where: { action: "run" } });
    expect(entries.filter((e) => (e.detail as { runId?: string }).runId === start.id)).toHaveLength(1);
    expect((await audit.verify()).ok).toBe(true);
  });

  it("records a rejected run in one write, and interrupts runs whose lease ended, each with its entry", async () => {
    const { prisma, sql } = backend();
    const audit = new AuditLog(prisma, sql);
    const runs = new RunStore(prisma, { audit: runAudit(audit), lease: { owner: "gone", ms: 1 }, sql });
    const rejected = await runs.record(startOf(), {
      status: "rejected",
      finishedAt: new Date(),
      error: { kind: "invalid_args", message: "Invalid arguments: /a must be a number", fields: [{ path: "/a", message: "must be a number" }] },
    });
    expect(rejected).toEqual(await runs.get(rejected.id));
    expect(rejected.error).toEqual({
      kind: "invalid_args",
      message: "Invalid arguments: /a must be a number",
      details: [{ path: "/a", message: "must be a number" }],
    });
    const stale = startOf();
    await runs.start(stale);
    await new Promise((r) => setTimeout(r, 10));
    expect(await runs.expireLeases()).toBeGreaterThanOrEqual(1);
    expect(await runs.get(stale.id)).toMatchObject({ status: "interrupted", error: { kind: "other" } });
    expect((await audit.verify()).ok).toBe(true);
  });

  it("appends concurrent entries as one unbroken chain, with writes that need Prisma in the same batches", async () => {
    const { prisma, sql } = backend();
    const audit = new AuditLog(prisma, sql);
    const runs = new RunStore(prisma, { audit: runAudit(audit), sql });
    const starts = Array.from({ length: 12 }, () => startOf());
    await Promise.all(starts.map((s) => runs.start(s)));
    await Promise.all([
      ...starts.map((s, i) =>
        runs.finish(
          s.id,
          s.startedAt,
          { status: "success", finishedAt: new Date(), content: [] },
          i % 3
            ? undefined
            : async (tx) => {
                // An `also` of the job queue runs in a Prisma transaction: its batch goes through Prisma.
                await tx.$executeRaw`SELECT 1`;
              },
        ),
      ),
      audit.append({ actor: "ada@example.com", action: "export", target: "runs" }),
    ]);
    for (const s of starts) expect((await runs.get(s.id))?.status).toBe("success");
    expect((await audit.verify()).ok).toBe(true);
  });

  it("ends of runs committed together: one the database refuses fails alone, the others are stored with their entries", async () => {
    const { prisma, sql } = backend();
    const audit = new AuditLog(prisma, sql);
    const runs = new RunStore(prisma, { audit: runAudit(audit), sql });
    const starts = Array.from({ length: 5 }, () => startOf());
    await Promise.all(starts.map((s) => runs.start(s)));
    const results = await Promise.allSettled(
      starts.map((s, i) =>
        runs.finish(s.id, s.startedAt, {
          status: "success",
          finishedAt: new Date(),
          // jsonb cannot hold U+0000: this run's UPDATE fails, and with it the batch it was in.
          structuredContent: i === 2 ? { text: "a\u0000b" } : { i },
        }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "fulfilled", "rejected", "fulfilled", "fulfilled"]);
    for (const [i, s] of starts.entries()) expect((await runs.get(s.id))?.status).toBe(i === 2 ? "running" : "success");
    const entries = await prisma.auditEntry.findMany({ where: { action: "run" } });
    const ids = new Set(entries.map((e) => (e.detail as { runId?: string }).runId));
    expect(starts.map((s) => ids.has(s.id))).toEqual([true, true, false, true, true]);
    expect((await audit.verify()).ok).toBe(true);
  });

  it("writes starts made together in one INSERT; a bad one fails alone", async () => {
    const { prisma, sql } = backend();
    const runs = new RunStore(prisma, { sql });
    const good = Array.from({ length: 6 }, () => startOf());
    // replayOf names a run that does not exist: the foreign key refuses this row, and only it.
    const bad = startOf({ replayOf: randomUUID() });
    const results = await Promise.allSettled([...good.slice(0, 3), bad, ...good.slice(3)].map((s) => runs.start(s)));
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "fulfilled", "fulfilled", "rejected", "fulfilled", "fulfilled", "fulfilled"]);
    for (const s of good) expect((await runs.get(s.id))?.status).toBe("running");
    expect(await runs.get(bad.id)).toBeNull();
  });
});

describe.each(backends)("a transaction on %s", (_name, backend) => {
  const tricky = "it's \\ a \"test\" \u00e9 $1 ' -- ;";
  beforeAll(async () => {
    await backend().sql.exec(`CREATE TABLE IF NOT EXISTS tx_probe (id int PRIMARY KEY, v text, j jsonb)`);
  });

  it("stores what its first and last statements carry exactly, and commits with the last", async () => {
    const { sql } = backend();
    const id = Math.floor(Math.random() * 1e9);
    const n = await sql.transaction(async (tx) => {
      await tx.exec(`INSERT INTO tx_probe (id, v, j) VALUES ($1::int, $2, $3::jsonb)`, [id, tricky, JSON.stringify({ s: tricky })]);
      await tx.query(`SELECT v FROM tx_probe WHERE id = $1::int`, [id]);
      return tx.commitWith(`UPDATE tx_probe SET v = v || $2 WHERE id = $1::int`, [id, tricky]);
    });
    expect(n).toBe(1);
    expect(await sql.query(`SELECT v, j FROM tx_probe WHERE id = $1::int`, [id])).toEqual([{ v: tricky + tricky, j: { s: tricky } }]);
  });

  it("refuses a statement after the last one, and a second last one", async () => {
    const { sql } = backend();
    const id = Math.floor(Math.random() * 1e9);
    await expect(
      sql.transaction(async (tx) => {
        await tx.commitWith(`INSERT INTO tx_probe (id, v) VALUES ($1::int, 'last')`, [id]);
        return tx.query(`SELECT 1`);
      }),
    ).rejects.toThrow(/after the transaction's last one/);
    await expect(
      sql.transaction(async (tx) => {
        await tx.exec(`SELECT 1`);
        await tx.commitWith(`SELECT 1`);
        return tx.commitWith(`SELECT 1`);
      }),
    ).rejects.toThrow(/called twice/);
  });

  it("rolls back when a statement fails, the first one, or the one sent with the COMMIT", async () => {
    const { sql } = backend();
    const id = Math.floor(Math.random() * 1e9);
    await expect(sql.transaction((tx) => tx.exec(`INSERT INTO tx_probe (id, v) VALUES ($1::int, $2::int::text)`, [id, "not a number"]))).rejects.toThrow();
    await expect(
      sql.transaction(async (tx) => {
        await tx.exec(`INSERT INTO tx_probe (id, v) VALUES ($1::int, 'first')`, [id]);
        return tx.commitWith(`INSERT INTO tx_probe (id, v) VALUES ($1::int, 'again')`, [id]);
      }),
    ).rejects.toThrow(/duplicate key/);
    expect(await sql.query(`SELECT v FROM tx_probe WHERE id = $1::int`, [id])).toEqual([]);
    // The connection is usable again.
    expect(await sql.transaction((tx) => tx.commitWith(`INSERT INTO tx_probe (id, v) VALUES ($1::int, 'ok')`, [id]))).toBe(1);
    expect(await sql.query(`SELECT v FROM tx_probe WHERE id = $1::int`, [id])).toEqual([{ v: "ok" }]);
  });
});
