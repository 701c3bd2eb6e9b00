// Plain SQL on the studio's own connection, for the few statements every run makes (its row,
// its final state, its audit entry). Measured (bench/run.ts, issue 12): a Prisma model query
// costs ~1.5 ms of CPU where the same statement through pg costs ~0.3 ms, and a run makes
// several; everything else keeps using Prisma. Three back ends with one behaviour: a pg pool
// (shared with Prisma's adapter, so no extra connections), PGlite, and a Prisma client or
// transaction (for code already inside a Prisma transaction, and for tests).
import type { PGlite, Transaction as PgliteTransaction } from "@electric-sql/pglite";
import type pg from "pg";
import type { Prisma, PrismaClient } from "./generated/client";

/**
 * Statements with $1..$n parameters. Pass JSON as text (cast `::jsonb`) and times as ISO strings
 * (cast `::timestamptz`): the three back ends agree on those. Rows come back with the driver's
 * types: jsonb parsed, timestamptz as Date, int8 as string or bigint (read it with BigInt()).
 */
export interface SqlClient {
  query<R = Record<string, unknown>>(text: string, params?: readonly unknown[]): Promise<R[]>;
  /** A statement whose rows are not wanted (and may not be readable: `SELECT pg_advisory_xact_lock`); resolves to the rows affected. */
  exec(text: string, params?: readonly unknown[]): Promise<number>;
}

/** A transaction as the audit log and the run store share it: plain SQL always, Prisma's when asked for. */
export interface DbTx {
  sql: SqlClient;
  prisma: Prisma.TransactionClient | null;
}

export interface Sql extends SqlClient {
  /** One READ COMMITTED transaction on one connection: committed when `fn` resolves, rolled back when it throws. */
  transaction<T>(fn: (tx: SqlClient) => Promise<T>): Promise<T>;
}

function onPgClient(c: pg.PoolClient | pg.Pool): SqlClient {
  return {
    async query<R>(text: string, params?: readonly unknown[]) {
      return (await c.query(text, params as unknown[] | undefined)).rows as R[];
    },
    async exec(text, params) {
      return (await c.query(text, params as unknown[] | undefined)).rowCount ?? 0;
    },
  };
}

export function pgSql(pool: pg.Pool): Sql {
  return {
    ...onPgClient(pool),
    async transaction(fn) {
      const client = await pool.connect();
      let broken: Error | undefined;
      try {
        await client.query("BEGIN ISOLATION LEVEL READ COMMITTED");
        const result = await fn(onPgClient(client));
        await client.query("COMMIT");
        return result;
      } catch (err) {
        await client.query("ROLLBACK").catch((e: Error) => {
          // The connection is unusable (dropped, timed out): it must not go back to the pool.
          broken = e;
        });
        throw err;
      } finally {
        client.release(broken);
      }
    },
  };
}

function onPglite(db: PGlite | PgliteTransaction): SqlClient {
  return {
    async query<R>(text: string, params?: readonly unknown[]) {
      return (await db.query<R>(text, params as unknown[] | undefined)).rows;
    },
    async exec(text, params) {
      return (await db.query(text, params as unknown[] | undefined)).affectedRows ?? 0;
    },
  };
}

export function pgliteSql(db: PGlite): Sql {
  // PGlite is one session and its default level is READ COMMITTED, like PostgreSQL's.
  return { ...onPglite(db), transaction: (fn) => db.transaction((tx) => fn(onPglite(tx))) };
}

/** Inside a Prisma transaction (or on a Prisma client: each statement then commits alone). */
export function prismaSql(db: Prisma.TransactionClient | PrismaClient): SqlClient {
  return {
    query: <R>(text: string, params?: readonly unknown[]) => db.$queryRawUnsafe<R[]>(text, ...(params ?? [])),
    exec: (text, params) => db.$executeRawUnsafe(text, ...(params ?? [])),
  };
}

/** A Prisma client as an Sql (its transactions are Prisma's interactive ones): for code given only a Prisma client. */
export function prismaClientSql(prisma: PrismaClient): Sql {
  return { ...prismaSql(prisma), transaction: (fn) => prisma.$transaction((tx) => fn(prismaSql(tx))) };
}
