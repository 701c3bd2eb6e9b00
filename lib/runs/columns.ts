// The one description of a run's row: every column, how a run's start and outcome fill it, how
// the API and the CSV export show it. Every statement that writes or reads a whole run (start,
// record, finish, queue, claim, list, get) is built from it here, as text with bound parameters;
// lib/runs/store.ts only sends them. Pure: no I/O.
//
// A new nullable column: the schema change (prisma/schema.prisma and its migration), its entry in
// RUN_COLUMNS, and the field it is read from and shown as (RunStart in this file, Run in
// ./types.ts). The Record type below does not compile until the Prisma field has its entry.
import type { Prisma } from "../db/generated/client";
import type { ContentBlock } from "../tools/output";
import { isFieldErrors, type ErrorKind, type FieldError } from "../tools/errors";
import type { Run, RunOrigin, RunStatus } from "./types";

type RunRow = Prisma.RunGetPayload<object>;
/** A run as the store reads it: every column but the search text. */
export type RunListRow = Omit<RunRow, "searchText">;

/** What the caller of a run gives when it starts (or is queued, or recorded whole). */
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

/**
 * How a value is sent and read. The three back ends of lib/db/sql.ts are sent text, numbers,
 * booleans and JSON text alike; `json` nullish is SQL NULL, `json!` (a NOT NULL column) JSON null.
 */
type ColumnType = "text" | "uuid" | "int" | "boolean" | "timestamptz" | "json" | "json!" | "RunStatus" | "RunOrigin" | "ErrorKind";

/** An outcome that leaves the column as it is. */
export const KEEP = Symbol("keep");

interface Column {
  sql: string;
  type: ColumnType;
  /** The RunStart field it is written from at start (and read back into when a worker claims the run). */
  start?: keyof RunStart;
  /** Its value when the run ends (`since`: when it started); KEEP leaves it. */
  outcome?: (o: RunOutcome, since: Date) => unknown;
  /** The Run field that shows it as it is (times as ISO text); `optional`: left out when null. Else toRun composes it. */
  api?: keyof Run;
  optional?: true;
  /** Its CSV header, the value being the Run field (`api`), or composed from the Run. */
  csv?: string | { header: string; of: (r: Run) => unknown };
  /** Its value on a run not yet stored (unstoredRun) when neither start nor outcome gives one. */
  unset?: unknown;
}

/** Every column, in the CSV export's order for those it exports. */
const RUN_COLUMNS: Record<keyof RunListRow, Column> = {
  id: { sql: "id", type: "uuid", start: "id", api: "id", csv: "id" },
  toolName: { sql: "tool_name", type: "text", start: "toolName", api: "tool", csv: "tool" },
  toolSource: { sql: "tool_source", type: "text", start: "toolSource", api: "source", csv: "source" },
  status: { sql: "status", type: "RunStatus", outcome: (o) => o.status, api: "status", csv: "status" },
  errorKind: { sql: "error_kind", type: "ErrorKind", outcome: (o) => o.error?.kind, csv: { header: "error_kind", of: (r) => r.error?.kind } },
  errorMessage: { sql: "error_message", type: "text", outcome: (o) => o.error?.message, csv: { header: "error_message", of: (r) => r.error?.message } },
  durationMs: {
    sql: "duration_ms",
    type: "int",
    outcome: (o, since) => Math.max(0, Math.round(o.finishedAt.getTime() - since.getTime())),
    api: "durationMs",
    csv: "duration_ms",
  },
  startedAt: { sql: "started_at", type: "timestamptz", start: "startedAt", api: "startedAt", csv: "started_at" },
  finishedAt: { sql: "finished_at", type: "timestamptz", outcome: (o) => o.finishedAt, api: "finishedAt", csv: "finished_at" },
  origin: { sql: "origin", type: "RunOrigin", start: "origin", api: "origin", csv: "origin" },
  actor: { sql: "actor", type: "text", start: "actor", api: "actor", csv: "actor" },
  agent: { sql: "agent", type: "text", start: "agent", api: "agent", csv: "agent" },
  clientName: { sql: "client_name", type: "text", start: "clientName", api: "clientName", csv: "client_name" },
  replayOfId: { sql: "replay_of_id", type: "uuid", start: "replayOf", api: "replayOf", csv: "replay_of" },
  outputValid: { sql: "output_valid", type: "boolean", outcome: (o) => o.outputValid, api: "outputValid", csv: "output_valid" },
  arguments: { sql: "arguments", type: "json!", start: "arguments", api: "arguments", csv: "arguments" },
  structuredContent: {
    sql: "structured_content",
    type: "json",
    outcome: (o) => o.structuredContent,
    csv: { header: "structured_content", of: (r) => r.output?.structuredContent },
  },
  content: { sql: "content", type: "json", outcome: (o) => o.content, csv: { header: "content", of: (r) => r.output?.content } },
  toolSpecHash: { sql: "tool_spec_hash", type: "text", start: "toolSpecHash", api: "specHash" },
  errorDetail: { sql: "error_detail", type: "text", outcome: (o) => o.error?.detail },
  errorFields: { sql: "error_fields", type: "json", outcome: (o) => o.error?.fields },
  outputErrors: { sql: "output_errors", type: "json", outcome: (o) => o.outputErrors },
  timeoutMs: { sql: "timeout_ms", type: "int", start: "timeoutMs", api: "timeoutMs" },
  actorId: { sql: "actor_id", type: "text", start: "actorId", api: "actorId" },
  tokenId: { sql: "token_id", type: "text", start: "tokenId", api: "tokenId" },
  owner: { sql: "owner", type: "text" },
  leaseUntil: { sql: "lease_until", type: "timestamptz" },
  shapeCounted: { sql: "shape_counted", type: "boolean", unset: false },
  queuedAt: { sql: "queued_at", type: "timestamptz" },
  priority: { sql: "priority", type: "int" },
  progress: { sql: "progress", type: "json" },
  retryOfId: { sql: "retry_of_id", type: "uuid", start: "retryOf", api: "retryOf", optional: true },
  attempt: { sql: "attempt", type: "int", start: "attempt", api: "attempt", optional: true },
  idempotencyKey: {
    sql: "idempotency_key",
    type: "text",
    start: "idempotencyKey",
    // A run whose tool was never called frees its key.
    outcome: (o) => (o.freeKey ? null : KEEP),
    api: "idempotencyKey",
    optional: true,
  },
};

