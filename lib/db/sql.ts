// Plain SQL on the studio's own connection, for the few statements every run makes (its row,
// its final state, its audit entry). Measured (bench/run.ts, issue 12): a Prisma model query
// costs ~1.5 ms of CPU where the same statement through pg costs ~0.3 ms, and a run makes
// several; everything else keeps using Prisma. Three back ends with one behaviour: a pg pool
// (shared with Prisma's adapter, so no extra connections), PGlite, and a Prisma client or
// transaction (for code already inside a Prisma transaction, and for tests).
import type { PGlite, Transaction as PgliteTransaction } from "@electric-sql/pglite";
import pg from "pg";
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

/** A transaction's client: `commitWith` sends its last statement, which commits with it where the back end can. */
export interface TxClient extends SqlClient {
  /**
   * The transaction's last statement: on pg it is sent with the COMMIT, in one round trip (a run's
   * final write made six). Nothing may be sent after it; `fn` of transaction() should then return.
   */
  commitWith(text: string, params?: readonly unknown[]): Promise<number>;
}

export interface Sql extends SqlClient {
  /** One READ COMMITTED transaction on one connection: committed when `fn` resolves, rolled back when it throws. */
  transaction<T>(fn: (tx: TxClient) => Promise<T>): Promise<T>;
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

const BEGIN = "BEGIN ISOLATION LEVEL READ COMMITTED";
const AFTER_LAST = "a statement after the transaction's last one (commitWith)";
const TWICE = "commitWith called twice in one transaction";

/**
 * A pg transaction in fewer round trips, every value a bound parameter: the pool's connections
 * pipeline (node-postgres `pipeline: true`, lib/db/client.ts), so BEGIN is sent with the first
 * statement and COMMIT with the last (commitWith) without waiting in between. A run's final write
 * (its UPDATE, the audit lock and head, the entry's INSERT) is then 3 round trips, not 6.
 */
function pgTxClient(client: pg.PoolClient): TxClient & { state: "new" | "open" | "committed" } {
  /** `text` sent with BEGIN before it and/or COMMIT after it, none waiting for another; its own answer returned. */
  const pipelined = async (text: string, params: readonly unknown[] | undefined, around: { begin: boolean; commit: boolean }) => {
    // If BEGIN fails, the connection failed: nothing sent after it ran.
    const begin = around.begin ? client.query(BEGIN) : null;
    const statement = client.query(text, params as unknown[] | undefined);
    // A statement that failed aborted the transaction: the COMMIT behind it then rolls it back.
    const commit = around.commit ? client.query("COMMIT") : null;
    const [, result] = await Promise.all([begin, statement, commit]);
    return result;
  };
  const send = async (text: string, params?: readonly unknown[]) => {
    if (tx.state === "committed") throw new Error(AFTER_LAST);
    if (tx.state === "open") return client.query(text, params as unknown[] | undefined);
    tx.state = "open";
    return pipelined(text, params, { begin: true, commit: false });
  };
  const tx = {
    state: "new" as "new" | "open" | "committed",
    async query<R>(text: string, params?: readonly unknown[]) {
      return (await send(text, params)).rows as R[];
    },
    async exec(text: string, params?: readonly unknown[]) {
      return (await send(text, params)).rowCount ?? 0;
    },
    async commitWith(text: string, params?: readonly unknown[]) {
      if (tx.state === "committed") throw new Error(TWICE);
      const begin = tx.state === "new";
      tx.state = "committed";
      return (await pipelined(text, params, { begin, commit: true })).rowCount ?? 0;
    },
  };
  return tx;
}

/** `pool`: made with `pipeline: true` (else a transaction costs a round trip per statement, as before pipelining). */
export function pgSql(pool: pg.Pool): Sql {
  return {
    ...onPgClient(pool),
    async transaction(fn) {
      const client = await pool.connect();
      let broken: Error | undefined;
      const tx = pgTxClient(client);
      try {
        const result = await fn(tx);
        if (tx.state === "open") await client.query("COMMIT");
        return result;
      } catch (err) {
        // Nothing was sent: there is no transaction to roll back.
        if (tx.state !== "new")
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

/** Where statements cost no round trip (PGlite, Prisma), the last one is sent like any other; the rule is the same. */
function withCommitWith(c: SqlClient): TxClient {
  let last = false;
  const open = () => {
    if (last) throw new Error(AFTER_LAST);
  };
  return {
    query: (text, params) => (open(), c.query(text, params)),
    exec: (text, params) => (open(), c.exec(text, params)),
    commitWith: (text, params) => {
      if (last) throw new Error(TWICE);
      last = true;
      return c.exec(text, params);
    },
  };
}

export function pgliteSql(db: PGlite): Sql {
  // PGlite is one session and its default level is READ COMMITTED, like PostgreSQL's.
  return { ...onPglite(db), transaction: (fn) => db.transaction((tx) => fn(withCommitWith(onPglite(tx)))) };
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
  return { ...prismaSql(prisma), transaction: (fn) => prisma.$transaction((tx) => fn(withCommitWith(prismaSql(tx)))) };
}
