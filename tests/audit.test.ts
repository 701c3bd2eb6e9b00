import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AuditCursorError, AuditInputError, AuditLog, entryHash, GENESIS_HASH, type AuditAction } from "@/lib/audit/log";
import { createPrisma } from "@/lib/db/client";
import { createTestDatabase, type TestDatabase } from "./helpers/db";

// The audit log against a real PostgreSQL: one chain under concurrency, the database refusing
// edits, and verify() catching the forgeries that get past the triggers.

let db: TestDatabase;
let audit: AuditLog;

beforeAll(async () => {
  db = await createTestDatabase();
  audit = new AuditLog(db.prisma);
});
afterAll(async () => {
  await db?.drop();
});

/** A statement typed by hand into psql, on its own connection. */
async function sql(text: string, params: unknown[] = []) {
  const c = new pg.Client({ connectionString: db.url });
  await c.connect();
  try {
    return await c.query(text, params);
  } finally {
    await c.end();
  }
}

/** What a superuser could do: switch the append-only triggers off, edit, switch them on again. */
async function tamper(fn: (c: pg.Client) => Promise<unknown>) {
  const c = new pg.Client({ connectionString: db.url });
  await c.connect();
  try {
    await c.query("ALTER TABLE audit_log DISABLE TRIGGER ALL");
    try {
      await fn(c);
    } finally {
      await c.query("ALTER TABLE audit_log ENABLE TRIGGER ALL");
    }
  } finally {
    await c.end();
  }
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
};
async function row(seq: number): Promise<RawRow> {
  return (await sql("SELECT * FROM audit_log WHERE seq = $1", [seq])).rows[0] as RawRow;
}

describe("appending", () => {
  it("32 concurrent callers on two separate connection pools form one gapless, valid chain", async () => {
    const other = await createPrisma({ databaseUrl: db.url }); // like a second studio process
    try {
      const second = new AuditLog(other.prisma);
      const results = await Promise.all(
        Array.from({ length: 32 }, (_, i) => (i % 2 ? second : audit).append({ actor: `caller-${i}`, action: "run", target: "echo", detail: { i } })),
      );
      expect(results.map((e) => e.seq).sort((a, b) => a - b)).toEqual(Array.from({ length: 32 }, (_, i) => i + 1));
    } finally {
      await other.close();
    }
    const report = await audit.verify();
    expect(report).toEqual({ ok: true, entries: 32, head: { seq: 32, hash: expect.stringMatching(/^[0-9a-f]{64}$/) } });

    const rows = (await sql("SELECT seq, actor, prev_hash, hash, at FROM audit_log ORDER BY seq")).rows;
    expect(new Set(rows.map((r) => r.actor)).size).toBe(32);
    expect(rows[0].prev_hash).toBe(GENESIS_HASH);
    for (let i = 1; i < rows.length; i++) {
      expect(rows[i].prev_hash).toBe(rows[i - 1].hash);
      expect(rows[i].at.getTime()).toBeGreaterThanOrEqual(rows[i - 1].at.getTime());
    }
  });

  it("hashes exactly what PostgreSQL stores: undefined, Dates, NaN, lone surrogates and NUL are normalized first", async () => {
    const e = await audit.append({
      actor: "t\u0000x",
      action: "export",
      target: "runs\uD800",
      detail: { when: new Date("2026-01-02T03:04:05.678Z"), skip: undefined, n: NaN, deep: { "k\uDC00": ["\u0000", 1.5, -0, 1e21] } },
      from: "127.0.0.1 | curl/8",
    });
    expect(e.actor).toBe("t\uFFFDx");
    expect(e.target).toBe("runs\uFFFD");
    expect(e.detail).toEqual({ when: "2026-01-02T03:04:05.678Z", n: null, deep: { "k\uFFFD": ["\uFFFD", 1.5, 0, 1e21] } });
    // the hash can be recomputed by anyone from the documented fields
    const r = await row(e.seq);
    expect(
      entryHash({
        seq: Number(r.seq),
        at: r.at,
        actor: r.actor,
        action: r.action,
        target: r.target,
        detail: r.detail,
        fromAddr: r.from_addr,
        prevHash: r.prev_hash,
      }),
    ).toBe(r.hash);
    expect((await audit.verify()).ok).toBe(true);
  });

  it("refuses entries it could not store faithfully", async () => {
    await expect(audit.append({ actor: "", action: "run" })).rejects.toBeInstanceOf(AuditInputError);
    await expect(audit.append({ actor: "a", action: "Not An Action" as AuditAction /* a JavaScript caller: the runtime check */ })).rejects.toBeInstanceOf(
      AuditInputError,
    );
    await expect(audit.append({ actor: "a", action: "run", detail: { big: 1n } })).rejects.toBeInstanceOf(AuditInputError);
    await expect(audit.append({ actor: "a", action: "run", detail: "x".repeat(70_000) })).rejects.toBeInstanceOf(AuditInputError);
    // a huge header is shortened, not a lost entry
    expect((await audit.append({ actor: "a", action: "export", from: "ua " + "x".repeat(2000) })).from).toHaveLength(500);
  });
});

