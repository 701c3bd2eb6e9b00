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
 * A parameter as an SQL literal: pg sends several statements in one round trip only as a simple
 * query, which has no parameters. Values as the statements of this file's callers pass them:
 * text (JSON as text), numbers, booleans, null.
 */
function literal(v: unknown): string {
  if (v === null || v === undefined) return "NULL";
  // Refused as PostgreSQL refuses it in a parameter (it would end the query text here).
  if (typeof v === "string" && v.includes("\u0000")) throw new RangeError("a text parameter contains U+0000 (NUL), which PostgreSQL cannot store");
  // pg's: quotes doubled; backslashes doubled in an E'' string when there are any.
  if (typeof v === "string") return pg.escapeLiteral(v);
  if (typeof v === "boolean") return v ? "TRUE" : "FALSE";
  if (typeof v === "bigint" || (typeof v === "number" && Number.isFinite(v))) return String(v);
  if (v instanceof Date) return pg.escapeLiteral(v.toISOString());
  throw new TypeError(`an SQL parameter of type ${typeof v} cannot be sent as a literal`);
}

/**
 * `text` with $1..$n replaced by the parameters as literals. Only for this module's callers'
 * statements (lib/runs/store.ts, lib/audit/log.ts), which never have `$` in a quoted string.
 */
export function inlineParams(text: string, params: readonly unknown[] = []): string {
  return text.replace(/\$(\d+)/g, (_, n: string) => {
    const i = Number(n) - 1;
    if (i >= params.length) throw new RangeError(`the statement names $${n} but has ${params.length} parameters`);
    return literal(params[i]);
  });
}

/** The result of a multi-statement simple query is one per statement: the last is the one wanted. */
function lastResult(r: pg.QueryResult | pg.QueryResult[]): pg.QueryResult {
  return Array.isArray(r) ? r[r.length - 1]! : r;
}

/**
 * A pg transaction in fewer round trips: BEGIN goes with the first statement and COMMIT with the
 * last (commitWith), each pair as one simple query with the parameters inlined. A run's final
 * write (its UPDATE, the audit lock and head, the entry's INSERT) is then 3 round trips, not 6.
 */
function pgTxClient(client: pg.PoolClient): TxClient & { state: "new" | "open" | "committed" } {
  const send = async (text: string, params?: readonly unknown[]) => {
    if (tx.state === "committed") throw new Error(AFTER_LAST);
    if (tx.state === "open") return client.query(text, params as unknown[] | undefined);
    const inlined = inlineParams(text, params);
    tx.state = "open";
    return lastResult(await client.query(`${BEGIN}; ${inlined}`));
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
      const sent = `${tx.state === "new" ? `${BEGIN}; ` : ""}${inlineParams(text, params)}; COMMIT`;
      tx.state = "committed";
      const r = await client.query(sent);
      // [BEGIN?, the statement, COMMIT]: the statement's count.
      return (Array.isArray(r) ? r[r.length - 2]! : r).rowCount ?? 0;
    },
  };
  return tx;
}

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
