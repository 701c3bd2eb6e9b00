// The tamper-evident audit log: an append-only hash chain in the `audit_log` table.
//
// Each entry's `hash` is sha256 (hex) over the canonical JSON (lib/tools/hash.ts canonicalJson,
// keys sorted at every level) of
//
//   { seq, at, actor, action, target, detail, fromAddr, prevHash }
//
// where `seq` is a JSON number, `at` the ISO 8601 time with milliseconds (toISOString), `target`,
// `detail` and `fromAddr` are null when absent, and `prevHash` is the previous entry's hash
// (GENESIS_HASH, 64 zeros, for entry #1). The chain can be re-checked by anything that speaks
// JSON and sha256: see `entryHash`.
//
// Two layers protect it:
// - the database refuses UPDATE, DELETE and TRUNCATE on audit_log (triggers in the migration
//   *_history_inference_audit), so ordinary mistakes and ordinary roles cannot change history;
// - the hash chain makes changes by someone who can get past the triggers (a superuser disabling
//   them, a restored dump) visible to `verify()`: an edited entry no longer matches its hash, a
//   removed entry leaves a gap in `seq` and a `prevHash` that does not match, a re-hashed entry
//   breaks the `prevHash` of the next one. Rewriting the whole tail is only detectable against a
//   hash saved elsewhere: `verify()` reports the `head`, and `verify({ checkpoint })` checks it.
//
// Sequence numbers: allocated here (last seq + 1) inside the transaction that holds the append
// lock, not by the BIGSERIAL default. The lock (pg_advisory_xact_lock, held to commit) makes
// "read the last entry, insert the next" atomic across every connection and process, so seq is
// gapless and equals chain order; and because seq is inside the hash, renumbering is detected
// too. A sequence's nextval would not do: values are handed out outside the lock and never
// rolled back, so seq could have gaps (indistinguishable from a removed entry) and would not be
// covered by the hash unless read back first. The primary key backs the lock up: two appends
// that somehow skipped it could not both insert the same seq.
//
// Group commit (lib/db/group-commit.ts): the appends of one process (one AuditLog) are queued and
// written together; a batch (at most AUDIT_MAX_BATCH entries, in call order) is ONE transaction:
// the lock, one read of the chain head, one multi-row INSERT with consecutive seq and prevHash.
// Every caller's promise settles only after that transaction, with its entry or with the error
// (nothing is acknowledged that did not commit; a rolled-back batch leaves no trace in the
// chain). Under load the lock is taken once per batch instead of once per entry; other processes
// are serialized against it by the same lock. A batch may also carry writes that must commit with
// their entry (appendWith: a token and its "token.create" entry); they run first in the same
// transaction, and if such a batch fails, each is retried alone. A run's end is a unit of work of
// the run store (lib/runs/store.ts), which appends its entry inside its own transaction (appendIn).
//
// Action names in use (keep this list current; entries are permanent, so never put secrets,
// tokens or full config text in `detail`):
//   run            target: tool name. detail: { runId, status, origin, errorKind, userId?, tokenId?,
//                  client? }, written with the run (runEntry, lib/audit/observer.ts). actor: the caller.
//   auth.sign-in, auth.sign-in-failed, auth.sign-out, auth.sign-out-everywhere
//                  target: the email. detail: { userId, method } / { reason } (never a password).
//                  A sign-in commits with its session, a sign-out with the session's delete, a
//                  password change with the new hash (lib/auth/audited-sessions.ts, appendIn); a
//                  failed sign-in changes nothing and is appended alone.
//   token.create, token.revoke   target: the token's name. detail: { tokenId, role, expiresAt, owner }.
//   user.create, user.update, user.role, user.delete, user.sign-out-everywhere, user.password-change
//                  target: the person's email. detail: { userId, from/to role, changed fields }.
//                  An admin's changes (lib/auth/users.ts) commit with their entries (auditedWrite).
//   config.change  target: the config file (as displayed). detail: { source: "api" | "disk",
//                  version (per-process counter of lib/config/store.ts), sha256 (of the new text),
//                  error (why that text is not in use, or null), atStartup? }. `from` is the
//                  request's address and user agent for "api".
//   server.add     target: the MCP server's name. detail: how it is reached (transport, url or
//                  command), never credentials.
//   server.remove  target: the MCP server's name. detail: optional { reason }.
//   server.enable, server.disable  target: the MCP server's name.
//   resource.read, prompt.get  target: "<server> <uri or prompt name>". detail: { outcome, … } — a
//                  caller read a server's resource or got its prompt (lib/servers/resources.ts, browse.ts).
//   server.oauth.signin   target: the MCP server's name. detail: { url, refreshed? } — an admin
//                  signed the studio in to the server (OAuth); never a token, code or verifier.
//   server.oauth.signout  target: the MCP server's name. detail: { url, hadTokens } — its
//                  tokens were forgotten. Both commit with the tokens they store or forget
//                  (lib/servers/oauth.ts, appendWith).
//   export         target: what was exported (e.g. "runs"). detail: { format, filter }.
//   shape.change   target: tool name. actor: "system:inference". detail: { kind, revision, runId,
//                  samples, changes: [words] } — a tool's observed output shape changed
//                  (lib/inference/revisions.ts); revision 1 is its first observed shape. Written
//                  in the revision's own transaction (lib/inference/storage.ts, appendIn).
//   tool.adopt-output-schema  target: runtime tool name. detail: { samples, userId? } — its
//                  inferred output shape became its declared outputSchema (after the
//                  "config.change" entry of that save).
//   run.input      target: tool name. detail: { runId, inputId, server, kind (elicitation |
//                  sampling), mode, action, content (form fields; values under secret-looking
//                  names redacted) | replyChars, model } — the run's caller answered a server's
//                  request for input (lib/execution/pending-input.ts).
//   mcp.refused    target: the JSON-RPC method. detail: { kind: "forbidden", method, need, role,
//                  resource? (the URI or name it named), userId?, tokenId? } — a caller of /api/mcp
//                  whose role may not use that method (lib/mcp-server/access.ts).
//   purge          target: what was purged (e.g. "runs"). detail: { retention, ...what was removed }.
//   purge.preview  a dry run of purge: what would have been removed. Both commit in the purge's
//                  own transaction, after its deletes (RunStore.purge, appendIn).
import { StudioError } from "../errors/errors";
import { Prisma, type PrismaClient } from "../db/generated/client";
import { canonicalJson, sha256Hex } from "../tools/hash";
import { GroupCommit } from "../db/group-commit";
import { prismaSql, type Sql, type SqlClient, type TxClient } from "../db/sql";
import { encodeKeyset, decodeKeyset } from "../http/cursor";