describe("the database refuses changes", () => {
  it.each([
    ["UPDATE", "UPDATE audit_log SET detail = '{\"forged\": true}' WHERE seq = 3"],
    ["UPDATE", "UPDATE audit_log SET actor = 'someone-else'"],
    ["DELETE", "DELETE FROM audit_log WHERE seq = 3"],
    ["DELETE", "DELETE FROM audit_log"],
    ["TRUNCATE", "TRUNCATE audit_log"],
  ])("%s by hand: %s", async (op, statement) => {
    const before = (await sql("SELECT count(*)::int AS n, max(hash) AS h FROM audit_log")).rows[0];
    const err = await sql(statement).then(
      () => null,
      (e: pg.DatabaseError) => e,
    );
    expect(err?.message).toBe(`audit_log is append-only: ${op} is not allowed`);
    expect(err?.code).toBe("42501");
    expect((await sql("SELECT count(*)::int AS n, max(hash) AS h FROM audit_log")).rows[0]).toEqual(before);
  });

  it("and through Prisma as well", async () => {
    await expect(db.prisma.auditEntry.deleteMany({})).rejects.toThrow(/append-only/);
    await expect(db.prisma.auditEntry.update({ where: { seq: 1n }, data: { actor: "x" } })).rejects.toThrow(/append-only/);
    expect((await audit.verify()).ok).toBe(true);
  });
});

