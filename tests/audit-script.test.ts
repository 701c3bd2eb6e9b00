import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AuditLog } from "@/lib/audit/log";
import { createTestDatabase, type TestDatabase } from "./helpers/db";

// `npm run audit:verify` as an operator runs it: exit 0 intact, 1 broken (with the entry), 2 unusable.
const run = promisify(execFile);
const root = path.resolve(__dirname, "..");
const tsx = path.join(root, "node_modules/.bin/tsx");

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
  const audit = new AuditLog(db.prisma);
  for (let i = 0; i < 12; i++) await audit.append({ actor: "local:t", action: "run", target: "echo", detail: { i } });
});
afterAll(async () => {
  await db?.drop();
});

async function verify(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(tsx, ["--conditions=react-server", "scripts/audit-verify.ts", ...args], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: db.url },
    });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

describe("scripts/audit-verify.ts", () => {
  it("exits 0 on an intact chain and prints the head to save", async () => {
    const r = await verify("--batch", "5");
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/audit chain intact: 12 entries/);
    const head = /--checkpoint (12:[0-9a-f]{64})/.exec(r.stdout)?.[1];
    expect(head).toBeTruthy();
    expect((await verify("--checkpoint", head!)).code).toBe(0);
    expect(JSON.parse((await verify("--json")).stdout)).toMatchObject({ ok: true, entries: 12, head: { seq: 12 } });
  });

  it("exits 1 naming the first bad entry when the chain is broken; 2 on bad arguments", async () => {
    const c = new pg.Client({ connectionString: db.url });
    await c.connect();
    try {
      await c.query("ALTER TABLE audit_log DISABLE TRIGGER ALL");
      await c.query(`UPDATE audit_log SET detail = '{"i": -1}' WHERE seq = 7`);
      await c.query("ALTER TABLE audit_log ENABLE TRIGGER ALL");
    } finally {
      await c.end();
    }
    const r = await verify();
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/audit chain BROKEN at entry #7: hash mismatch/);
    expect(JSON.parse((await verify("--json")).stdout)).toMatchObject({ ok: false, entries: 6, firstBad: { seq: 7 } });
    expect((await verify("--checkpoint", "nope")).code).toBe(2);
    expect((await verify("--bogus")).code).toBe(2);
  });
});