/** Every action the studio writes, a closed list (the audit page's filter; lib/audit/actions.test.ts checks it against the code). */
export const AUDIT_ACTIONS = [
  "run",
  "run.input",
  "config.change",
  "server.add",
  "server.remove",
  "server.enable",
  "server.disable",
  "server.oauth.signin",
  "server.oauth.signout",
  "resource.read",
  "prompt.get",
  "mcp.refused",
  "export",
  "purge",
  "purge.preview",
  "shape.change",
  "tool.adopt-output-schema",
  "auth.sign-in",
  "auth.sign-in-failed",
  "auth.sign-out",
  "auth.sign-out-everywhere",
  "user.create",
  "user.update",
  "user.role",
  "user.delete",
  "user.sign-out-everywhere",
  "user.password-change",
  "token.create",
  "token.revoke",
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** prevHash of entry #1. */
export const GENESIS_HASH = "0".repeat(64);

/**
 * pg_advisory_xact_lock key serializing appends ("auditlog" as a big-endian int64). Distinct
 * from the migrator's key (lib/db/migrate.ts).
 */
export const AUDIT_LOCK_KEY = 7022629598041763687n;

/** Most entries one append transaction writes; further concurrent appends wait for the next one. */
export const AUDIT_MAX_BATCH = 500;

const MAX_DETAIL_CHARS = 64 * 1024;
const MAX_TEXT = { actor: 200, target: 500, from: 500 } as const;
const ACTION_RE = /^[a-z][a-z0-9_-]*(?:\.[a-z0-9_-]+)*$/;

/** What a caller appends. */
export interface AuditAppend {
  /** Who did it, e.g. localActor() (`local:<user>`). */
  actor: string;
  /** One of AUDIT_ACTIONS (a new action is added there and documented at the top of this file). */
  action: AuditAction;
  /** What it was done to (tool name, server name, config file...). */
  target?: string | null;
  /** Any JSON value (stored as JSONB); normalized through JSON first (undefined dropped, Dates as strings). */
  detail?: unknown;
  /** Where the request came from (address and user agent), when there was one. */
  from?: string | null;
}

/** An entry as the API and the UI see it. */
export interface AuditEntry {
  seq: number;
  at: string;
  actor: string;
  action: string;
  target: string | null;
  detail: unknown;
  from: string | null;
  prevHash: string;
  hash: string;
}

export interface AuditVerifyOptions {
  /** First seq to check (default 1). Entries before it are trusted: see `fromHash`. */
  from?: number;
  /** The hash entry `from - 1` must have had (a saved checkpoint); default: the stored one. */
  fromHash?: string;
  /** Entries read per query (default 1000, at most 10000): memory stays flat however long the chain. */
  batch?: number;
  /** A head saved earlier (e.g. from the report of a past run): that entry must still have that hash. */
  checkpoint?: { seq: number; hash: string };
  /** Called after each page with the number of entries checked so far (progress of a long walk). */
  onProgress?: (entries: number) => void;
}

export interface AuditVerifyReport {
  ok: boolean;
  /** Entries checked and found good (all of them when ok). */
  entries: number;
  /** The last entry of the chain (save it elsewhere to detect a rewritten tail later). */
  head: { seq: number; hash: string } | null;
  firstBad?: { seq: number; reason: string };
}

export interface AuditFilter {
  action?: string;
  actor?: string;
  target?: string;
  /** Entries at or after this instant. */
  since?: Date;
  /** Entries strictly before this instant. */
  until?: Date;
  /** Page size, 1..200 (default 50). */
  limit?: number;
  /** `nextCursor` of the previous page. */
  cursor?: string;
}

/** A cursor the audit log did not write. */
export class AuditCursorError extends StudioError {
  static override readonly tag: string = "AuditCursorError";
  constructor(message: string) {
    super("bad_request", `Invalid cursor: ${message}`, { details: [{ path: "/cursor", message }] });
  }
}
/** An entry refused for its text: a value of the request was past the limit it names. */
export class AuditInputError extends StudioError {
  static override readonly tag: string = "AuditInputError";
  constructor(message: string) {
    super("bad_request", message);
  }
}

/** A change audited in its own transaction: the log, and the entries its result yields (both commit, or neither). */
export interface AuditedChange<R> {
  log: AuditLog;
  entries(result: R): AuditAppend | readonly AuditAppend[];
}

/** `write` in the change's own transaction with its entries (AuditLog.appendWith); alone when nothing audits it. */
export function auditedWrite<R>(prisma: PrismaClient, write: (db: Client) => Promise<R>, audited?: AuditedChange<R>): Promise<R> {
  return audited ? audited.log.appendWith(write, (r) => audited.entries(r)) : write(prisma);
}

/** The fields the hash covers, as stored. */
export interface HashedFields {
  seq: number | bigint;
  at: Date;
  actor: string;
  action: string;
  target: string | null;
  detail: unknown;
  fromAddr: string | null;
  prevHash: string;
}

/** sha256 hex over the canonical JSON of the hashed fields (see the top of this file). */
export function entryHash(f: HashedFields): string {
  const seq = typeof f.seq === "bigint" ? bigintToNumber(f.seq) : f.seq;
  return sha256Hex(
    canonicalJson({
      seq,
      at: f.at.toISOString(),
      actor: f.actor,
      action: f.action,
      target: f.target ?? null,
      detail: f.detail ?? null,
      fromAddr: f.fromAddr ?? null,
      prevHash: f.prevHash,
    }),
  );
}

/** Keyset cursor of `list`: the (at, seq) of the last entry of a page. */
export function encodeAuditCursor(e: { at: Date; seq: bigint | number }): string {
  return encodeKeyset(e.at, String(e.seq));
}

export function decodeAuditCursor(cursor: string): { at: Date; seq: bigint } {
  const c = decodeKeyset(cursor, /^[1-9][0-9]{0,17}$/);
  if (!c) throw new AuditCursorError("cursor is not one this API returned");
  return { at: c.at, seq: BigInt(c.key) };
}

type Row = Prisma.AuditEntryGetPayload<object>;
type Client = PrismaClient | Prisma.TransactionClient;

/** The audit log on Prisma (PostgreSQL or PGlite). */
export class AuditLog {
  /** Appends of the moment, written together (see "Group commit" at the top of this file). */
  private readonly batches = new GroupCommit<PendingAppend>((batch) => this.writeBatch(batch), {
    max: AUDIT_MAX_BATCH,
    // Plain entries share their batch's fate; a `work` is retried alone, so it fails only for its own fault.
    alone: (p) => p.work !== undefined,
    name: "audit",
  });

  /**
   * `sql`: plain SQL on the same database (lib/db/sql.ts). A batch of plain entries is then
   * written through it: several times less CPU per entry than through Prisma. Without it every
   * batch is a Prisma transaction.
   */
  constructor(
    private readonly prisma: PrismaClient,
    private readonly sql?: Sql,
  ) {}

  /**
   * Appends one entry at the end of the chain and resolves with it once it has committed.
   * Concurrent calls are written together (see "Group commit" at the top of this file); an entry
   * that is not valid input is refused at once, for its caller only (AuditInputError).
   */
  async append(input: AuditAppend): Promise<AuditEntry> {
    return this.batches.submit({ e: normalizeAppend(input) });
  }

  /**
   * Runs `work` and appends the entry its result yields in ONE transaction, group-committed with
   * the other appends of the moment: both commit or neither does (a token and its "token.create"
   * entry). If a batch fails, each `work` of it is retried alone, so one bad write cannot lose
   * the others. `entryOf` may give several entries (a config revision and the server edit it was
   * made for): all of them commit with the work.
   */
  appendWith<T>(work: (tx: Prisma.TransactionClient) => Promise<T>, entryOf: (result: T) => AuditAppend | readonly AuditAppend[]): Promise<T> {
    return this.batches.submit({ work: work as PendingAppend["work"], entryOf: entryOf as PendingAppend["entryOf"] });
  }

  /**
   * Appends entries at the end of the chain inside a transaction the caller holds (a run's end,
   * lib/runs/store.ts: the store owns that unit of work). Takes the chain's lock, held to the
   * caller's commit; `commitWith` sends the entries' INSERT with the COMMIT where the back end can.
   */
  appendIn(sql: SqlClient, appends: readonly AuditAppend[], commitWith?: TxClient["commitWith"]): Promise<AuditEntry[]> {
    return writeEntries(sql, appends.map(normalizeAppend), commitWith);
  }

  /**
   * One transaction for the whole batch. Serialized across connections and processes by a
   * transaction-scoped advisory lock; READ COMMITTED so the read of the last entry, a statement
   * after the lock was granted, sees the entry the previous holder committed (a REPEATABLE READ
   * snapshot would be taken by the lock statement itself, before the wait, and go stale).
   * Returns the entries as stored, in the order of `batch`, once the transaction has committed.
   */
  private async writeBatch(batch: PendingAppend[]): Promise<unknown[]> {
    const inBatch = async (sql: SqlClient, prisma: Prisma.TransactionClient | null, commitWith?: TxClient["commitWith"]) => {
      // The works first (before the lock, so it is held only for the chain's own statements).
      const results: unknown[] = [];
      const entries: NormalizedAppend[] = [];
      /** Where each call's (first) entry is in `entries`: a work may give several. */
      const at: number[] = [];
      for (const p of batch) {
        at.push(entries.length);
        if (p.work) {
          const r = await p.work(prisma!);
          results.push(r);
          const made = p.entryOf!(r);
          for (const a of isEntryList(made) ? made : [made]) entries.push(normalizeAppend(a));
        } else {
          results.push(undefined);
          entries.push(p.e!);
        }
      }
      const written = await writeEntries(sql, entries, commitWith);
      return batch.map((p, i) => (p.work ? results[i] : written[at[i]!]));
    };
    // Plain SQL sets READ COMMITTED itself (lib/db/sql.ts); Prisma's transaction is asked for it.
    if (this.sql && !batch.some((p) => p.work)) return this.sql.transaction((tx) => inBatch(tx, null, tx.commitWith));
    const options = await this.txOptions();
    return this.prisma.$transaction((tx) => inBatch(prismaSql(tx), tx), options);
  }

  private txOptionsOnce: Promise<typeof AUDIT_TX_OPTIONS | typeof AUDIT_TX_OPTIONS_DEFAULT_LEVEL> | null = null;

  /**
   * READ COMMITTED is required (see writeBatch). It is PostgreSQL's default: when the database
   * keeps that default, saying so again on every batch is one round trip per run for nothing.
   */
  private txOptions() {
    return (this.txOptionsOnce ??= this.prisma.$queryRaw<{ level: string }[]>`SELECT current_setting('default_transaction_isolation') AS level`.then(
      (rows) => (rows[0]?.level === "read committed" ? AUDIT_TX_OPTIONS_DEFAULT_LEVEL : AUDIT_TX_OPTIONS),
      () => {
        this.txOptionsOnce = null; // ask again next time (the database may be away)
        return AUDIT_TX_OPTIONS;
      },
    ));
  }

  /**
   * Walks the chain from `from` (default the first entry) to the end in keyset pages of `batch`
   * entries, recomputing every hash; stops at the first entry that does not fit.
   */
  async verify(opts: AuditVerifyOptions = {}): Promise<AuditVerifyReport> {
    const batch = Math.min(Math.max(Math.trunc(opts.batch ?? 1000), 1), 10_000);
    const start = Math.max(Math.trunc(opts.from ?? 1), 1);
    let expectedSeq = BigInt(start);
    let prevHash = GENESIS_HASH;
    let entries = 0;
    let head: AuditVerifyReport["head"] = null;
    const checkpoint = opts.checkpoint;
    const bad = (seq: bigint | number, reason: string): AuditVerifyReport => ({ ok: false, entries, head, firstBad: { seq: Number(seq), reason } });

    if (start > 1) {
      const anchor = await this.prisma.auditEntry.findUnique({ where: { seq: BigInt(start - 1) }, select: { seq: true, hash: true } });
      if (opts.fromHash !== undefined) {
        if (anchor && anchor.hash !== opts.fromHash) return bad(start - 1, "hash differs from the one given as the starting point (the chain was rewritten)");
        prevHash = opts.fromHash;
      } else {
        if (!anchor) return bad(start - 1, `entry #${start - 1}, the starting point, is missing`);
        prevHash = anchor.hash;
      }
      if (anchor) head = { seq: Number(anchor.seq), hash: anchor.hash };
    }

    let after = expectedSeq - 1n;
    for (;;) {
      const rows = await this.prisma.auditEntry.findMany({ where: { seq: { gt: after } }, orderBy: { seq: "asc" }, take: batch });
      for (const r of rows) {
        if (r.seq !== expectedSeq) {
          const missing = r.seq - 1n === expectedSeq ? `entry #${expectedSeq} is` : `entries #${expectedSeq}-#${r.seq - 1n} are`;
          return bad(r.seq, `${missing} missing (removed from the chain)`);
        }
        if (r.prevHash !== prevHash) {
          return bad(r.seq, `prevHash does not match the hash of entry #${r.seq - 1n} (an entry before it was removed, replaced or re-hashed)`);
        }
        const computed = entryHash({
          seq: r.seq,
          at: r.at,
          actor: r.actor,
          action: r.action,
          target: r.target,
          detail: r.detail,
          fromAddr: r.fromAddr,
          prevHash: r.prevHash,
        });
        if (computed !== r.hash) return bad(r.seq, "hash mismatch: the entry was changed after it was written");
        if (checkpoint && Number(r.seq) === checkpoint.seq && r.hash !== checkpoint.hash) {
          return bad(r.seq, "hash differs from the saved checkpoint (the chain was rewritten from here or earlier)");
        }
        prevHash = r.hash;
        expectedSeq++;
        entries++;
        head = { seq: Number(r.seq), hash: r.hash };
      }
      opts.onProgress?.(entries);
      if (rows.length < batch) break;
      after = rows[rows.length - 1]!.seq;
    }
    if (checkpoint && checkpoint.seq >= start && checkpoint.seq >= Number(expectedSeq)) {
      return bad(checkpoint.seq, "the saved checkpoint entry is missing (the chain was cut short)");
    }
    return { ok: true, entries, head };
  }

  /** Newest first (time, then seq), keyset-paged. */
  async list(f: AuditFilter = {}): Promise<{ entries: AuditEntry[]; nextCursor: string | null }> {
    const limit = Math.min(Math.max(Math.trunc(f.limit ?? 50), 1), 200);
    const and: Prisma.AuditEntryWhereInput[] = [];
    if (f.action) and.push({ action: f.action });
    if (f.actor) and.push({ actor: f.actor });
    if (f.target) and.push({ target: f.target });
    if (f.since) and.push({ at: { gte: f.since } });
    if (f.until) and.push({ at: { lt: f.until } });
    if (f.cursor) {
      const c = decodeAuditCursor(f.cursor);
      and.push({ OR: [{ at: { lt: c.at } }, { at: c.at, seq: { lt: c.seq } }] });
    }
    const rows = await this.prisma.auditEntry.findMany({
      where: and.length ? { AND: and } : {},
      orderBy: [{ at: "desc" }, { seq: "desc" }],
      take: limit + 1,
    });
    const page = rows.slice(0, limit);
    const nextCursor = rows.length > limit ? encodeAuditCursor(page[page.length - 1]!) : null;
    return { entries: page.map(toEntry), nextCursor };
  }

  /** The last entry's seq and hash (null for an empty log). */
  async head(db: Client = this.prisma): Promise<{ seq: number; hash: string } | null> {
    const r = await db.auditEntry.findFirst({ orderBy: { seq: "desc" }, select: { seq: true, hash: true } });
    return r ? { seq: Number(r.seq), hash: r.hash } : null;
  }
}

export function toEntry(r: Row): AuditEntry {
  return {
    seq: Number(r.seq),
    at: r.at.toISOString(),
    actor: r.actor,
    action: r.action,
    target: r.target,
    detail: r.detail ?? null,
    from: r.fromAddr,
    prevHash: r.prevHash,
    hash: r.hash,
  };
}

// ---- input normalization: what is hashed must be exactly what PostgreSQL stores and returns ----

// A lone UTF-16 surrogate cannot be stored as UTF-8 (the driver would write U+FFFD, JSONB
// refuses it), nor can NUL: both become U+FFFD before hashing.
// eslint-disable-next-line no-control-regex -- NUL is matched on purpose: PostgreSQL cannot store it
const UNSTORABLE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]|\u0000/g;

