import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AuditLog } from "@/lib/audit/log";
import { FULL_VERIFY_EVERY_MS, verifyShared } from "@/lib/audit/query";
import { createTestDatabase, type TestDatabase } from "./helpers/db";

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => db?.drop());

describe("verifyShared (the badge's check)", () => {
  it("checks only new entries after a full walk, and walks it all again when due", async () => {
    const audit = new AuditLog(db.prisma);
    for (let i = 0; i < 5; i++) await audit.append({ actor: "t", action: "run", target: `x${i}` });
    let clock = 1_000_000;
    const now = () => clock;
    expect(await verifyShared(audit, now)).toMatchObject({ ok: true, entries: 5 });
    await audit.append({ actor: "t", action: "run", target: "x5" });
    expect(await verifyShared(audit, now)).toMatchObject({ ok: true, entries: 6, head: { seq: 6 } });

    // a forged old entry (triggers off, as only a superuser could) is found at the next full walk
    const c = new pg.Client({ connectionString: db.url });
    await c.connect();
    await c.query("ALTER TABLE audit_log DISABLE TRIGGER ALL");
    await c.query("UPDATE audit_log SET target = 'forged' WHERE seq = 2");
    await c.query("ALTER TABLE audit_log ENABLE TRIGGER ALL");
    await c.end();
    clock += FULL_VERIFY_EVERY_MS + 1;
    expect(await verifyShared(audit, now)).toMatchObject({ ok: false, firstBad: { seq: 2 } });
  });

  it("a fresh AuditLog (a restarted studio) walks the whole chain first", async () => {
    const audit = new AuditLog(db.prisma);
    const now = () => 0;
    const before = await verifyShared(audit, now);
    expect(before.ok).toBe(false); // the forgery made in the test above is found at once
  });
});
