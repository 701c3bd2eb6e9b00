import { StudioError } from "../errors/errors";
import { Prisma, type PrismaClient } from "../db/generated/client";
import { isDatabaseUnavailable } from "../db/faults";
import { encodeKeyset, decodeKeyset } from "../http/cursor";
import { prismaClientSql, prismaSql, type DbTx, type Sql, type SqlClient } from "../db/sql";
import type { ContentBlock } from "../tools/output";
import { isFieldErrors, type ErrorKind, type FieldError } from "../tools/errors";
import type { Run, RunOrigin, RunStatus } from "./types";
import { whereSql, type RunFilter } from "./query";
import { searchIds } from "./search";
import { runStats, type ToolStats } from "./stats";
import { purgeRuns, type PurgeReport } from "./retention";
import type { RuntimeConfig } from "../config/schema";
import type { ConcurrencyLimit, QueuedTool } from "../queue/policy";

export type { RunFilter };

type RunRow = Prisma.RunGetPayload<object>;
/** A run as the history reads it: every column but the search text. */
type RunListRow = Omit<RunRow, "searchText">;

/**
 * The SQL of each RunListRow field, so a raw query returns rows of that shape. Typed as a record
 * of every field: a column added to the Run model does not compile until it is listed here.
 */
const RUN_FIELDS: Record<keyof RunListRow, string> = {
  id: "id",
  toolName: "tool_name",
  toolSource: "tool_source",
  toolSpecHash: "tool_spec_hash",
  arguments: "arguments",
  status: "status::text",
  errorKind: "error_kind::text",
  errorMessage: "error_message",
  errorDetail: "error_detail",
  errorFields: "error_fields",
  content: "content",
  structuredContent: "structured_content",
  outputValid: "output_valid",
  outputErrors: "output_errors",
  timeoutMs: "timeout_ms",
  durationMs: "duration_ms",
  startedAt: "started_at",
  finishedAt: "finished_at",
  actor: "actor",
  agent: "agent",
  origin: "origin::text",
  clientName: "client_name",
  actorId: "actor_id",
  tokenId: "token_id",
  replayOfId: "replay_of_id",
  owner: "owner",
  leaseUntil: "lease_until",
  shapeCounted: "shape_counted",
  queuedAt: "queued_at",
  priority: "priority",
  progress: "progress",
  retryOfId: "retry_of_id",
  attempt: "attempt",
  idempotencyKey: "idempotency_key",
};
const RUN_COLUMNS = Prisma.raw(
  Object.entries(RUN_FIELDS)
    .map(([field, sql]) => `${sql} AS "${field}"`)
    .join(", "),
);

export interface RunStart {
  id: string;
  toolName: string;
  toolSource: string;
  toolSpecHash: string;
  arguments: unknown;
  timeoutMs?: number;
  startedAt: Date;
  actor: string;
  actorId?: string | null;
  tokenId?: string | null;
  agent?: string;
  origin: RunOrigin;
  clientName?: string;
  replayOf?: string;
  /** A retry made by the queue policy: the run it repeats, and its attempt (2, 3...). */
  retryOf?: string;
  attempt?: number;
  /** The caller's Idempotency-Key (lib/execution/idempotency.ts): unique per actor. */
  idempotencyKey?: string;
}

/** A queued run a worker took: what to run, with its place in the queue. */
export interface ClaimedRun {
  start: RunStart;
  priority: number;
  attempt: number;
}

/** Written in the transaction of a run's final state (e.g. the retry the queue policy asks for). */
export type InFinalTransaction = (tx: Prisma.TransactionClient) => Promise<void>;

