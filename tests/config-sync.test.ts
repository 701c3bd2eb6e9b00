import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AuditLog } from "@/lib/audit";
import { ConfigRevisions } from "@/lib/config/revisions";
import { ConfigStore, versionOf } from "@/lib/config/store";
import { ConfigSync } from "@/lib/config/sync";
import { createPrisma, type Db } from "@/lib/db/client";
import { PgNotifier } from "@/lib/db/notify";
import { createTestDatabase, type TestDatabase } from "./helpers/db";

// The config as revisions in PostgreSQL, shared by instances that each keep their own file: as
// the studio wires it (lib/studio/studio.ts), with one Prisma client, audit log, notifier and
// file per instance, as separate processes would have.

let db: TestDatabase;
let dir: string;
const instances: Instance[] = [];

interface Instance {
  name: string;
  file: string;
  store: ConfigStore;
  sync: ConfigSync;
  notifier: PgNotifier;
  prisma: Db;
  audit: AuditLog;
}

const agents = (...names: string[]) => JSON.stringify({ agents: names.map((alias) => ({ alias })), defaultAgent: names[0] }, null, 2) + "\n";

async function instance(name: string, text?: string, file = path.join(dir, `${name}.jsonc`)): Promise<Instance> {
  if (text !== undefined) fs.writeFileSync(file, text);
  const prisma = await createPrisma({ databaseUrl: db.url });
  const audit = new AuditLog(prisma.prisma);
  const notifier = new PgNotifier(db.url, { backoffMs: 50, maxBackoffMs: 200 });
  const store = new ConfigStore(file, { createFromExample: false, debounceMs: 10 });
  const sync = new ConfigSync({ store, revisions: new ConfigRevisions(prisma.prisma, audit), fileAuthor: () => `file:${name}`, notifier, pollMs: 2000 });
  await sync.start();
  const i = { name, file, store, sync, notifier, prisma, audit };
  instances.push(i);
  return i;
}

