import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import { AUDIT_LOCK_KEY, AUDIT_MAX_BATCH, AuditInputError, AuditLog, type AuditAction, type AuditEntry } from "@/lib/audit/log";
import { createPrisma } from "@/lib/db/client";
import { createTestDatabase, type TestDatabase } from "./helpers/db";

// Group commit of audit appends against a real PostgreSQL: concurrent appends of one process are
// written by one transaction per batch, every caller gets its own entry only once it committed,
// and a batch the database refuses (at INSERT or at COMMIT) is refused for all of its callers.
// Which rows one transaction wrote is read from PostgreSQL itself: they share `xmin`.

const dbs: TestDatabase[] = [];
const clients: pg.Client[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) await c.end().catch(() => {});
  for (const d of dbs.splice(0)) await d.drop();
});

async function freshDb(): Promise<TestDatabase> {
  const db = await createTestDatabase();
  dbs.push(db);
  return db;
}

/** A session of its own, like psql or another process (closed after the test). */
async function session(db: TestDatabase): Promise<pg.Client> {
  const c = new pg.Client({ connectionString: db.url });
  await c.connect();
  clients.push(c);
  return c;
}

type RawRow = {
  seq: string;
  at: Date;
  actor: string;
  action: string;
  target: string | null;
  detail: unknown;
  from_addr: string | null;
  prev_hash: string;
  hash: string;
  tx: string;
};

async function rows(c: pg.Client): Promise<RawRow[]> {
  return (await c.query<RawRow>("SELECT *, xmin::text AS tx FROM audit_log ORDER BY seq")).rows;
}

/** The entry a caller should have got for this row. */
function asEntry(r: RawRow): AuditEntry {
  return {
    seq: Number(r.seq),
    at: r.at.toISOString(),
    actor: r.actor,
    action: r.action,
    target: r.target,
    detail: r.detail,
    from: r.from_addr,
    prevHash: r.prev_hash,
    hash: r.hash,
  };
}

/** Sizes of the writing transactions, in chain order. */
function txSizes(all: RawRow[]): number[] {
  const sizes: number[] = [];
  let prev: string | undefined;
  for (const r of all) {
    if (r.tx === prev) sizes[sizes.length - 1]!++;
    else sizes.push(1);
    prev = r.tx;
  }
  return sizes;
}