export interface RunOutcome {
  status: Exclude<RunStatus, "running" | "queued">;
  finishedAt: Date;
  content?: ContentBlock[];
  structuredContent?: unknown;
  /** The tool's result `_meta`: not stored, handed back on the run returned to the caller (see executeTool). */
  resultMeta?: Record<string, unknown>;
  outputValid?: boolean | null;
  outputErrors?: FieldError[] | null;
  error?: { kind: ErrorKind; message: string; detail?: string; fields?: FieldError[] };
  /** The tool was never called: the run gives its Idempotency-Key up, so the caller's retry runs it. */
  freeKey?: boolean;
}

export interface RunPage extends RunFilter {
  limit?: number;
  cursor?: string;
}

const nullableJson = (v: unknown) => (v === undefined || v === null ? Prisma.DbNull : (v as Prisma.InputJsonValue));

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

/**
 * Writes a run's final state together with what must commit with it (its audit entry): given
 * the write, it runs it in a transaction of its own choosing and returns the run. `prisma`: the
 * write also needs a Prisma transaction (an `also` of the job queue), not plain SQL alone.
 */
export type RunFinalHook = (write: (tx: FinalTx) => Promise<Run>, opts: { prisma: boolean }) => Promise<Run>;

/** The transaction a final write runs in: plain SQL always; Prisma's when the hook was asked for it. */
export type FinalTx = DbTx;

/** Reads and writes captured runs. */
export class RunStore {
  /** The statements of every run (start, final state) go through plain SQL: see lib/db/sql.ts. */
  private readonly sql: Sql;

  constructor(
    private readonly prisma: PrismaClient,
    private readonly opts: { onFinal?: RunFinalHook; lease?: { owner: string; ms: number }; sql?: Sql } = {},
  ) {
    this.sql = opts.sql ?? prismaClientSql(prisma);
  }

  /** A final write, its hook and `also` commit together or not at all. */
  private async final(write: (sql: SqlClient) => Promise<RunListRow>, also?: InFinalTransaction): Promise<Run> {
    const hook = this.opts.onFinal;
    const both = async (tx: FinalTx) => {
      const row = await write(tx.sql);
      if (also) {
        if (!tx.prisma) throw new Error("a final write with `also` needs a Prisma transaction");
        await also(tx.prisma);
      }
      return toRun(row);
    };
    if (hook) return hook(both, { prisma: also !== undefined });
    if (also) return this.prisma.$transaction((tx) => both({ sql: prismaSql(tx), prisma: tx }));
    return toRun(await write(this.sql));
  }

  private startData(r: RunStart) {
    return {
      id: r.id,
      toolName: r.toolName,
      toolSource: r.toolSource,
      toolSpecHash: r.toolSpecHash,
      arguments: nullableJson(r.arguments) as Prisma.InputJsonValue,
      timeoutMs: r.timeoutMs ?? null,
      startedAt: r.startedAt,
      actor: r.actor,
      actorId: r.actorId ?? null,
      tokenId: r.tokenId ?? null,
      agent: r.agent ?? null,
      origin: r.origin,
      clientName: r.clientName ?? null,
      replayOfId: r.replayOf ?? null,
      retryOfId: r.retryOf ?? null,
      attempt: r.attempt ?? null,
      idempotencyKey: r.idempotencyKey ?? null,
    };
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
    const [cols, params] = startColumns(r);
    cols.push("status", "owner", "lease_until");
    params.push("running", lease?.owner ?? null, lease ? new Date(Date.now() + lease.ms).toISOString() : null);
    // A run with an Idempotency-Key is flushed before its tool is called: a database crash must
    // not forget the key of a tool that ran, or the client's retry would run it again.
    if (r.idempotencyKey) {
      await this.sql.exec(`INSERT INTO runs (${cols.join(", ")}) VALUES (${placeholders(cols)})`, params);
      return;
    }
    return new Promise<void>((resolve, reject) => {
      this.starting.push({ cols, params, resolve, reject });
      // Starts made together (concurrent requests) share one INSERT and one commit.
      if (this.starting.length === 1) queueMicrotask(() => this.writeStarts());
    });
  }

