import { StudioError } from "../errors/errors";
import { Prisma, type PrismaClient } from "../db/generated/client";
import { isDatabaseUnavailable } from "../db/faults";
import { encodeKeyset, decodeKeyset } from "../http/cursor";
import { AUDIT_TX_OPTIONS, type AuditAppend, type AuditLog } from "../audit/log";
import { GroupCommit } from "../db/group-commit";
import { prismaClientSql, prismaSql, type Sql, type SqlClient, type TxClient } from "../db/sql";
import type { Run } from "./types";
import {
  fromRaw,
  insertRuns,
  merged,
  outcomeValues,
  RUN_SELECT,
  selectRun,
  startOf,
  startValues,
  toRun,
  unstoredRun,
  updateRun,
  type RunListRow,
  type RunOutcome,
  type RunStart,
  type RunValues,
} from "./columns";
import { whereSql, type RunFilter } from "./query";
import { searchIds } from "./search";
import { runStats, type ToolStats } from "./stats";
import { purgeRuns, type PurgeReport } from "./retention";
import type { RuntimeConfig } from "../config/schema";
import type { ConcurrencyLimit, QueuedTool } from "../queue/policy";

export type { RunFilter };

export type { RunStart, RunOutcome };
export { unstoredRun, toRun };

/** A queued run a worker took: what to run, with its place in the queue. */
export interface ClaimedRun {
  start: RunStart;
  priority: number;
  attempt: number;
}

/** Written in the transaction of a run's final state (e.g. the retry the queue policy asks for). */
export type InFinalTransaction = (tx: Prisma.TransactionClient) => Promise<void>;

export interface RunPage extends RunFilter {
  limit?: number;
  cursor?: string;
}

/** A UUID as PostgreSQL reads one (a 36-character string of dashes is not). */
export const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A cursor the run list did not write. */
export class CursorError extends StudioError {
  static override readonly tag: string = "CursorError";
  constructor(message: string) {
    super("bad_request", `Invalid cursor: ${message}`, { details: [{ path: "/cursor", message }] });
  }
}

/** Keyset cursor: the (startedAt, id) of the last row of a page. */
export function encodeCursor(row: { startedAt: Date; id: string }): string {
  return encodeKeyset(row.startedAt, row.id);
}

/** Run ids as PostgreSQL returns them: lower case. */
const RUN_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export function decodeCursor(cursor: string): { startedAt: Date; id: string } {
  const c = decodeKeyset(cursor, RUN_ID);
  if (!c) throw new CursorError("cursor is not one this API returned");
  return { startedAt: c.at, id: c.key };
}

/** The audit chain a run's end is written with (lib/audit): its entry, appended in the store's transaction. */
export interface RunAudit {
  chain: Pick<AuditLog, "appendIn">;
  entryOf(run: Run): AuditAppend;
}

/** The entry a purge commits with (the chain's `purge` or `purge.preview`). */
export interface PurgeAudit {
  chain: Pick<AuditLog, "appendIn">;
  entryOf(report: PurgeReport): AuditAppend;
}

/** A run's end: the statement that writes its final row, and what must commit with it (the job queue's retry). */
interface RunEnd {
  write(sql: SqlClient): Promise<RunListRow>;
  also?: InFinalTransaction;
}

/** Runs whose ends are committed together at most (one transaction, one audit lock, one flush). */
const MAX_ENDS = 500;

/** Reads and writes captured runs. */
export class RunStore {
  /** The statements of every run (start, final state) go through plain SQL: see lib/db/sql.ts. */
  private readonly sql: Sql;

  /** Runs' ends of the moment, committed together (lib/db/group-commit.ts); one that fails its batch is retried alone. */
  private readonly ends = new GroupCommit<RunEnd>((batch) => this.commitEnds(batch), { max: MAX_ENDS, alone: () => true, name: "runs" });

  /**
   * `audit`: every run's end is written with its entry (the chain's `run` entry); `sql`: plain SQL
   * on the same database, else through the Prisma client (tests).
   */
  constructor(
    private readonly prisma: PrismaClient,
    private readonly opts: { audit?: RunAudit; lease?: { owner: string; ms: number }; sql?: Sql } = {},
  ) {
    this.sql = opts.sql ?? prismaClientSql(prisma);
  }