const COLUMNS = Object.entries(RUN_COLUMNS) as [keyof RunListRow, Column][];
const BY_SQL = new Map(COLUMNS.map(([field, c]) => [c.sql, { field, ...c }]));
// Every run's start and end walk these: filtered once, not on each run.
const START_COLUMNS = COLUMNS.map(([, c]) => c).filter((c) => c.start);
const OUTCOME_COLUMNS = COLUMNS.map(([, c]) => c).filter((c) => c.outcome);

const CAST: Record<ColumnType, string> = {
  text: "",
  uuid: "::uuid",
  int: "::int",
  boolean: "::boolean",
  timestamptz: "::timestamptz",
  json: "::jsonb",
  "json!": "::jsonb",
  RunStatus: '::"RunStatus"',
  RunOrigin: '::"RunOrigin"',
  ErrorKind: '::"ErrorKind"',
};
const isEnum = (t: ColumnType) => t === "RunStatus" || t === "RunOrigin" || t === "ErrorKind";

/** The select list of a whole run, each column named as its RunListRow field (enums as text). */
export const RUN_SELECT = COLUMNS.map(([field, c]) => `${c.sql}${isEnum(c.type) ? "::text" : ""} AS "${field}"`).join(", ");
const RETURNING = `RETURNING ${RUN_SELECT}`;

/** A run's values by SQL column, as JavaScript values (encoded for the wire by `param`). */
export type RunValues = Map<string, unknown>;

function param(type: ColumnType, v: unknown): unknown {
  if (type === "json!") return JSON.stringify(v ?? null);
  if (v === undefined || v === null) return null;
  if (type === "json") return JSON.stringify(v);
  if (type === "timestamptz") return (v as Date).toISOString();
  return v;
}

function column(sql: string) {
  const c = BY_SQL.get(sql);
  if (!c) throw new Error(`runs has no column ${sql}`);
  return c;
}

/** The columns a start writes, from the RunStart. */
export function startValues(r: RunStart): RunValues {
  return new Map(START_COLUMNS.map((c) => [c.sql, r[c.start!]]));
}

/** The columns an outcome writes. */
export function outcomeValues(o: RunOutcome, since: Date): RunValues {
  const values: RunValues = new Map();
  for (const c of OUTCOME_COLUMNS) {
    const v = c.outcome!(o, since);
    if (v !== KEEP) values.set(c.sql, v);
  }
  return values;
}

/** `a`, then `b` over it (an outcome's value wins over the start's). */
export const merged = (a: RunValues, b: RunValues): RunValues => new Map([...a, ...b]);

export interface Statement {
  text: string;
  params: unknown[];
}

/** `$n::cast` of each value, numbered after `offset`. */
function placeholders(cols: readonly string[], offset: number): string {
  return cols.map((sql, i) => `$${offset + i + 1}${CAST[column(sql).type]}`).join(", ");
}

/**
 * One INSERT of these runs (the same columns each), returning each row; `tail` goes before
 * RETURNING (an ON CONFLICT clause), `returning` replaces the row (a start needs none).
 */
export function insertRuns(rows: readonly RunValues[], opts: { tail?: string; returning?: string } = {}): Statement {
  const cols = [...rows[0]!.keys()];
  const params: unknown[] = [];
  const tuples = rows.map((r, i) => {
    if (r.size !== cols.length || cols.some((c) => !r.has(c))) throw new Error("insertRuns: every run must have the same columns");
    for (const c of cols) params.push(param(column(c).type, r.get(c)));
    return `(${placeholders(cols, i * cols.length)})`;
  });
  const text = `INSERT INTO runs (${cols.join(", ")}) VALUES ${tuples.join(", ")}${opts.tail ? ` ${opts.tail}` : ""} ${opts.returning ?? RETURNING}`;
  return { text, params };
}