/** Sessions of this database waiting for the advisory lock `key` (an int8 key: classid = high half, objid = low half). */
async function lockWaiters(c: pg.Client, key: bigint): Promise<number> {
  const r = await c.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM pg_locks
     WHERE locktype = 'advisory' AND NOT granted AND objsubid = 1
       AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
       AND ((classid::int8 << 32) | objid::int8) = $1::int8`,
    [key.toString()],
  );
  return r.rows[0]!.n;
}

async function until(what: string, cond: () => Promise<boolean>, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** A promise and whether it has settled yet. */
function track<T>(p: Promise<T>) {
  const t = { settled: false, promise: p };
  p.then(
    () => (t.settled = true),
    () => (t.settled = true),
  );
  return t;
}

const run = (actor: string, i: number) => ({ actor, action: "run" as const, target: "echo", detail: { i } });

describe("group commit", () => {
  it("500 concurrent appends: one transaction, one gapless valid chain, each caller its own entry exactly as stored", async () => {
    const db = await freshDb();
    const log = new AuditLog(db.prisma);
    const entries = await Promise.all(Array.from({ length: 500 }, (_, i) => log.append(run(`caller-${i}`, i))));

    // each caller got the entry it asked for, in call order, all distinct
    entries.forEach((e, i) => expect([e.seq, e.actor, e.detail]).toEqual([i + 1, `caller-${i}`, { i }]));
    expect(new Set(entries.map((e) => e.hash)).size).toBe(500);

    // ... and it is the row in the database
    const c = await session(db);
    const stored = await rows(c);
    expect(stored.map(asEntry)).toEqual(entries);
    expect(txSizes(stored)).toEqual([500]);
    expect(await log.verify()).toEqual({ ok: true, entries: 500, head: { seq: 500, hash: entries[499]!.hash } });

    // more than a batch at once: split at AUDIT_MAX_BATCH, still in call order
    const more = await Promise.all(Array.from({ length: 1200 }, (_, i) => log.append(run("more", i))));
    expect(more.map((e) => e.seq)).toEqual(Array.from({ length: 1200 }, (_, i) => 501 + i));
    const all = await rows(c);
    expect(all.map(asEntry).slice(500)).toEqual(more);
    expect(txSizes(all)).toEqual([500, AUDIT_MAX_BATCH, AUDIT_MAX_BATCH, 1200 - 2 * AUDIT_MAX_BATCH]);
    expect(await log.verify({ batch: 333 })).toMatchObject({ ok: true, entries: 1700 });
  });

  it("an invalid input is refused for its caller only; the others of the same tick are written", async () => {
    const db = await freshDb();
    const log = new AuditLog(db.prisma);
    const results = await Promise.allSettled([
      log.append(run("a", 0)),
      log.append({ actor: "b", action: "Not An Action" as AuditAction }),
      log.append(run("c", 2)),
    ]);
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    expect((results[1] as PromiseRejectedResult).reason).toBeInstanceOf(AuditInputError);
    expect(results.flatMap((r) => (r.status === "fulfilled" ? [r.value.seq] : []))).toEqual([1, 2]);
  });

  it("calls made while a batch is being written wait for the next one: one lock waiter per process, not one per call", async () => {
    const db = await freshDb();
    const log = new AuditLog(db.prisma);
    const other = await session(db); // holds the append lock, like another process in the middle of an append
    await other.query("SELECT pg_advisory_lock($1::int8)", [AUDIT_LOCK_KEY.toString()]);

    const first = track(log.append(run("first", 0)));
    await until("the first batch to wait for the lock", async () => (await lockWaiters(other, AUDIT_LOCK_KEY)) === 1);
    const next: ReturnType<typeof track<AuditEntry>>[] = [];
    for (let tick = 0; tick < 4; tick++) {
      for (let i = 0; i < 25; i++) next.push(track(log.append(run("next", tick * 25 + i))));
      await new Promise((r) => setTimeout(r, 20));
    }
    await new Promise((r) => setTimeout(r, 100));
    // the old one-transaction-per-call append had a waiter per pool connection here
    expect(await lockWaiters(other, AUDIT_LOCK_KEY)).toBe(1);
    expect([first, ...next].some((t) => t.settled)).toBe(false);
    expect((await other.query("SELECT count(*)::int AS n FROM audit_log")).rows[0].n).toBe(0);

    await other.query("SELECT pg_advisory_unlock($1::int8)", [AUDIT_LOCK_KEY.toString()]);
    const got = await Promise.all([first, ...next].map((t) => t.promise));
    expect(got.map((e) => e.seq)).toEqual(Array.from({ length: 101 }, (_, i) => i + 1));
    const stored = await rows(other);
    expect(stored.map(asEntry)).toEqual(got);
    expect(txSizes(stored)).toEqual([1, 100]);
    expect((await log.verify()).ok).toBe(true);
  });

  it("two AuditLog instances over separate pools (two processes) appending concurrently form one chain", async () => {
    const db = await freshDb();
    const second = await createPrisma({ databaseUrl: db.url });
    try {
      const logs = [new AuditLog(db.prisma), new AuditLog(second.prisma)];
      // each "process" makes 300 calls in 12 waves of 25, without waiting for earlier ones
      const calls = logs.map(async (log, p) => {
        const pending: Promise<AuditEntry>[] = [];
        for (let wave = 0; wave < 12; wave++) {
          for (let i = 0; i < 25; i++) pending.push(log.append(run(`p${p}`, wave * 25 + i)));
          await new Promise((r) => setTimeout(r, Math.random() * 8));
        }
        return Promise.all(pending);
      });
      const [a, b] = await Promise.all(calls);
      const got = [...a!, ...b!];
      expect(got.map((e) => e.seq).sort((x, y) => x - y)).toEqual(Array.from({ length: 600 }, (_, i) => i + 1));
      // each process's own calls got increasing seqs, in call order
      for (const [p, list] of [a!, b!].entries()) {
        list.forEach((e, i) => expect([e.actor, e.detail]).toEqual([`p${p}`, { i }]));
        expect(list.map((e) => e.seq)).toEqual([...list.map((e) => e.seq)].sort((x, y) => x - y));
      }

      const c = await session(db);
      const stored = await rows(c);
      expect(stored.map(asEntry)).toEqual([...got].sort((x, y) => x.seq - y.seq));
      // every transaction wrote consecutive entries of one process only; both processes wrote several
      const byTx = new Map<string, RawRow[]>();
      for (const r of stored) byTx.set(r.tx, [...(byTx.get(r.tx) ?? []), r]);
      for (const txRows of byTx.values()) {
        expect(new Set(txRows.map((r) => r.actor)).size).toBe(1);
        expect(Number(txRows.at(-1)!.seq) - Number(txRows[0]!.seq)).toBe(txRows.length - 1);
      }
      expect(byTx.size).toBeLessThan(600);
      expect(await logs[1]!.verify()).toEqual({ ok: true, entries: 600, head: { seq: 600, hash: stored[599]!.hash } });
    } finally {
      await second.close();
    }
  });
});

describe("a batch the database refuses", () => {
  it("at INSERT (a constraint one entry breaks): every caller of that batch gets the error; the chain goes on without a gap", async () => {
    const db = await freshDb();
    const log = new AuditLog(db.prisma);
    const other = await session(db);
    await other.query(`ALTER TABLE audit_log ADD CONSTRAINT audit_test_refuses CHECK (actor <> 'refused')`);
    await log.append(run("before", 0));

    // the batch before it, held at the lock, so the next calls are one batch of their own
    await other.query("SELECT pg_advisory_lock($1::int8)", [AUDIT_LOCK_KEY.toString()]);
    const ok = log.append(run("ok", 1));
    await until("the first batch to wait for the lock", async () => (await lockWaiters(other, AUDIT_LOCK_KEY)) === 1);
    const doomed = Array.from({ length: 20 }, (_, i) => log.append(run(i === 7 ? "refused" : "innocent", i)));
    const settled = Promise.allSettled(doomed);
    await other.query("SELECT pg_advisory_unlock($1::int8)", [AUDIT_LOCK_KEY.toString()]);

    expect((await ok).seq).toBe(2);
    const results = await settled;
    expect(results.every((r) => r.status === "rejected")).toBe(true);
    const reasons = results.map((r) => (r as PromiseRejectedResult).reason as Error);
    expect(new Set(reasons).size).toBe(1); // the one error of the batch's transaction
    expect(String(reasons[0]?.message)).toMatch(/audit_test_refuses|check constraint/i);

    const after = await Promise.all([log.append(run("after", 0)), log.append(run("after", 1))]);
    expect(after.map((e) => e.seq)).toEqual([3, 4]);
    const stored = await rows(other);
    expect(stored.map((r) => r.actor)).toEqual(["before", "ok", "after", "after"]);
    expect(stored[2]!.prev_hash).toBe(stored[1]!.hash);
    expect(await log.verify()).toMatchObject({ ok: true, entries: 4 });
  });

  it("at COMMIT: no caller hears of its entry before the commit, and a refused commit rejects them all", async () => {
    const db = await freshDb();
    const log = new AuditLog(db.prisma);
    const other = await session(db);
    const GATE = 4242n;
    // A check PostgreSQL runs at COMMIT, after every INSERT of the transaction succeeded: it first
    // waits for the shared GATE lock (so the test can hold a commit open), then refuses one actor.
    await other.query(`
      CREATE FUNCTION audit_test_gate() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_advisory_xact_lock_shared(${GATE});
        IF NEW.actor = 'refused-at-commit' THEN RAISE EXCEPTION 'refused at commit: entry #%', NEW.seq; END IF;
        RETURN NULL;
      END $$;
      CREATE CONSTRAINT TRIGGER audit_test_gate AFTER INSERT ON audit_log
        DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION audit_test_gate();`);

    // 1. a commit held open: rows inserted, nothing acknowledged, nothing visible
    await other.query("SELECT pg_advisory_lock($1::int8)", [GATE.toString()]);
    const held = Array.from({ length: 50 }, (_, i) => track(log.append(run("held", i))));
    await until("the batch to reach its commit", async () => (await lockWaiters(other, GATE)) === 1);
    await new Promise((r) => setTimeout(r, 50));
    expect(held.some((t) => t.settled)).toBe(false);
    expect((await other.query("SELECT count(*)::int AS n FROM audit_log")).rows[0].n).toBe(0);
    await other.query("SELECT pg_advisory_unlock($1::int8)", [GATE.toString()]);
    const got = await Promise.all(held.map((t) => t.promise));
    expect(got.map((e) => e.seq)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    expect((await rows(other)).map(asEntry)).toEqual(got);

    // 2. a commit refused: every caller of the batch is rejected, none of its entries exists
    const results = await Promise.allSettled(Array.from({ length: 30 }, (_, i) => log.append(run(i === 29 ? "refused-at-commit" : "innocent", i))));
    expect(results.every((r) => r.status === "rejected")).toBe(true);
    expect(String(((results[0] as PromiseRejectedResult).reason as Error).message)).toMatch(/refused at commit: entry #80/);
    const next = await log.append(run("next", 0));
    expect(next.seq).toBe(51);
    const stored = await rows(other);
    expect(stored.map((r) => r.actor).filter((a) => a !== "held")).toEqual(["next"]);
    expect(await log.verify()).toMatchObject({ ok: true, entries: 51 });
  });
});
