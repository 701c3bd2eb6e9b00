// Integration tests of the migrator on a real PostgreSQL server and on PGlite (no mocks).
import { cp, mkdtemp, readdir, rm, writeFile, mkdir } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { randomUUID } from "node:crypto";
import { openPGlite } from "@/lib/db/pglite";
import pg from "pg";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "@/tests/helpers/db";
import { closeDb, createPrisma, getDb } from "@/lib/db/client";
import { checksum, defaultMigrationsDir, migrate, MigrationError, pgliteRunner, pgRunner, readMigrations } from "@/lib/db/migrate";

interface Row {
  id: string;
  checksum: string;
  migration_name: string;
  finished_at: Date | null;
  rolled_back_at: Date | null;
  logs: string | null;
  applied_steps_count: number;
}
const ROWS = `SELECT * FROM "_prisma_migrations" ORDER BY started_at, migration_name`;

const tmpDirs: string[] = [];
async function tempDir(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), "tool-studio-migrate-"));
  tmpDirs.push(dir);
  return dir;
}
/** A copy of the real migrations folder that a test may add to or edit. */
async function copyOfMigrations(): Promise<string> {
  const dir = path.join(await tempDir(), "migrations");
  await cp(defaultMigrationsDir(), dir, { recursive: true });
  return dir;
}
async function addMigration(dir: string, name: string, sql: string): Promise<void> {
  await mkdir(path.join(dir, name), { recursive: true });
  await writeFile(path.join(dir, name, "migration.sql"), sql);
}
afterAll(async () => {
  await Promise.all(tmpDirs.map((d) => rm(d, { recursive: true, force: true })));
});