describe("verify() catches forgeries that get past the triggers", () => {
  it("an edited detail: hash mismatch at that entry", async () => {
    const orig = await row(10);
    await tamper((c) => c.query(`UPDATE audit_log SET detail = '{"i": 999}' WHERE seq = 10`));
    const report = await audit.verify();
    expect(report.ok).toBe(false);
    expect(report.firstBad).toEqual({ seq: 10, reason: expect.stringMatching(/^hash mismatch/) });
    expect(report.entries).toBe(9);
    // also found in small keyset pages, and from a later starting point
    expect((await audit.verify({ batch: 3 })).firstBad?.seq).toBe(10);
    expect((await audit.verify({ from: 8, batch: 1 })).firstBad?.seq).toBe(10);

    await tamper((c) => c.query("UPDATE audit_log SET detail = $1::jsonb WHERE seq = 10", [JSON.stringify(orig.detail)]));
    expect((await audit.verify()).ok).toBe(true);
  });

  it("a changed actor or time is caught the same way", async () => {
    const orig = await row(4);
    await tamper((c) => c.query("UPDATE audit_log SET at = at + interval '1 millisecond' WHERE seq = 4"));
    expect((await audit.verify()).firstBad).toEqual({ seq: 4, reason: expect.stringMatching(/^hash mismatch/) });
    await tamper((c) => c.query("UPDATE audit_log SET at = $1, actor = 'mallory' WHERE seq = 4", [orig.at]));
    expect((await audit.verify()).firstBad).toEqual({ seq: 4, reason: expect.stringMatching(/^hash mismatch/) });
    await tamper((c) => c.query("UPDATE audit_log SET actor = $1 WHERE seq = 4", [orig.actor]));
    expect((await audit.verify()).ok).toBe(true);
  });

  it("a deleted middle entry: the next one reports the gap", async () => {
    const orig = await row(15);
    await tamper((c) => c.query("DELETE FROM audit_log WHERE seq = 15"));
    const report = await audit.verify({ batch: 7 });
    expect(report).toMatchObject({ ok: false, entries: 14, firstBad: { seq: 16, reason: "entry #15 is missing (removed from the chain)" } });

    await tamper((c) =>
      c.query("INSERT INTO audit_log (seq, at, actor, action, target, detail, from_addr, prev_hash, hash) VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9)", [
        orig.seq,
        orig.at,
        orig.actor,
        orig.action,
        orig.target,
        JSON.stringify(orig.detail),
        orig.from_addr,
        orig.prev_hash,
        orig.hash,
      ]),
    );
    expect((await audit.verify()).ok).toBe(true);
  });

  it("a middle entry re-hashed after the edit: the next entry's prevHash no longer matches", async () => {
    const orig = await row(20);
    const forgedDetail = { i: 12345 };
    const forgedHash = entryHash({
      seq: 20,
      at: orig.at,
      actor: orig.actor,
      action: orig.action,
      target: orig.target,
      detail: forgedDetail,
      fromAddr: orig.from_addr,
      prevHash: orig.prev_hash,
    });
    await tamper((c) => c.query("UPDATE audit_log SET detail = $1::jsonb, hash = $2 WHERE seq = 20", [JSON.stringify(forgedDetail), forgedHash]));
    const report = await audit.verify();
    expect(report).toMatchObject({
      ok: false,
      entries: 20,
      firstBad: { seq: 21, reason: expect.stringMatching(/^prevHash does not match the hash of entry #20/) },
    });

    await tamper((c) => c.query("UPDATE audit_log SET detail = $1::jsonb, hash = $2 WHERE seq = 20", [JSON.stringify(orig.detail), orig.hash]));
    expect((await audit.verify()).ok).toBe(true);
  });

  it("two entries swapped (reordered): caught at the first of them", async () => {
    await tamper(async (c) => {
      await c.query("UPDATE audit_log SET seq = -5 WHERE seq = 5");
      await c.query("UPDATE audit_log SET seq = 5 WHERE seq = 6");
      await c.query("UPDATE audit_log SET seq = 6 WHERE seq = -5");
    });
    expect((await audit.verify()).firstBad).toEqual({ seq: 5, reason: expect.stringMatching(/^prevHash does not match/) });
    await tamper(async (c) => {
      await c.query("UPDATE audit_log SET seq = -6 WHERE seq = 6");
      await c.query("UPDATE audit_log SET seq = 6 WHERE seq = 5");
      await c.query("UPDATE audit_log SET seq = 5 WHERE seq = -6");
    });
    expect((await audit.verify()).ok).toBe(true);
  });

  it("the first entries removed: the chain must start at #1", async () => {
    const orig = await row(1);
    await tamper((c) => c.query("DELETE FROM audit_log WHERE seq = 1"));
    expect((await audit.verify()).firstBad).toEqual({ seq: 2, reason: "entry #1 is missing (removed from the chain)" });
    await tamper((c) =>
      c.query("INSERT INTO audit_log (seq, at, actor, action, target, detail, from_addr, prev_hash, hash) VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9)", [
        orig.seq,
        orig.at,
        orig.actor,
        orig.action,
        orig.target,
        JSON.stringify(orig.detail),
        orig.from_addr,
        orig.prev_hash,
        orig.hash,
      ]),
    );
    expect((await audit.verify()).ok).toBe(true);
  });

  it("a whole tail rewritten consistently is only caught against a saved head (checkpoint)", async () => {
    const saved = (await audit.verify()).head!;
    const total = saved.seq;
    await tamper(async (c) => {
      const rows = (await c.query("SELECT * FROM audit_log WHERE seq >= 25 ORDER BY seq")).rows as RawRow[];
      let prev = rows[0]!.prev_hash;
      for (const r of rows) {
        const detail = Number(r.seq) === 25 ? { i: "rewritten" } : r.detail;
        const hash = entryHash({
          seq: Number(r.seq),
          at: r.at,
          actor: r.actor,
          action: r.action,
          target: r.target,
          detail,
          fromAddr: r.from_addr,
          prevHash: prev,
        });
        await c.query("UPDATE audit_log SET detail = $1::jsonb, prev_hash = $2, hash = $3 WHERE seq = $4", [JSON.stringify(detail), prev, hash, r.seq]);
        prev = hash;
      }
    });
    const blind = await audit.verify();
    expect(blind.ok).toBe(true); // self-consistent: nothing inside the database tells
    expect(blind.head!.hash).not.toBe(saved.hash);
    expect(await audit.verify({ checkpoint: saved })).toMatchObject({ ok: false, firstBad: { seq: total, reason: expect.stringMatching(/checkpoint/) } });
    // a checkpoint past the end: the chain was cut short
    expect(await audit.verify({ checkpoint: { seq: total + 5, hash: saved.hash } })).toMatchObject({ ok: false, firstBad: { seq: total + 5 } });
    // resuming from a remembered hash catches it at the start
    const earlier = await row(24);
    expect((await audit.verify({ from: 25, fromHash: earlier.hash })).ok).toBe(true);
    expect((await audit.verify({ from: 25, fromHash: "f".repeat(64) })).firstBad?.seq).toBe(24);
  });
});

describe("list()", () => {
  let lg: AuditLog;
  let ldb: TestDatabase;
  beforeAll(async () => {
    ldb = await createTestDatabase();
    lg = new AuditLog(ldb.prisma);
    for (let i = 0; i < 23; i++) {
      await lg.append({ actor: i % 3 ? "local:ann" : "local:bob", action: i % 4 ? "run" : "config.change", target: `t${i % 5}`, detail: { i } });
    }
  });
  afterAll(async () => {
    await ldb?.drop();
  });

  it("pages newest first with a keyset cursor, no entry twice or skipped", async () => {
    const seen: number[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await lg.list({ limit: 5, cursor });
      seen.push(...page.entries.map((e) => e.seq));
      cursor = page.nextCursor ?? undefined;
      pages++;
    } while (cursor);
    expect(pages).toBe(5);
    expect(seen).toEqual(Array.from({ length: 23 }, (_, i) => 23 - i));
  });

  it("filters by action, actor, target and time", async () => {
    const cfg = await lg.list({ action: "config.change", limit: 200 });
    expect(cfg.entries.map((e) => (e.detail as { i: number }).i)).toEqual([20, 16, 12, 8, 4, 0]);
    const bob = await lg.list({ actor: "local:bob", target: "t0", limit: 200 });
    expect(bob.entries.every((e) => e.actor === "local:bob" && e.target === "t0")).toBe(true);
    expect(bob.entries.map((e) => (e.detail as { i: number }).i)).toEqual([15, 0]);

    const all = (await lg.list({ limit: 200 })).entries;
    const mid = all[10]!; // 11th newest
    const since = await lg.list({ since: new Date(mid.at), limit: 200 });
    expect(since.entries.every((e) => e.at >= mid.at)).toBe(true);
    expect(since.entries.map((e) => e.seq)).toContain(mid.seq);
    const until = await lg.list({ until: new Date(mid.at), limit: 200 });
    expect(until.entries.every((e) => e.at < mid.at)).toBe(true);
    expect(since.entries.length + until.entries.length).toBe(23);
  });

  it("refuses a cursor it did not hand out", async () => {
    await expect(lg.list({ cursor: "garbage" })).rejects.toBeInstanceOf(AuditCursorError);
    await expect(lg.list({ cursor: Buffer.from("2026-01-01T00:00:00.000Z|0").toString("base64url") })).rejects.toBeInstanceOf(AuditCursorError);
  });
});

describe("on PGlite", () => {
  it("appends concurrently, verifies, and refuses DELETE", async () => {
    const saved = process.env.DATABASE_URL;
    delete process.env.DATABASE_URL;
    const dir = await mkdtemp(path.join(os.tmpdir(), "audit-pglite-"));
    try {
      const lite = await createPrisma({ dataDir: dir });
      try {
        expect(lite.kind).toBe("pglite");
        await lite.migrate();
        const log = new AuditLog(lite.prisma);
        await Promise.all(
          Array.from({ length: 8 }, (_, i) =>
            log.append({ actor: "local:t", action: "run", target: "echo", detail: { i, nested: { b: 1, a: [true, null] } } }),
          ),
        );
        await log.append({ actor: "local:t", action: "purge", target: "runs", detail: null });
        expect(await log.verify({ batch: 4 })).toMatchObject({ ok: true, entries: 9, head: { seq: 9 } });
        expect((await log.list({ action: "run", limit: 3 })).entries.map((e) => e.seq)).toEqual([8, 7, 6]);
        await expect(lite.prisma.$executeRawUnsafe("DELETE FROM audit_log WHERE seq = 2")).rejects.toThrow(/append-only/);
        expect((await log.verify()).ok).toBe(true);
      } finally {
        await lite.close();
      }
    } finally {
      if (saved !== undefined) process.env.DATABASE_URL = saved;
      await rm(dir, { recursive: true, force: true });
    }
  });
});