  /** A run's end: its final row, its `also` and its audit entry commit together or not at all. */
  private async final(write: RunEnd["write"], also?: InFinalTransaction): Promise<Run> {
    if (this.opts.audit) return this.ends.submit<Run>({ write, also });
    if (also) return this.prisma.$transaction(async (tx) => this.endIn(prismaSql(tx), tx, { write, also }));
    return toRun(await write(this.sql));
  }

  private async endIn(sql: SqlClient, prisma: Prisma.TransactionClient | null, end: RunEnd): Promise<Run> {
    const row = await end.write(sql);
    if (end.also) {
      if (!prisma) throw new Error("a run's end with `also` needs a Prisma transaction");
      await end.also(prisma);
    }
    return toRun(row);
  }

  /**
   * The unit of work of runs' ends, in ONE transaction: each run's final row (and its `also`),
   * then their audit entries at the end of the chain, the entries' INSERT sent with the COMMIT.
   * READ COMMITTED, as the chain needs (lib/audit/log.ts). With an `also`, or without plain SQL,
   * the transaction is Prisma's.
   */
  private commitEnds(batch: RunEnd[]): Promise<Run[]> {
    const audit = this.opts.audit!;
    const inTx = async (sql: SqlClient, prisma: Prisma.TransactionClient | null, commitWith?: TxClient["commitWith"]) => {
      const runs: Run[] = [];
      for (const end of batch) runs.push(await this.endIn(sql, prisma, end));
      await audit.chain.appendIn(sql, runs.map(audit.entryOf), commitWith);
      return runs;
    };
    if (this.opts.sql && !batch.some((e) => e.also)) return this.sql.transaction((tx) => inTx(tx, null, tx.commitWith));
    return this.prisma.$transaction((tx) => inTx(prismaSql(tx), tx), AUDIT_TX_OPTIONS);
  }

  /**
   * Records a run as started (status running, leased to this process) before the tool is called.
   * Committed asynchronously (synchronous_commit off for that one transaction): the run's final
   * write, whose commit is flushed, makes it durable with it, so a run costs one flush, not two. A
   * database that crashes in between may lose the row: finish() given the start then writes the
   * whole run. If the studio dies instead, the row is there and its lease ends it `interrupted`.
   * A keyed run is the exception: its start is flushed on its own (see below).
   */
  async start(r: RunStart): Promise<void> {
    const lease = this.opts.lease;
    const values = startValues(r);
    values.set("status", "running");
    values.set("owner", lease?.owner ?? null);
    values.set("lease_until", lease ? new Date(Date.now() + lease.ms) : null);
    // A run with an Idempotency-Key is flushed before its tool is called: a database crash must
    // not forget the key of a tool that ran, or the client's retry would run it again.
    if (r.idempotencyKey) {
      const { text, params } = insertRuns([values], { returning: "" });
      await this.sql.exec(text, params);
      return;
    }
    return new Promise<void>((resolve, reject) => {
      this.starting.push({ values, resolve, reject });
      // Starts made together (concurrent requests) share one INSERT and one commit.
      if (this.starting.length === 1) queueMicrotask(() => this.writeStarts());
    });
  }

  /** Starts waiting for their INSERT (see start). */
  private starting: { values: RunValues; resolve(): void; reject(err: unknown): void }[] = [];

  /**
   * Writes every start queued so far as one multi-row INSERT; a batch that fails is written row
   * by row, so one bad row (a replayOf of a run that is gone) fails only its own start.
   */
  private writeStarts(): void {
    const batch = this.starting.splice(0, 500);
    if (this.starting.length) queueMicrotask(() => this.writeStarts());
    const insert = (rows: typeof batch) => {
      const { text, params } = insertRuns(
        rows.map((x) => x.values),
        { returning: `RETURNING ${ASYNC_COMMIT}` },
      );
      return this.sql.exec(text, params);
    };
    insert(batch)
      .then(
        () => batch.forEach((x) => x.resolve()),
        async (err: unknown) => {
          // The database is away: every start of the batch fails alike, at once.
          if (batch.length === 1 || isDatabaseUnavailable(err)) return batch.forEach((x) => x.reject(err));
          for (const x of batch) await insert([x]).then(x.resolve, x.reject);
        },
      )
      .catch((err: unknown) => batch.forEach((x) => x.reject(err)));
  }