function expectAppliedRows(rows: Row[], files: { name: string; checksum: string }[]) {
  expect(rows.map((r) => r.migration_name)).toEqual(files.map((f) => f.name));
  for (const [i, r] of rows.entries()) {
    expect(r.checksum).toBe(files[i].checksum);
    expect(r.checksum).toMatch(/^[0-9a-f]{64}$/);
    expect(r.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(r.finished_at).toBeInstanceOf(Date);
    expect(r.rolled_back_at).toBeNull();
    expect(r.logs).toBeNull();
    expect(r.applied_steps_count).toBe(1);
  }
}

describe("migrate on PostgreSQL", () => {
  let db: TestDatabase;
  let client: pg.Client;
  beforeAll(async () => {
    db = await createTestDatabase({ migrate: false });
    client = new pg.Client({ connectionString: db.url });
    await client.connect();
  });
  afterAll(async () => {
    await client?.end();
    await db?.drop();
  });

  it("applies every migration to a fresh database and records them as Prisma does", async () => {
    const files = await readMigrations();
    expect(files.length).toBeGreaterThan(0);
    const result = await migrate(pgRunner(client));
    expect(result).toEqual({ applied: files.map((f) => f.name), alreadyApplied: [] });
    expectAppliedRows((await client.query<Row>(ROWS)).rows, files);

    // The migrated schema is the one the generated client expects.
    const id = randomUUID();
    await db.prisma.run.create({
      data: {
        id,
        toolName: "echo",
        toolSource: "builtin",
        toolSpecHash: "h",
        arguments: { a: 1 },
        status: "running",
        actor: "test",
        origin: "api",
        startedAt: new Date(),
      },
    });
    expect((await db.prisma.run.findUniqueOrThrow({ where: { id } })).arguments).toEqual({ a: 1 });
  });

  it("is a no-op when run again", async () => {
    const before = (await client.query<Row>(ROWS)).rows;
    const result = await migrate(pgRunner(client));
    expect(result.applied).toEqual([]);
    expect(result.alreadyApplied).toEqual(before.map((r) => r.migration_name));
    expect((await client.query<Row>(ROWS)).rows).toEqual(before);
  });

  it("records a failed migration, rolls back its changes, and refuses to continue", async () => {
    const dir = await copyOfMigrations();
    const broken = "29990101000000_broken";
    await addMigration(dir, broken, `CREATE TABLE "half_done" (id int);\nSELECT * FROM "no_such_table";\n`);
    await addMigration(dir, "29990102000000_later", `CREATE TABLE "later" (id int);\n`);

    const err = await migrate(pgRunner(client), { migrationsDir: dir }).catch((e) => e);
    expect(err).toBeInstanceOf(MigrationError);
    expect(err.migrationName).toBe(broken);
    expect(err.message).toContain(broken);
    expect(err.message).toContain("no_such_table");

    const row = (await client.query<Row>(`${ROWS.replace("ORDER", "WHERE migration_name = $1 ORDER")}`, [broken])).rows[0];
    expect(row.finished_at).toBeNull();
    expect(row.rolled_back_at).toBeNull();
    expect(row.applied_steps_count).toBe(0);
    expect(row.logs).toContain("no_such_table");
    // The migration's own transaction was rolled back.
    expect((await client.query(`SELECT to_regclass('half_done') AS t`)).rows[0].t).toBeNull();

    // Later runs are blocked, naming the failed migration, and apply nothing.
    const again = await migrate(pgRunner(client), { migrationsDir: dir }).catch((e) => e);
    expect(again).toBeInstanceOf(MigrationError);
    expect(again.message).toMatch(new RegExp(`${broken}.*recorded as failed`));
    expect((await client.query(`SELECT to_regclass('later') AS t`)).rows[0].t).toBeNull();

    // Resolving as Prisma does (mark rolled back) and fixing the script lets it run again.
    await client.query(`UPDATE "_prisma_migrations" SET rolled_back_at = now() WHERE migration_name = $1`, [broken]);
    await addMigration(dir, broken, `CREATE TABLE "half_done" (id int);\n`);
    const fixed = await migrate(pgRunner(client), { migrationsDir: dir });
    expect(fixed.applied).toEqual([broken, "29990102000000_later"]);
    const rows = (await client.query<Row>(`SELECT * FROM "_prisma_migrations" WHERE migration_name = $1`, [broken])).rows;
    expect(rows).toHaveLength(2); // the failed attempt stays as an audit trail
  });

  it("refuses to continue when an applied migration was edited", async () => {
    const dir = await copyOfMigrations();
    const [first] = await readMigrations(dir);
    await addMigration(dir, first.name, `${first.sql}\n-- edited\n`);
    const err = await migrate(pgRunner(client), { migrationsDir: dir }).catch((e) => e);
    expect(err).toBeInstanceOf(MigrationError);
    expect(err.message).toContain(`${first.name}\` was modified`);
  });

  it("accepts the same file with CRLF line endings, as Prisma does", async () => {
    const dir = await copyOfMigrations();
    const [first] = await readMigrations(dir);
    await addMigration(dir, first.name, first.sql.replace(/\n/g, "\r\n"));
    await expect(migrate(pgRunner(client), { migrationsDir: dir })).resolves.toMatchObject({ applied: [] });
  });
});

describe("migrate on PGlite", () => {
  const savedEnv = { DATABASE_URL: process.env.DATABASE_URL, STUDIO_DATA_DIR: process.env.STUDIO_DATA_DIR };
  afterEach(async () => {
    await closeDb();
    for (const [k, v] of Object.entries(savedEnv)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  });

  it("applies migrations to a persistent data dir through the same runner", async () => {
    const dataDir = await tempDir();
    const files = await readMigrations();
    const pglite = openPGlite(dataDir);
    try {
      expect((await migrate(pgliteRunner(pglite))).applied).toEqual(files.map((f) => f.name));
      expectAppliedRows((await pglite.query<Row>(ROWS)).rows, files);
      expect((await migrate(pgliteRunner(pglite))).applied).toEqual([]);
    } finally {
      await pglite.close();
    }

    // Reopened through createPrisma: already migrated, and usable by the client.
    delete process.env.DATABASE_URL;
    const db = await createPrisma({ dataDir });
    try {
      expect(db.kind).toBe("pglite");
      expect((await db.migrate()).applied).toEqual([]);
      expect(await db.prisma.run.count()).toBe(0);
    } finally {
      await db.close();
    }
  });

  it("getDb() migrates once and returns one shared instance", async () => {
    delete process.env.DATABASE_URL;
    process.env.STUDIO_DATA_DIR = await tempDir();
    const [a, b] = await Promise.all([getDb(), getDb()]);
    expect(a).toBe(b);
    expect(a.kind).toBe("pglite");
    const rows = await a.prisma.$queryRawUnsafe<Row[]>(ROWS);
    expect(rows.map((r) => r.checksum)).toEqual((await readMigrations()).map((f) => checksum(f.sql)));
  });

  it("getDb() opens nothing while `next build` runs (a build worker ended mid-migration would leave it recorded as failed)", async () => {
    await closeDb();
    delete process.env.DATABASE_URL;
    const dataDir = await tempDir();
    process.env.STUDIO_DATA_DIR = dataDir;
    process.env.NEXT_PHASE = "phase-production-build";
    try {
      await expect(getDb()).rejects.toThrow("not opened while the app is being built");
    } finally {
      delete process.env.NEXT_PHASE;
    }
    expect(await readdir(dataDir)).toEqual([]);
    // Outside the build it opens as usual.
    expect((await getDb()).kind).toBe("pglite");
  });
});