/** Polls until `check` holds; fails after `ms` with what was awaited. */
async function within<T>(ms: number, what: string, check: () => T | undefined | false): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = check();
    if (v) return v;
    if (Date.now() > end) throw new Error(`not within ${ms} ms: ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

const defaultAgent = (i: Instance) => i.store.current().config.defaultAgent;
const revisions = async () =>
  (await db.prisma.configRevision.findMany({ orderBy: { id: "asc" } })).map((r) => ({ id: r.id, author: r.author, source: r.source, hash: r.hash }));

beforeAll(async () => {
  db = await createTestDatabase();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "config-sync-"));
});
afterAll(async () => {
  for (const i of instances) {
    i.sync.stop();
    i.store.close();
    await i.notifier.close();
    await i.prisma.close();
  }
  await db?.drop();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("config revisions across instances", () => {
  let a: Instance;
  let b: Instance;

  it("the first instance imports its file as revision 1; the next one, with another file, takes that revision", async () => {
    a = await instance("a", agents("alpha"));
    b = await instance("b", agents("bravo-never-saved"));
    // b's file was never a revision, so at start it counts as an edit made while it was stopped.
    expect((await revisions()).map((r) => [r.id, r.author, r.source])).toEqual([
      [1, "file:a", "file"],
      [2, "file:b", "file"],
    ]);
    // a hears of it and writes it to its own file.
    await within(1000, "a takes b's revision", () => defaultAgent(a) === "bravo-never-saved");
    expect(fs.readFileSync(a.file, "utf8")).toBe(agents("bravo-never-saved"));
    expect(a.sync.head()?.id).toBe(2);
  });

  it("a save through A reaches B within 1 s (NOTIFY), with the revision and its audit entry", async () => {
    const before = a.store.current().version;
    const r = await a.sync.save(agents("charlie"), { author: "ana@example.com", from: "addr 10.0.0.1", expectedVersion: before });
    expect(r.ok).toBe(true);
    await within(1000, "b has charlie", () => defaultAgent(b) === "charlie");
    expect(fs.readFileSync(b.file, "utf8")).toBe(agents("charlie"));
    expect(b.store.current().version).toBe(versionOf(agents("charlie")));
    expect(b.sync.head()).toMatchObject({ id: 3, author: "ana@example.com", source: "api" });
    const { entries } = await a.audit.list({ action: "config.change", limit: 1 });
    expect(entries[0]).toMatchObject({
      actor: "ana@example.com",
      from: "addr 10.0.0.1",
      detail: { source: "api", revision: 3, version: versionOf(agents("charlie")) },
    });
  });

  it("two saves from the same version on two instances: one wins, the other is a conflict, and both end on the winner", async () => {
    const v = a.store.current().version;
    expect(b.store.current().version).toBe(v);
    const [ra, rb] = await Promise.all([
      a.sync.save(agents("delta"), { author: "ana@example.com", from: null, expectedVersion: v }),
      b.sync.save(agents("echo"), { author: "bo@example.com", from: null, expectedVersion: v }),
    ]);
    expect([ra.ok, rb.ok].filter(Boolean)).toHaveLength(1);
    const loser = ra.ok ? rb : ra;
    expect(loser).toMatchObject({ ok: false, error: { kind: "conflict" } });
    if (!loser.ok) expect(loser.error.message).toMatch(/changed by someone else since you loaded it/);
    const winner = ra.ok ? "delta" : "echo";
    await within(1000, "both on the winner", () => defaultAgent(a) === winner && defaultAgent(b) === winner);
    expect((await revisions()).at(-1)).toMatchObject({ id: 4, hash: versionOf(agents(winner)) });
  });

  it("an edit of B's file is imported as a revision and reaches A within 1 s", async () => {
    fs.writeFileSync(b.file, agents("foxtrot"));
    await within(1000, "a has foxtrot", () => defaultAgent(a) === "foxtrot");
    expect((await revisions()).at(-1)).toMatchObject({ id: 5, author: "file:b", source: "file" });
  });

  it("a broken edit of B's file is not imported; a newer revision from A replaces it and keeps the broken text beside it", async () => {
    fs.writeFileSync(b.file, '{ "agents": [ oops');
    await within(1000, "b reports the broken file", () => b.store.current().error?.kind === "syntax");
    await b.sync.idle();
    expect((await revisions()).at(-1)?.id).toBe(5);
    expect(defaultAgent(b)).toBe("foxtrot"); // the last good config stays in use

    const r = await a.sync.save(agents("golf"), { author: "ana@example.com", from: null, expectedVersion: a.store.current().version });
    expect(r.ok).toBe(true);
    await within(1000, "b has golf", () => defaultAgent(b) === "golf" && b.store.current().error === null);
    const kept = fs.readdirSync(dir).filter((f) => f.startsWith("b.jsonc.broken-"));
    expect(kept).toHaveLength(1);
    expect(fs.readFileSync(path.join(dir, kept[0]!), "utf8")).toBe('{ "agents": [ oops');
  });

  it("fixing a broken file from the editor that loaded it is not a conflict", async () => {
    fs.writeFileSync(b.file, "{ nope");
    await within(1000, "b reports the broken file", () => b.store.current().error !== null);
    const r = await b.sync.save(agents("hotel"), { author: "bo@example.com", from: null, expectedVersion: b.store.current().version });
    expect(r.ok).toBe(true);
    await within(1000, "a has hotel", () => defaultAgent(a) === "hotel");
  });

  it("a save right after an edit of the file, before its change event, is not a conflict: the edit becomes a revision first", async () => {
    a.sync.stop(); // no change events: the save must find the edit by itself
    try {
      fs.writeFileSync(a.file, agents("hotel", "hotel-2"));
      const edited = versionOf(agents("hotel", "hotel-2"));
      const r = await a.sync.save(agents("hotel-3"), { author: "ana@example.com", from: null, expectedVersion: edited });
      expect(r.ok).toBe(true);
      const last = (await revisions()).slice(-2);
      expect(last.map((x) => [x.source, x.hash])).toEqual([
        ["file", edited],
        ["api", versionOf(agents("hotel-3"))],
      ]);
    } finally {
      await a.sync.start();
    }
  });

  it("a notification lost while the connection was down is made up for after the reconnect", async () => {
    const admin = new pg.Client({ connectionString: db.url });
    await admin.connect();
    try {
      // Drop every listening connection, then save at once: B's LISTEN is gone when the NOTIFY is sent.
      await admin.query(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'tool-studio-listen'",
      );
      const r = await a.sync.save(agents("india"), { author: "ana@example.com", from: null, expectedVersion: a.store.current().version });
      expect(r.ok).toBe(true);
      await within(3000, "b has india after reconnecting", () => defaultAgent(b) === "india");
    } finally {
      await admin.end();
    }
  });

  it("at start, a stale file (an older revision) is replaced; instances sharing one file record each change once", async () => {
    const stale = await instance("c", agents("alpha")); // revision 1's text
    expect(defaultAgent(stale)).toBe("india");
    expect(fs.readFileSync(stale.file, "utf8")).toBe(agents("india"));

    const count = (await revisions()).length;
    const shared = await instance("d", undefined, a.file); // the same file as A
    const r = await shared.sync.save(agents("juliett"), { author: "di@example.com", from: null, expectedVersion: shared.store.current().version });
    expect(r.ok).toBe(true);
    await within(1000, "a and b have juliett", () => defaultAgent(a) === "juliett" && defaultAgent(b) === "juliett");
    // Once every instance has settled on juliett (its NOTIFY reconcile done): an edit racing an
    // instance's pending reconcile of a shared file missed B twice in loaded full runs
    // (2026-12-01), under investigation in issue 11.
    await Promise.all(instances.map((i) => i.sync.idle()));
    fs.writeFileSync(a.file, agents("kilo")); // an edit of the shared file: both watchers see it
    // File watching and its debounce come before the revision, so this bound is looser than the
    // 1 s a saved revision gets (above); under a loaded suite the watcher alone took over 1 s.
    await within(3000, "b has kilo", () => defaultAgent(b) === "kilo");
    await new Promise((r) => setTimeout(r, 200));
    await Promise.all(instances.map((i) => i.sync.idle()));
    const after = await revisions();
    expect(after.slice(count).map((x) => x.hash)).toEqual([versionOf(agents("juliett")), versionOf(agents("kilo"))]);
    expect((await a.audit.verify()).ok).toBe(true);
  });
});

describe("without notifications", () => {
  it("the safety poll finds a revision no notification announced; a database that fails is logged and asked again", async () => {
    const source = await instance("poll-source", agents("lima"));
    const file = path.join(dir, "poll.jsonc");
    fs.writeFileSync(file, agents("lima"));
    const prisma = await createPrisma({ databaseUrl: db.url });
    const store = new ConfigStore(file, { createFromExample: false, debounceMs: 10 });
    const sync = new ConfigSync({
      store,
      revisions: new ConfigRevisions(prisma.prisma, new AuditLog(prisma.prisma)),
      fileAuthor: () => "file:poll",
      pollMs: 50,
    });
    await sync.start();
    try {
      const r = await source.sync.save(agents("mike"), { author: "ana@example.com", from: null, expectedVersion: source.store.current().version });
      expect(r.ok).toBe(true);
      await within(3000, "the poll brings mike", () => store.current().config.defaultAgent === "mike");
    } finally {
      sync.stop();
      store.close();
      await prisma.close();
    }
  });

  it("a database it cannot reach: the reconcile and the poll fail, are logged, and the file store still serves the file", async () => {
    const u = new URL(db.url);
    u.pathname = "/tool_studio_no_such_database";
    const prisma = await createPrisma({ databaseUrl: u.toString() });
    const file = path.join(dir, "unreachable.jsonc");
    fs.writeFileSync(file, agents("oscar"));
    const store = new ConfigStore(file, { createFromExample: false, debounceMs: 10 });
    const sync = new ConfigSync({ store, revisions: new ConfigRevisions(prisma.prisma, new AuditLog(prisma.prisma)), fileAuthor: () => "file:x", pollMs: 20 });
    const errors: unknown[] = [];
    const original = console.error;
    console.error = (...args: unknown[]) => void errors.push(args[0]);
    try {
      await sync.start();
      await new Promise((r) => setTimeout(r, 150)); // poll ticks against the missing database
    } finally {
      console.error = original;
      sync.stop();
      store.close();
      await prisma.close();
    }
    expect(errors.some((e) => String(e).includes("could not reconcile the file with the database (boot)"))).toBe(true);
    expect(store.current().config.defaultAgent).toBe("oscar");
    expect(sync.head()).toBeNull();
  });
});

describe("PgNotifier", () => {
  it("delivers to listeners until they leave; a failing handler or reconnect hook does not stop the others", async () => {
    const n = new PgNotifier(db.url, { backoffMs: 20, maxBackoffMs: 50 });
    const m = new PgNotifier(db.url);
    try {
      const got: string[] = [];
      const bad = await n.listen("studio_test", () => {
        throw new Error("handler failed");
      });
      const off = await n.listen("studio_test", (p) => got.push(p));
      let hooked = 0;
      const unhook = n.onReconnect(() => {
        throw new Error("hook failed");
      });
      n.onReconnect(() => hooked++);
      const original = console.error;
      console.error = () => {};
      try {
        await m.notify("studio_test", "one");
        await within(2000, "one arrives", () => got.includes("one"));
        const admin = new pg.Client({ connectionString: db.url });
        await admin.connect();
        await admin.query(
          "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'tool-studio-listen' AND pid <> pg_backend_pid()",
        );
        await admin.end();
        await within(3000, "the reconnect hooks ran", () => hooked > 0);
      } finally {
        console.error = original;
      }
      unhook();
      bad();
      off();
      await m.notify("studio_test", "two");
      await new Promise((r) => setTimeout(r, 200));
      expect(got).toEqual(["one"]);
    } finally {
      await n.close();
      await m.close();
    }
  });
});