function cleanText(s: string): string {
  return s.replace(UNSTORABLE, "\uFFFD");
}

function cleanJson(v: unknown): unknown {
  if (typeof v === "string") return cleanText(v);
  if (Array.isArray(v)) return v.map(cleanJson);
  if (v && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [cleanText(k), cleanJson(x)]));
  return v;
}

function text(v: unknown, what: keyof typeof MAX_TEXT, required: true): string;
function text(v: unknown, what: keyof typeof MAX_TEXT, required: false): string | null;
function text(v: unknown, what: keyof typeof MAX_TEXT, required: boolean): string | null {
  if (v === undefined || v === null) {
    if (required) throw new AuditInputError(`audit entry: ${what} is required`);
    return null;
  }
  if (typeof v !== "string") throw new AuditInputError(`audit entry: ${what} must be a string`);
  if (required && !v) throw new AuditInputError(`audit entry: ${what} must not be empty`);
  if (v.length > MAX_TEXT[what]) {
    // `from` comes from request headers: shortened, never a reason to lose the entry.
    if (what === "from") return cleanText(v.slice(0, MAX_TEXT.from - 1) + "…");
    throw new AuditInputError(`audit entry: ${what} is longer than ${MAX_TEXT[what]} characters`);
  }
  return cleanText(v);
}

