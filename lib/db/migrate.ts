// The project's own migrator. Prisma's migrate engine cannot run on these machines, so this applies
// prisma/migrations/<timestamp>_<name>/migration.sql through our own driver (pg or PGlite) and
// records _prisma_migrations exactly as Prisma does, so `prisma migrate deploy` accepts the same
// database wherever the engine binary exists.
import { StudioError } from "../errors/errors";
import { createHash, randomUUID } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import type { PGlite } from "@electric-sql/pglite";

/** One database session that can run raw SQL (transactions need a single session). */
export interface SqlRunner {
  readonly kind: "pg" | "pglite";
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  /** Runs a script of several statements (simple-query protocol, no parameters). */
  exec(sql: string): Promise<void>;
}

/** Structural type of pg.Client / pg.PoolClient, so this module does not import pg. */
interface PgQueryable {
  query(sql: string, params?: unknown[]): Promise<{ rows: unknown[] }>;
}

export function pgRunner(client: PgQueryable): SqlRunner {
  return {
    kind: "pg",
    query: async <T>(sql: string, params?: unknown[]) => (await client.query(sql, params)).rows as T[],
    exec: async (sql) => void (await client.query(sql)),
  };
}

export function pgliteRunner(db: PGlite): SqlRunner {
  return {
    kind: "pglite",
    query: async <T>(sql: string, params?: unknown[]) => (await db.query<T>(sql, params)).rows,
    exec: async (sql) => void (await db.exec(sql)),
  };
}

export interface Migration {
  name: string;
  sql: string;
  checksum: string;
}

export interface MigrateOptions {
  /** Defaults to <cwd>/prisma/migrations. */
  migrationsDir?: string;
  log?: (message: string) => void;
}

export interface MigrateResult {
  applied: string[];
  alreadyApplied: string[];
}

export class MigrationError extends StudioError {
  static override readonly tag: string = "MigrationError";
  constructor(
    message: string,
    readonly migrationName: string,
  ) {
    super("other", message);
  }
}

// Prisma's own lock id for `migrate deploy`, so our migrator and Prisma's never run concurrently.
const ADVISORY_LOCK_ID = 72707369;

