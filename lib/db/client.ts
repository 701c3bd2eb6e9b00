// Prisma client factory: PostgreSQL when DATABASE_URL is set, otherwise an embedded PGlite
// database on disk, so the studio runs with zero setup.
// Server code: a client component that imports this (directly or not) fails the build.
import { processSlot } from "../process/slots";
import "server-only";
import { mkdir } from "node:fs/promises";
import path from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { PrismaClient } from "./generated/client";
import { dbTimeouts } from "./faults";
import { migrate, pgliteRunner, pgRunner, type MigrateOptions, type MigrateResult } from "./migrate";
import { openPGlite } from "./pglite";
import { pgliteSql, pgSql, type Sql } from "./sql";

export type DbKind = "pg" | "pglite";

export interface Db {
  prisma: PrismaClient;
  /** Plain SQL on the same connections, for the statements of every run (lib/db/sql.ts). */
  sql: Sql;
  kind: DbKind;
  /** PostgreSQL's connection string (for connections of its own: LISTEN); undefined on PGlite. */
  url?: string;
  /** The embedded database itself (PGlite only): for the job queue, which shares it. */
  pglite?: PGlite;
  /** Applies pending migrations through the same driver (PGlite allows one instance per data dir). */
  migrate(opts?: MigrateOptions): Promise<MigrateResult>;
  close(): Promise<void>;
}

export interface CreatePrismaOptions {
  databaseUrl?: string;
  dataDir?: string;
  /** pg only: how long to wait for a connection and for a query (default dbTimeouts()). */
  timeouts?: { connectMs: number; queryMs: number };
}

export async function createPrisma(opts: CreatePrismaOptions = {}): Promise<Db> {
  const url = opts.databaseUrl ?? process.env.DATABASE_URL;
  if (url) {
    // The adapter owns its pool (built from the config) and ends it on $disconnect.
    // Bounded waits: an unreachable or frozen database fails requests (503) instead of hanging them.
    const t = opts.timeouts ?? dbTimeouts();
    // query_timeout bounds the wait here; statement_timeout makes the server stop the work too.
    // One pool for Prisma and the plain statements of lib/db/sql.ts; the adapter ends it on $disconnect.
    // Pipelined: a transaction of lib/db/sql.ts sends BEGIN and COMMIT with its statements (bound parameters, no extra round trip).
    const pool = new pg.Pool({
      connectionString: url,
      connectionTimeoutMillis: t.connectMs,
      query_timeout: t.queryMs,
      statement_timeout: t.queryMs,
      pipeline: true,
    });
    // An idle connection that breaks (the server restarted) is dropped by the pool; unheard, the event would end the process.
    pool.on("error", (err) => console.warn(`[tool-studio] idle database connection lost: ${err.message}`));
    const prisma = new PrismaClient({ adapter: new PrismaPg(pool, { disposeExternalPool: true }) });
    return {
      prisma,
      sql: pgSql(pool),
      kind: "pg",
      url,
      // A dedicated connection: the advisory lock and the per-migration transactions need one session.
      async migrate(mopts) {
        const client = new pg.Client({ connectionString: url });
        await client.connect();
        try {
          return await migrate(pgRunner(client), mopts);
        } finally {
          await client.end();
        }
      },
      close: () => prisma.$disconnect(),
    };
  }

  const dataDir = path.resolve(/*turbopackIgnore: true*/ process.cwd(), opts.dataDir ?? process.env.STUDIO_DATA_DIR ?? "./data/pglite");
  await mkdir(/*turbopackIgnore: true*/ dataDir, { recursive: true });
  const db = openPGlite(dataDir);
  await db.waitReady;
  const prisma = new PrismaClient({ adapter: new PrismaPGlite(db) });
  return {
    prisma,
    sql: pgliteSql(db),
    kind: "pglite",
    pglite: db,
    migrate: (mopts) => migrate(pgliteRunner(db), mopts),
    async close() {
      await prisma.$disconnect();
      // The adapter does not close PGlite; closing flushes and frees the data dir for other processes.
      if (!db.closed) await db.close();
    },
  };
}

// One per process (lib/process/slots.ts): Next dev hot reloads reuse one client (and one PGlite instance).
const dbSlot = processSlot<Promise<Db>>("db");

/** The process-wide database, migrated before first use. */
export function getDb(): Promise<Db> {
  if (!dbSlot.get()) {
    // A build worker can be ended at any moment: a migration it had begun would stay recorded as
    // failed and stop the studio from starting on that database until someone repaired it.
    if (process.env.NEXT_PHASE === "phase-production-build")
      return Promise.reject(new Error("The database is not opened while the app is being built (next build)."));
    const ready = (async () => {
      const db = await createPrisma();
      try {
        await db.migrate();
      } catch (e) {
        await db.close().catch(() => {});
        throw e;
      }
      return db;
    })();
    // A failed start is not cached: the next call retries.
    ready.catch(() => {
      if (dbSlot.get() === ready) dbSlot.set(undefined);
    });
    dbSlot.set(ready);
    return ready;
  }
  return dbSlot.get()!;
}

/** Closes the process-wide database if it was opened (tests, graceful shutdown). */
export async function closeDb(): Promise<void> {
  const pending = dbSlot.get();
  dbSlot.set(undefined);
  if (pending) await (await pending.catch(() => undefined))?.close();
}