/** An append as it is hashed and stored. */
interface NormalizedAppend {
  actor: string;
  action: string;
  target: string | null;
  detail: unknown;
  from: string | null;
}

/** A plain entry; or `work`, whose result yields the entry (see appendWith). */
interface PendingAppend {
  e?: NormalizedAppend;
  work?: (tx: Prisma.TransactionClient) => Promise<unknown>;
  entryOf?: (result: unknown) => AuditAppend | readonly AuditAppend[];
}

const isEntryList = (e: AuditAppend | readonly AuditAppend[]): e is readonly AuditAppend[] => Array.isArray(e);

function normalizeAppend(input: AuditAppend): NormalizedAppend {
  const action = input.action;
  if (typeof action !== "string" || action.length > 64 || !ACTION_RE.test(action)) {
    throw new AuditInputError(`audit entry: action must be a dotted lower-case name (e.g. "config.change"), got ${JSON.stringify(action)}`);
  }
  let detail: unknown = null;
  if (input.detail !== undefined && input.detail !== null) {
    let json: string | undefined;
    try {
      json = JSON.stringify(input.detail);
    } catch (err) {
      throw new AuditInputError(`audit entry: detail is not JSON: ${(err as Error).message}`);
    }
    if (json !== undefined) detail = cleanJson(JSON.parse(json));
    if (detail !== null && canonicalJson(detail).length > MAX_DETAIL_CHARS) {
      throw new AuditInputError(`audit entry: detail is larger than ${MAX_DETAIL_CHARS} characters of JSON`);
    }
  }
  return { actor: text(input.actor, "actor", true), action, target: text(input.target, "target", false), detail, from: text(input.from, "from", false) };
}