// Prisma's DDL for the migrations table (postgres flavour).
const CREATE_MIGRATIONS_TABLE = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum"              VARCHAR(64) NOT NULL,
    "finished_at"           TIMESTAMPTZ,
    "migration_name"        VARCHAR(255) NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        TIMESTAMPTZ,
    "started_at"            TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count"   INTEGER NOT NULL DEFAULT 0
)`;

export function defaultMigrationsDir(): string {
  // turbopackIgnore: a dynamic fs path would make Turbopack trace the whole project.
  return path.join(/*turbopackIgnore: true*/ process.cwd(), "prisma", "migrations");
}

/** sha256 hex of the script, as Prisma stores it. */
export function checksum(sql: string): string {
  return createHash("sha256").update(sql, "utf8").digest("hex");
}

/** Prisma accepts a checksum computed with either line ending style (git may rewrite them). */
function checksumMatches(sql: string, stored: string): boolean {
  return [sql, sql.replace(/\r\n/g, "\n"), sql.replace(/\n/g, "\r\n")].some((s) => checksum(s) === stored);
}

/** Migration folders sorted by name (their timestamp prefix), as Prisma orders them. */
export async function readMigrations(migrationsDir = defaultMigrationsDir()): Promise<Migration[]> {
  const entries = await readdir(/*turbopackIgnore: true*/ migrationsDir, { withFileTypes: true }).catch((e: NodeJS.ErrnoException) => {
    if (e.code === "ENOENT") return [];
    throw e;
  });
  const names = entries
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
  return Promise.all(
    names.map(async (name) => {
      const sql = await readFile(path.join(/*turbopackIgnore: true*/ migrationsDir, name, "migration.sql"), "utf8");
      return { name, sql, checksum: checksum(sql) };
    }),
  );
}

interface AppliedRow {
  id: string;
  migration_name: string;
  checksum: string;
  started_at: Date;
  finished_at: Date | null;
  rolled_back_at: Date | null;
}

/** Applies every migration not yet recorded as finished. Each migration runs in its own transaction. */
export async function migrate(runner: SqlRunner, opts: MigrateOptions = {}): Promise<MigrateResult> {
  const log = opts.log ?? (() => {});
  const migrations = await readMigrations(opts.migrationsDir);
  // Session-level lock: held across the per-migration transactions below.
  if (runner.kind === "pg") await runner.query("SELECT pg_advisory_lock($1)", [ADVISORY_LOCK_ID]);
  try {
    await runner.exec(CREATE_MIGRATIONS_TABLE);
    const rows = await runner.query<AppliedRow>(
      `SELECT id, migration_name, checksum, started_at, finished_at, rolled_back_at
         FROM "_prisma_migrations" ORDER BY started_at`,
    );
    // Rolled-back rows are an audit trail only (`prisma migrate resolve --rolled-back`).
    const live = rows.filter((r) => r.rolled_back_at === null);

    const failed = live.find((r) => r.finished_at === null);
    if (failed) {
      throw new MigrationError(
        `Migration \`${failed.migration_name}\` (started ${failed.started_at.toISOString()}) is recorded as failed ` +
          `in _prisma_migrations; no further migrations will be applied. Repair the database, then mark it ` +
          `rolled back (\`prisma migrate resolve --rolled-back ${failed.migration_name}\`, or set rolled_back_at = now() ` +
          `on its row) to retry it, or mark it applied (\`--applied\`).`,
        failed.migration_name,
      );
    }

    const done = new Map(live.map((r) => [r.migration_name, r]));
    const result: MigrateResult = { applied: [], alreadyApplied: [] };
    for (const m of migrations) {
      const row = done.get(m.name);
      if (row) {
        // Prisma only warns here (in `migrate dev`); an edited, already-applied migration is a bug, so stop.
        if (!checksumMatches(m.sql, row.checksum)) {
          throw new MigrationError(
            `Migration \`${m.name}\` was modified after it was applied (checksum ${row.checksum} in the database, ` +
              `${m.checksum} on disk). Restore the original migration.sql and put the change in a new migration.`,
            m.name,
          );
        }
        result.alreadyApplied.push(m.name);
        continue;
      }
      await applyOne(runner, m);
      log(`applied ${m.name}`);
      result.applied.push(m.name);
    }
    return result;
  } finally {
    if (runner.kind === "pg") await runner.query("SELECT pg_advisory_unlock($1)", [ADVISORY_LOCK_ID]);
  }
}

// Same steps as Prisma: record the start outside the transaction (so a failure stays recorded),
// run the script, then count the step and set finished_at; on failure store the error in logs.
async function applyOne(runner: SqlRunner, m: Migration): Promise<void> {
  const id = randomUUID();
  await runner.query(
    `INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at, applied_steps_count)
     VALUES ($1, $2, $3, now(), 0)`,
    [id, m.checksum, m.name],
  );
  try {
    await runner.exec("BEGIN");
    await runner.exec(m.sql);
    await runner.query(
      `UPDATE "_prisma_migrations" SET applied_steps_count = applied_steps_count + 1, finished_at = now()
        WHERE id = $1`,
      [id],
    );
    await runner.exec("COMMIT");
  } catch (e) {
    await runner.exec("ROLLBACK").catch(() => {});
    const err = e as Error & { code?: string; position?: string };
    const logs = `Migration \`${m.name}\` failed to apply. ${err.code ? `Database error code: ${err.code}. ` : ""}${err.message}`;
    await runner.query(`UPDATE "_prisma_migrations" SET logs = $2 WHERE id = $1`, [id, logs]);
    throw new MigrationError(logs, m.name);
  }
}