  /**
   * Records a run as queued, and in the same transaction hands it to the job queue (`send`), so
   * a queued run always has its job and a job always has its run.
   */
  async enqueue(r: RunStart, priority: number, send: (tx: Prisma.TransactionClient) => Promise<void>): Promise<Run> {
    return this.prisma.$transaction((tx) => this.enqueueIn(tx, r, priority, send));
  }

  /** enqueue, inside a transaction the caller holds (a retry is queued with its failed run's final state). */
  async enqueueIn(tx: Prisma.TransactionClient, r: RunStart, priority: number, send: (tx: Prisma.TransactionClient) => Promise<void>): Promise<Run> {
    const values = startValues(r);
    values.set("status", "queued");
    values.set("queued_at", r.startedAt);
    values.set("priority", priority);
    const { text, params } = insertRuns([values]);
    const [row] = await prismaSql(tx).query<RunListRow>(text, params);
    await send(tx);
    return toRun(fromRaw(row!));
  }

  /**
   * A worker takes a queued run: it becomes `running`, leased to this process, started now. Null
   * when it is no longer queued (cancelled meanwhile, or taken by another worker).
   *
   * With concurrency limits (lib/queue/policy.ts), the limits of the run's tool are locked (an
   * advisory lock per limit, always in the same order) and the running runs they cover counted;
   * when one is full the run stays queued and `held` names it. The locks make the count and the
   * claim one step for every worker, so a limit is never overshot by two claims at once.
   */
  async claim(id: string, limitsOf?: (tool: QueuedTool) => ConcurrencyLimit[]): Promise<ClaimedRun | { held: ConcurrencyLimit; running: number } | null> {
    if (!limitsOf) return this.claimIn(this.prisma, id);
    const row = await this.prisma.run.findUnique({ where: { id }, select: { status: true, toolName: true, toolSource: true } });
    if (row?.status !== "queued") return null;
    const limits = limitsOf({ name: row.toolName, source: row.toolSource });
    if (!limits.length) return this.claimIn(this.prisma, id);
    return this.prisma.$transaction(async (tx) => {
      for (const l of limits) await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`tool-studio:queue-limit:${l.key}`}, 0))`;
      // Few rows: only runs in flight, grouped by tool (the status index finds them).
      const running = await tx.$queryRaw<{ tool_name: string; tool_source: string; n: number }[]>`
        SELECT tool_name, tool_source, count(*)::int AS n FROM runs WHERE status = 'running' GROUP BY tool_name, tool_source`;
      for (const l of limits) {
        const n = running.reduce((sum, r) => sum + (l.matches({ name: r.tool_name, source: r.tool_source }) ? r.n : 0), 0);
        if (n >= l.max) return { held: l, running: n };
      }
      return this.claimIn(tx, id);
    });
  }

  private async claimIn(db: Prisma.TransactionClient | PrismaClient, id: string): Promise<ClaimedRun | null> {
    const lease = this.opts.lease;
    const now = new Date();
    const set: RunValues = new Map<string, unknown>([
      ["status", "running"],
      ["started_at", now],
    ]);
    if (lease) {
      set.set("owner", lease.owner);
      set.set("lease_until", new Date(now.getTime() + lease.ms));
    }
    const { text, params } = updateRun(id, set, "status = 'queued'");
    const [raw] = await prismaSql(db).query<RunListRow>(text, params);
    if (!raw) return null;
    const row = fromRaw(raw);
    return { start: startOf(row), priority: row.priority ?? 0, attempt: row.attempt ?? 1 };
  }

  /** Ends a run that is still queued (cancelled before any worker took it), with its audit entry. Null when it is not queued. */
  async endQueued(id: string, o: RunOutcome): Promise<Run | null> {
    try {
      return await this.final(async (sql) => {
        const [row] = await sql.query<{ queued_at: Date | null }>(`SELECT queued_at FROM runs WHERE id = $1::uuid AND status = 'queued' FOR UPDATE`, [id]);
        if (!row) throw new RunNotRunningError(id);
        return finalUpdate(sql, id, "queued", o, row.queued_at ? new Date(row.queued_at) : o.finishedAt);
      });
    } catch (err) {
      if (isRecordNotFound(err) || RunNotRunningError.isInstance(err)) return null;
      throw err;
    }
  }

  /** Stores the last progress of a run still running (any instance reads it with the run). */
  async saveProgress(id: string, p: { progress: number; total?: number; message?: string }): Promise<void> {
    const value = {
      progress: p.progress,
      ...(p.total !== undefined ? { total: p.total } : {}),
      ...(p.message !== undefined ? { message: p.message.slice(0, 500) } : {}),
    };
    await this.sql.exec(`UPDATE runs SET progress = $2::jsonb WHERE id = $1::uuid AND status = 'running'`, [id, JSON.stringify(value)]);
  }

  /** Extends the leases of these runs (the ones this process is running or still storing). */
  async renewLeases(ids: readonly string[]): Promise<number> {
    const lease = this.opts.lease;
    if (!lease || !ids.length) return 0;
    return this.sql.exec(`UPDATE runs SET lease_until = $2::timestamptz WHERE id = ANY($1::uuid[]) AND status = 'running'`, [
      [...ids],
      new Date(Date.now() + lease.ms).toISOString(),
    ]);
  }

  /**
   * Marks `running` runs whose lease has ended (their process died or lost the database for
   * longer than the lease) as interrupted, each with its audit entry. Any instance may call it;
   * a run renewed or finished meanwhile is left alone, and so are `except` (the runs the calling
   * process holds itself: it is alive, whatever their lease says). Returns how many were marked.
   */
  async expireLeases(now = new Date(), except: readonly string[] = []): Promise<number> {
    const expired = {
      status: "running" as const,
      OR: [{ leaseUntil: null }, { leaseUntil: { lt: now } }],
      ...(except.length ? { id: { notIn: [...except] } } : {}),
    };
    const stale = await this.prisma.run.findMany({ where: expired, select: { id: true }, take: 1000 });
    return this.interrupt(
      stale.map((r) => r.id),
      { leaseEnded: now },
    );
  }

  /**
   * Stores the outcome of a run that is still `running`. A run already finished (a retry of a
   * write that did commit, or another process marking it interrupted) is left as it is: this
   * throws RunNotRunningError and writes nothing, so no run gets two outcomes or two audit entries.
   */
  async finish(id: string, startedAt: Date, o: RunOutcome, also?: InFinalTransaction, opts: { start?: RunStart } = {}): Promise<Run> {
    const start = opts.start;
    return this.final(async (sql) => {
      try {
        return await finalUpdate(sql, id, "running", o, startedAt);
      } catch (err) {
        // `start` committed asynchronously (see start()) and a database crash lost it: the whole
        // run is written now. A row in another state (finished, interrupted) is left as it is.
        if (!start || !RunNotRunningError.isInstance(err)) throw err;
        const row = await insertRun(sql, start, o, "ON CONFLICT (id) DO NOTHING");
        if (!row) throw err;
        return row;
      }
    }, also).then(logDetail(o));
  }

  /** The run an actor's Idempotency-Key names, if any (whatever its age: the caller decides what is still honoured). */
  async byIdempotencyKey(actor: string, key: string): Promise<Run | null> {
    return this.one(selectRun("actor = $1 AND idempotency_key = $2", [actor, key]));
  }

  /** Frees a key whose run is past the time keys are honoured, so the caller can use it again. */
  async releaseIdempotencyKey(id: string): Promise<void> {
    await this.sql.exec(`UPDATE runs SET idempotency_key = NULL WHERE id = $1::uuid`, [id]);
  }

  /** A run that never started (e.g. invalid arguments): one write with its final state. */
  async record(r: RunStart, o: RunOutcome): Promise<Run> {
    return this.final(async (sql) => (await insertRun(sql, r, o, ""))!).then(logDetail(o));
  }

  async get(id: string): Promise<Run | null> {
    if (!UUID_RE.test(id)) return null;
    return this.one(selectRun("id = $1::uuid", [id]));
  }

  private async one(s: { text: string; params: unknown[] }): Promise<Run | null> {
    const [row] = await this.sql.query<RunListRow>(s.text, s.params);
    return row ? toRun(fromRaw(row)) : null;
  }

  /** Operator view of a run, with the detail that callers never see. */
  async getErrorDetail(id: string): Promise<string | null> {
    const row = await this.prisma.run.findUnique({ where: { id }, select: { errorDetail: true } });
    return row?.errorDetail ?? null;
  }

  /**
   * Newest first, keyset-paged on (startedAt, id): one query on the indexes, whole rows. A text
   * search (`q`) finds the ids first (search.ts: bounded whatever the number of runs), then reads them.
   */
  async list(f: RunPage = {}): Promise<{ runs: Run[]; nextCursor: string | null }> {
    const limit = Math.min(Math.max(f.limit ?? 50, 1), 200);
    const cursor = f.cursor ? decodeCursor(f.cursor) : undefined;
    let hits: RunListRow[];
    if (f.q) {
      const ids = await searchIds(this.prisma, { ...f, q: f.q }, cursor, limit + 1);
      hits = ids.length
        ? await this.prisma.$queryRaw<RunListRow[]>`
            SELECT ${Prisma.raw(RUN_SELECT)} FROM runs WHERE id = ANY(${ids}::uuid[]) ORDER BY started_at DESC, id DESC`
        : [];
    } else {
      hits = await this.prisma.$queryRaw<RunListRow[]>`
        SELECT ${Prisma.raw(RUN_SELECT)} FROM runs ${whereSql(f, cursor)} ORDER BY started_at DESC, id DESC LIMIT ${limit + 1}`;
    }
    const page = hits.slice(0, limit);
    const nextCursor = hits.length > limit && page.length ? encodeCursor(page[page.length - 1]!) : null;
    return { runs: page.map(toRun), nextCursor };
  }

  /**
   * Applies retention rules (see retention.ts). `audited`: the purge and its entries are one
   * transaction, the entries appended after the deletes (appendIn), so the chain's lock is held
   * only for them and the other appends of the moment do not wait on a long purge.
   */
  purge(retention: RuntimeConfig["retention"], opts: { dryRun?: boolean; now?: Date; audited?: PurgeAudit } = {}): Promise<PurgeReport> {
    const { audited, ...rest } = opts;
    if (!audited) return purgeRuns(this.sql, retention, rest);
    return this.sql.transaction(async (tx) => {
      const report = await purgeRuns(tx, retention, rest);
      await audited.chain.appendIn(tx, [audited.entryOf(report)], tx.commitWith);
      return report;
    });
  }

  /** Count, success rate, p50/p95 and a series over time for the runs matching a filter. */
  stats(f: RunFilter): Promise<ToolStats> {
    return runStats(this.prisma, f);
  }

  /**
   * Distinct values of the columns the history filters offer (tools, sources, actors), each by a
   * loose index scan (one index probe per distinct value, not a pass over every run), all three in
   * one statement so the page pays one round trip, not three.
   */
  async facets(): Promise<{ tools: string[]; sources: string[]; actors: string[] }> {
    const rows = await this.prisma.$queryRaw<{ k: FacetColumn; v: string }[]>`
      WITH RECURSIVE ${Prisma.join(FACET_COLUMNS.map(looseScan), ", ")}
      ${Prisma.join(
        FACET_COLUMNS.map(
          (c) =>
            Prisma.sql`(SELECT ${Prisma.raw(`'${c}'`)} AS k, v FROM ${Prisma.raw(`"d_${c}"`)} WHERE v IS NOT NULL LIMIT ${Prisma.raw(String(FACET_LIMIT))})`,
        ),
        " UNION ALL ",
      )}
      ORDER BY k, v`;
    const of = (c: FacetColumn) => rows.filter((r) => r.k === c).map((r) => r.v);
    return { tools: of("tool_name"), sources: of("tool_source"), actors: of("actor") };
  }

  /**
   * Runs left `running` by a process that died are marked interrupted at start-up, each with its
   * audit entry (through the final-write hook, like any other outcome). Returns how many.
   */
  async markInterrupted(exceptIds: string[] = []): Promise<number> {
    const stale = await this.prisma.run.findMany({ where: { status: "running", id: { notIn: exceptIds } }, select: { id: true }, take: 10_000 });
    return this.interrupt(
      stale.map((r) => r.id),
      {},
    );
  }

  /** `leaseEnded`: only runs whose lease ended before that instant (or that have none). */
  private async interrupt(ids: string[], still: { leaseEnded?: Date }): Promise<number> {
    const finishedAt = new Date();
    const marked = await Promise.all(
      // Only a run still in that state is changed: its process may have finished or renewed it meanwhile.
      ids.map((id) =>
        this.final(async (sql) => {
          const set: RunValues = new Map<string, unknown>([
            ["status", "interrupted"],
            ["error_kind", "other"],
            ["error_message", INTERRUPTED],
            ["finished_at", finishedAt],
          ]);
          const lease = still.leaseEnded ? " AND (lease_until IS NULL OR lease_until < $2::timestamptz)" : "";
          const { text, params } = updateRun(id, set, `status = 'running'${lease}`, still.leaseEnded ? [still.leaseEnded.toISOString()] : []);
          const [row] = await sql.query<RunListRow>(text, params);
          if (!row) throw new RunNotRunningError(id);
          return fromRaw(row);
        })
          .then(() => true)
          .catch(() => false),
      ),
    );
    return marked.filter(Boolean).length;
  }
}

/** finish() found no `running` run with that id: it was finished already, or never written. */
export class RunNotRunningError extends StudioError {
  static override readonly tag: string = "RunNotRunningError";
  constructor(readonly runId: string) {
    super("conflict", `Run ${runId} is not running.`);
  }
}

// ---- the final writes of a run: their statements come from ./columns.ts.

const INTERRUPTED = "The studio stopped before this run finished.";

/** Makes the commit of the statement's transaction asynchronous (evaluated in its RETURNING, so inside it). */
const ASYNC_COMMIT = "set_config('synchronous_commit', 'off', true)";

/** Inserts a run with its outcome; null when `onConflict` skipped it. */
async function insertRun(sql: SqlClient, r: RunStart, o: RunOutcome, onConflict: string): Promise<RunListRow | null> {
  const { text, params } = insertRuns([merged(startValues(r), outcomeValues(o, r.startedAt))], { tail: onConflict });
  const [row] = await sql.query<RunListRow>(text, params);
  return row ? fromRaw(row) : null;
}

/** Stores an outcome on a run still in status `from`; RunNotRunningError when it is not (finished meanwhile, or never written). */
async function finalUpdate(sql: SqlClient, id: string, from: "running" | "queued", o: RunOutcome, since: Date): Promise<RunListRow> {
  const { text, params } = updateRun(id, outcomeValues(o, since), `status = $2::"RunStatus"`, [from]);
  const [row] = await sql.query<RunListRow>(text, params);
  if (!row) throw new RunNotRunningError(id);
  return fromRaw(row);
}

/** Prisma's "no record matched the where" (P2025), through any wrapping. */
function isRecordNotFound(err: unknown): boolean {
  for (let e = err, depth = 0; e && typeof e === "object" && depth < 6; depth++) {
    if ((e as { code?: unknown }).code === "P2025") return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}

const FACET_COLUMNS = ["tool_name", "tool_source", "actor"] as const;
type FacetColumn = (typeof FACET_COLUMNS)[number];
const FACET_LIMIT = 500;

/** `d_<column>` walks the column's index from one value to the next greater one. */
function looseScan(column: FacetColumn): Prisma.Sql {
  const c = Prisma.raw(`"${column}"`);
  return Prisma.sql`${Prisma.raw(`"d_${column}"`)} AS (
    (SELECT ${c} AS v FROM runs ORDER BY ${c} LIMIT 1)
    UNION ALL
    SELECT (SELECT ${c} FROM runs WHERE ${c} > d.v ORDER BY ${c} LIMIT 1) FROM ${Prisma.raw(`"d_${column}"`)} d WHERE d.v IS NOT NULL
  )`;
}

/** The operator-only detail reaches the log once its run is stored (one line, with the run id): no caller ever sees it. */
const logDetail =
  (o: RunOutcome) =>
  (run: Run): Run => {
    if (o.error?.detail)
      console.error(`[tool-studio] run ${run.id} ended ${o.status} (${o.error.kind}): ${o.error.detail.replace(/\s+/g, " ").slice(0, 2000)}`);
    return run;
  };