function bigintToNumber(n: bigint): number {
  if (n > BigInt(Number.MAX_SAFE_INTEGER)) throw new RangeError(`audit seq ${n} is beyond 2^53`);
  return Number(n);
}

export const AUDIT_TX_OPTIONS = { isolationLevel: Prisma.TransactionIsolationLevel.ReadCommitted, maxWait: 20_000, timeout: 20_000 } as const;
/** The same when the database's default level already is READ COMMITTED. */
const AUDIT_TX_OPTIONS_DEFAULT_LEVEL = { maxWait: 20_000, timeout: 20_000 } as const;

/**
 * Writes entries at the end of the chain inside `tx`: the append lock (held to commit) and the
 * chain head in one call, one INSERT. Returns the entries as stored, in the order given.
 */
async function writeEntries(
  sql: SqlClient,
  batch: NormalizedAppend[],
  commitWith: TxClient["commitWith"] = (text, params) => sql.exec(text, params),
): Promise<AuditEntry[]> {
  // A change that turned out to change nothing has nothing to say (its transaction commits without the chain's lock).
  if (!batch.length) return [];
  // The lock, then the head read after it (one round trip: migration *_audit_lock_head). The
  // database's clock, so entries from several processes share one; never before the previous
  // entry's time, so newest-first by time is also chain order.
  const [last] = await sql.query<{ now: Date | string; seq: bigint | string | number | null; hash: string | null; at: Date | string | null }>(
    `SELECT now, seq, hash, at FROM audit_log_lock_head($1::bigint)`,
    [AUDIT_LOCK_KEY.toString()],
  );
  const now = new Date(last!.now);
  const at = last?.at && new Date(last.at) > now ? new Date(last.at) : now;
  let seq = last?.seq != null ? BigInt(last.seq) : 0n;
  let prevHash = last?.hash ?? GENESIS_HASH;
  const entries: AuditEntry[] = [];
  const params: unknown[] = [];
  const rows: string[] = [];
  for (const e of batch) {
    seq++;
    const hash = entryHash({ seq, at, actor: e.actor, action: e.action, target: e.target, detail: e.detail, fromAddr: e.from, prevHash });
    const n = params.length;
    rows.push(`($${n + 1}::bigint, $${n + 2}::timestamptz, $${n + 3}, $${n + 4}, $${n + 5}, $${n + 6}::jsonb, $${n + 7}, $${n + 8}, $${n + 9})`);
    params.push(seq.toString(), at.toISOString(), e.actor, e.action, e.target, e.detail === null ? null : JSON.stringify(e.detail), e.from, prevHash, hash);
    entries.push({
      seq: bigintToNumber(seq),
      at: at.toISOString(),
      actor: e.actor,
      action: e.action,
      target: e.target,
      detail: e.detail,
      from: e.from,
      prevHash,
      hash,
    });
    prevHash = hash;
  }
  // One multi-row INSERT; the entries are returned as written (the hash covers exactly these values).
  const n = await commitWith(`INSERT INTO audit_log (seq, at, actor, action, target, detail, from_addr, prev_hash, hash) VALUES ${rows.join(", ")}`, params);
  if (n !== entries.length) throw new Error(`audit: ${n} of ${entries.length} entries were written`);
  return entries;
}