/**
 * An UPDATE of the run `id` (`$1`) setting these values, where `where` holds (it may name `$2`
 * onwards as `whereParams`), returning the row.
 */
export function updateRun(id: string, set: RunValues, where: string, whereParams: readonly unknown[] = []): Statement {
  const offset = 1 + whereParams.length;
  const cols = [...set.keys()];
  const assignments = cols.map((sql, i) => `${sql} = $${offset + i + 1}${CAST[column(sql).type]}`).join(", ");
  return {
    text: `UPDATE runs SET ${assignments} WHERE id = $1::uuid AND ${where} ${RETURNING}`,
    params: [id, ...whereParams, ...cols.map((sql) => param(column(sql).type, set.get(sql)))],
  };
}

/** The whole run `id`. */
export function selectRun(where: string, params: readonly unknown[]): Statement {
  return { text: `SELECT ${RUN_SELECT} FROM runs WHERE ${where}`, params: [...params] };
}

const date = (v: unknown): Date | null => (v === null || v === undefined ? null : v instanceof Date ? v : new Date(String(v)));

/** A row as the back ends of lib/db/sql.ts return it: times as Dates whichever read it. */
export function fromRaw(r: RunListRow): RunListRow {
  const row = { ...r } as Record<string, unknown>;
  for (const [field, c] of COLUMNS) if (c.type === "timestamptz") row[field] = date(row[field]);
  return row as RunListRow;
}

/** The RunStart a stored row was started with (a worker claims a queued run). */
export function startOf(row: RunListRow): RunStart {
  const start: Partial<Record<keyof RunStart, unknown>> = {};
  for (const [field, c] of COLUMNS) {
    if (!c.start) continue;
    const v = row[field];
    start[c.start] = c.type === "json!" ? v : (v ?? undefined);
  }
  return start as RunStart;
}

/**
 * A run as it ended in this process, before it is stored (the database was away at its final
 * write): the same shape as a stored one, marked `capture: "pending"`.
 */
export function unstoredRun(r: RunStart, o: RunOutcome): Run {
  const values = merged(startValues(r), outcomeValues(o, r.startedAt));
  const row: Record<string, unknown> = {};
  for (const [field, c] of COLUMNS) {
    const v = values.has(c.sql) ? values.get(c.sql) : c.unset;
    // Through JSON, as the database hands JSON columns back.
    row[field] = c.type === "json" || c.type === "json!" ? (v === undefined || v === null ? null : JSON.parse(JSON.stringify(v))) : (v ?? c.unset ?? null);
  }
  return { ...toRun(row as RunListRow), capture: "pending" };
}

function isProgress(v: unknown): v is NonNullable<Run["progress"]> {
  return typeof v === "object" && v !== null && typeof (v as { progress?: unknown }).progress === "number";
}

/** A stored run as the API and the UI see it. */
export function toRun(row: RunListRow): Run {
  const run: Partial<Record<keyof Run, unknown>> = {};
  for (const [field, c] of COLUMNS) {
    if (!c.api) continue;
    const v = row[field];
    if (c.optional && (v === null || v === undefined)) continue;
    run[c.api] = v instanceof Date ? v.toISOString() : v;
  }
  const hasOutput = row.content !== null || row.structuredContent !== null;
  run.output = hasOutput
    ? {
        // The column holds ToolOutput.content as it was written (blocks of any kind, passed on as is).
        // eslint-disable-next-line no-restricted-syntax -- Prisma types a JSON column as JsonValue
        content: (row.content as unknown as ContentBlock[] | null) ?? [],
        ...(row.structuredContent !== null ? { structuredContent: row.structuredContent } : {}),
      }
    : null;
  run.outputErrors = isFieldErrors(row.outputErrors) ? row.outputErrors : null;
  run.error = row.errorKind
    ? { kind: row.errorKind, message: row.errorMessage ?? "", ...(isFieldErrors(row.errorFields) ? { details: row.errorFields } : {}) }
    : null;
  if (row.queuedAt) Object.assign(run, { queuedAt: row.queuedAt.toISOString(), priority: row.priority ?? 0 });
  if (isProgress(row.progress)) run.progress = row.progress;
  return run as Run;
}

/** The CSV export's columns: header and value of each. */
export const CSV_COLUMNS: readonly { header: string; of: (r: Run) => unknown }[] = COLUMNS.flatMap(([, c]) => {
  if (!c.csv) return [];
  if (typeof c.csv !== "string") return [c.csv];
  const api = c.api!;
  return [{ header: c.csv, of: (r: Run) => r[api] }];
});

/** The description as data (tests walk it: every column a start writes must reach the API and the export it names). */
export const RUN_COLUMN_LIST: readonly { field: keyof RunListRow; sql: string; type: ColumnType; start?: keyof RunStart; api?: keyof Run; csv?: string }[] =
  COLUMNS.map(([field, c]) => ({ field, sql: c.sql, type: c.type, start: c.start, api: c.api, csv: typeof c.csv === "string" ? c.csv : c.csv?.header }));