  /** Starts waiting for their INSERT (see start). */
  private starting: { cols: string[]; params: unknown[]; resolve(): void; reject(err: unknown): void }[] = [];

  /**
   * Writes every start queued so far as one multi-row INSERT; a batch that fails is written row
   * by row, so one bad row (a replayOf of a run that is gone) fails only its own start.
   */
  private writeStarts(): void {
    const batch = this.starting.splice(0, 500);
    if (this.starting.length) queueMicrotask(() => this.writeStarts());
    const insert = (rows: typeof batch) => {
      const cols = rows[0]!.cols;
      const values = rows.map((_, i) => `(${placeholders(cols, i * cols.length)})`).join(", ");
      return this.sql.exec(
        `INSERT INTO runs (${cols.join(", ")}) VALUES ${values} RETURNING ${ASYNC_COMMIT}`,
        rows.flatMap((x) => x.params),
      );
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
    const row = await tx.run.create({ data: { ...this.startData(r), status: "queued", queuedAt: r.startedAt, priority } });
    await send(tx);
    return toRun(row);
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
    const r = await db.run.updateManyAndReturn({
      where: { id, status: "queued" },
      data: { status: "running", startedAt: now, ...(lease ? { owner: lease.owner, leaseUntil: new Date(now.getTime() + lease.ms) } : {}) },
    });
    const row = r[0];
    if (!row) return null;
    const start: RunStart = {
      id: row.id,
      toolName: row.toolName,
      toolSource: row.toolSource,
      toolSpecHash: row.toolSpecHash,
      arguments: row.arguments,
      timeoutMs: row.timeoutMs ?? undefined,
      startedAt: row.startedAt,
      actor: row.actor,
      actorId: row.actorId,
      tokenId: row.tokenId,
      agent: row.agent ?? undefined,
      origin: row.origin,
      clientName: row.clientName ?? undefined,
      replayOf: row.replayOfId ?? undefined,
      retryOf: row.retryOfId ?? undefined,
      attempt: row.attempt ?? undefined,
      idempotencyKey: row.idempotencyKey ?? undefined,
    };
    return { start, priority: row.priority ?? 0, attempt: row.attempt ?? 1 };
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
    await this.prisma.run.updateMany({ where: { id, status: "running" }, data: { progress: value } });
  }

  /** Extends the leases of these runs (the ones this process is running or still storing). */
  async renewLeases(ids: readonly string[]): Promise<number> {
    const lease = this.opts.lease;
    if (!lease || !ids.length) return 0;
    const r = await this.prisma.run.updateMany({ where: { id: { in: [...ids] }, status: "running" }, data: { leaseUntil: new Date(Date.now() + lease.ms) } });
    return r.count;
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
    const row = await this.prisma.run.findUnique({ where: { actor_idempotencyKey: { actor, idempotencyKey: key } } });
    return row ? toRun(row) : null;
  }

  /** Frees a key whose run is past the time keys are honoured, so the caller can use it again. */
  async releaseIdempotencyKey(id: string): Promise<void> {
    await this.prisma.run.updateMany({ where: { id }, data: { idempotencyKey: null } });
  }

  /** A run that never started (e.g. invalid arguments): one write with its final state. */
  async record(r: RunStart, o: RunOutcome): Promise<Run> {
    return this.final(async (sql) => (await insertRun(sql, r, o, ""))!).then(logDetail(o));
  }

  async get(id: string): Promise<Run | null> {
    if (!UUID_RE.test(id)) return null;
    const row = await this.prisma.run.findUnique({ where: { id } });
    return row ? toRun(row) : null;
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
            SELECT ${RUN_COLUMNS} FROM runs WHERE id = ANY(${ids}::uuid[]) ORDER BY started_at DESC, id DESC`
        : [];
    } else {
      hits = await this.prisma.$queryRaw<RunListRow[]>`
        SELECT ${RUN_COLUMNS} FROM runs ${whereSql(f, cursor)} ORDER BY started_at DESC, id DESC LIMIT ${limit + 1}`;
    }
    const page = hits.slice(0, limit);
    const nextCursor = hits.length > limit && page.length ? encodeCursor(page[page.length - 1]!) : null;
    return { runs: page.map(toRun), nextCursor };
  }

  /** Applies retention rules (see retention.ts). */
  purge(retention: RuntimeConfig["retention"], opts: { dryRun?: boolean; now?: Date } = {}): Promise<PurgeReport> {
    return purgeRuns(this.prisma, retention, opts);
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
    const data = { status: "interrupted" as const, errorKind: "other" as const, errorMessage: "The studio stopped before this run finished.", finishedAt };
    const marked = await Promise.all(
      // Only a run still in that state is changed: its process may have finished or renewed it meanwhile.
      ids.map((id) =>
        this.final(async (sql) => {
          const [row] = await sql.query<RawRun>(
            `UPDATE runs SET status = 'interrupted', error_kind = 'other', error_message = $2, finished_at = $3::timestamptz
             WHERE id = $1::uuid AND status = 'running'${still.leaseEnded ? " AND (lease_until IS NULL OR lease_until < $4::timestamptz)" : ""} ${RETURNING}`,
            [id, data.errorMessage, finishedAt.toISOString(), ...(still.leaseEnded ? [still.leaseEnded.toISOString()] : [])],
          );
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

function isProgress(v: unknown): v is NonNullable<Run["progress"]> {
  return typeof v === "object" && v !== null && typeof (v as { progress?: unknown }).progress === "number";
}

/** finish() found no `running` run with that id: it was finished already, or never written. */
export class RunNotRunningError extends StudioError {
  static override readonly tag: string = "RunNotRunningError";
  constructor(readonly runId: string) {
    super("conflict", `Run ${runId} is not running.`);
  }
}

// ---- the plain-SQL statements of a run (lib/db/sql.ts): its row, and its final state.

/** The columns of a Run, named as RunListRow's fields (RETURNING these, not `*`: not the search text). */
const RETURNING = `RETURNING ${Object.entries(RUN_FIELDS)
  .map(([field, sql]) => `${sql} AS "${field}"`)
  .join(", ")}`;

type RawRun = RunListRow;

/** Each column's cast: the three back ends of lib/db/sql.ts are sent text, JSON and times alike. */
const CASTS: Record<string, string> = {
  id: "::uuid",
  replay_of_id: "::uuid",
  retry_of_id: "::uuid",
  arguments: "::jsonb",
  content: "::jsonb",
  structured_content: "::jsonb",
  output_errors: "::jsonb",
  error_fields: "::jsonb",
  started_at: "::timestamptz",
  finished_at: "::timestamptz",
  lease_until: "::timestamptz",
  status: '::"RunStatus"',
  origin: '::"RunOrigin"',
  error_kind: '::"ErrorKind"',
  timeout_ms: "::int",
  duration_ms: "::int",
  attempt: "::int",
  output_valid: "::boolean",
};

/** `$1::cast, $2, ...` for these columns; `offset`: the number of parameters before them. */
function placeholders(cols: readonly string[], offset = 0): string {
  return cols.map((c, i) => `$${i + 1 + offset}${CASTS[c] ?? ""}`).join(", ");
}

const jsonText = (v: unknown): string | null => (v === undefined ? null : JSON.stringify(v));
const nullableJsonText = (v: unknown): string | null => (v === undefined || v === null ? null : JSON.stringify(v));

function startColumns(r: RunStart): [string[], unknown[]] {
  return [
    [
      "id",
      "tool_name",
      "tool_source",
      "tool_spec_hash",
      "arguments",
      "timeout_ms",
      "started_at",
      "actor",
      "actor_id",
      "token_id",
      "agent",
      "origin",
      "client_name",
      "replay_of_id",
      "retry_of_id",
      "attempt",
      "idempotency_key",
    ],
    [
      r.id,
      r.toolName,
      r.toolSource,
      r.toolSpecHash,
      JSON.stringify(r.arguments ?? null),
      r.timeoutMs ?? null,
      r.startedAt.toISOString(),
      r.actor,
      r.actorId ?? null,
      r.tokenId ?? null,
      r.agent ?? null,
      r.origin,
      r.clientName ?? null,
      r.replayOf ?? null,
      r.retryOf ?? null,
      r.attempt ?? null,
      r.idempotencyKey ?? null,
    ],
  ];
}

function outcomeColumns(o: RunOutcome, since: Date): [string[], unknown[]] {
  const cols = [
    "status",
    "finished_at",
    "duration_ms",
    "content",
    "structured_content",
    "output_valid",
    "output_errors",
    "error_kind",
    "error_message",
    "error_detail",
    "error_fields",
  ];
  const params: unknown[] = [
    o.status,
    o.finishedAt.toISOString(),
    Math.max(0, Math.round(o.finishedAt.getTime() - since.getTime())),
    jsonText(o.content),
    jsonText(o.structuredContent),
    o.outputValid ?? null,
    nullableJsonText(o.outputErrors),
    o.error?.kind ?? null,
    o.error?.message ?? null,
    o.error?.detail ?? null,
    nullableJsonText(o.error?.fields),
  ];
  if (o.freeKey) {
    cols.push("idempotency_key");
    params.push(null);
  }
  return [cols, params];
}

/** Makes the commit of the statement's transaction asynchronous (evaluated in its RETURNING, so inside it). */
const ASYNC_COMMIT = "set_config('synchronous_commit', 'off', true)";

/** Inserts a run with its outcome; null when `onConflict` skipped it. */
async function insertRun(sql: SqlClient, r: RunStart, o: RunOutcome, onConflict: string): Promise<RunListRow | null> {
  const [scols, sparams] = startColumns(r);
  const [ocols, oparams] = outcomeColumns(o, r.startedAt);
  // A column both name (the key an outcome frees) takes the outcome's value.
  const keep = scols.map((c) => !ocols.includes(c));
  const cols = scols.filter((_, i) => keep[i]);
  const params = sparams.filter((_, i) => keep[i]);
  const all = [...cols, ...ocols];
  const [row] = await sql.query<RawRun>(`INSERT INTO runs (${all.join(", ")}) VALUES (${placeholders(all)}) ${onConflict} ${RETURNING}`, [
    ...params,
    ...oparams,
  ]);
  return row ? fromRaw(row) : null;
}

/** Stores an outcome on a run still in status `from`; RunNotRunningError when it is not (finished meanwhile, or never written). */
async function finalUpdate(sql: SqlClient, id: string, from: "running" | "queued", o: RunOutcome, since: Date): Promise<RunListRow> {
  const [cols, params] = outcomeColumns(o, since);
  const set = cols.map((c, i) => `${c} = $${i + 3}${CASTS[c] ?? ""}`).join(", ");
  const [row] = await sql.query<RawRun>(`UPDATE runs SET ${set} WHERE id = $1::uuid AND status = $2::"RunStatus" ${RETURNING}`, [id, from, ...params]);
  if (!row) throw new RunNotRunningError(id);
  return fromRaw(row);
}

const date = (v: unknown): Date | null => (v === null || v === undefined ? null : v instanceof Date ? v : new Date(String(v)));

/** A row read through plain SQL: its times as Dates whichever back end read it (lib/db/sql.ts). */
function fromRaw(r: RawRun): RunListRow {
  return { ...r, startedAt: date(r.startedAt)!, finishedAt: date(r.finishedAt), leaseUntil: date(r.leaseUntil), queuedAt: date(r.queuedAt) };
}

/** Prisma's "no record matched the where" (P2025), through any wrapping. */
function isRecordNotFound(err: unknown): boolean {
  for (let e = err, depth = 0; e && typeof e === "object" && depth < 6; depth++) {
    if ((e as { code?: unknown }).code === "P2025") return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}

/**
 * A run as it ended in this process, before it is stored (the database was away at its final
 * write): the same shape as a stored one, marked `capture: "pending"`.
 */
export function unstoredRun(r: RunStart, o: RunOutcome): Run {
  // Through JSON, as the database hands JSON columns back.
  const json = (v: unknown): Prisma.JsonValue => (v === undefined || v === null ? null : JSON.parse(JSON.stringify(v)));
  return {
    ...toRun({
      id: r.id,
      toolName: r.toolName,
      toolSource: r.toolSource,
      toolSpecHash: r.toolSpecHash,
      arguments: json(r.arguments),
      status: o.status,
      errorKind: o.error?.kind ?? null,
      errorMessage: o.error?.message ?? null,
      errorDetail: o.error?.detail ?? null,
      errorFields: json(o.error?.fields),
      content: json(o.content),
      structuredContent: json(o.structuredContent),
      outputValid: o.outputValid ?? null,
      outputErrors: json(o.outputErrors),
      timeoutMs: r.timeoutMs ?? null,
      durationMs: Math.max(0, Math.round(o.finishedAt.getTime() - r.startedAt.getTime())),
      startedAt: r.startedAt,
      finishedAt: o.finishedAt,
      actor: r.actor,
      agent: r.agent ?? null,
      origin: r.origin,
      clientName: r.clientName ?? null,
      actorId: r.actorId ?? null,
      tokenId: r.tokenId ?? null,
      replayOfId: r.replayOf ?? null,
      owner: null,
      leaseUntil: null,
      shapeCounted: false,
      queuedAt: null,
      priority: null,
      progress: null,
      retryOfId: r.retryOf ?? null,
      attempt: r.attempt ?? null,
      idempotencyKey: r.idempotencyKey ?? null,
    }),
    capture: "pending",
  };
}

export function toRun(row: RunListRow): Run {
  const hasOutput = row.content !== null || row.structuredContent !== null;
  return {
    id: row.id,
    tool: row.toolName,
    source: row.toolSource,
    specHash: row.toolSpecHash,
    status: row.status,
    arguments: row.arguments,
    output: hasOutput
      ? {
          // The column holds ToolOutput.content as it was written (blocks of any kind, passed on as is).
          // eslint-disable-next-line no-restricted-syntax -- Prisma types a JSON column as JsonValue
          content: (row.content as unknown as ContentBlock[] | null) ?? [],
          ...(row.structuredContent !== null ? { structuredContent: row.structuredContent } : {}),
        }
      : null,
    outputValid: row.outputValid,
    outputErrors: isFieldErrors(row.outputErrors) ? row.outputErrors : null,
    error: row.errorKind
      ? {
          kind: row.errorKind,
          message: row.errorMessage ?? "",
          ...(isFieldErrors(row.errorFields) ? { details: row.errorFields } : {}),
        }
      : null,
    timeoutMs: row.timeoutMs,
    durationMs: row.durationMs,
    startedAt: row.startedAt.toISOString(),
    finishedAt: row.finishedAt?.toISOString() ?? null,
    origin: row.origin,
    actor: row.actor,
    actorId: row.actorId,
    tokenId: row.tokenId,
    agent: row.agent,
    clientName: row.clientName,
    replayOf: row.replayOfId,
    ...(row.retryOfId ? { retryOf: row.retryOfId } : {}),
    ...(row.attempt ? { attempt: row.attempt } : {}),
    ...(row.queuedAt ? { queuedAt: row.queuedAt.toISOString(), priority: row.priority ?? 0 } : {}),
    ...(isProgress(row.progress) ? { progress: row.progress } : {}),
    ...(row.idempotencyKey ? { idempotencyKey: row.idempotencyKey } : {}),
  };
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
