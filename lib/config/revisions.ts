// The runtime config as revisions in the database: the one copy every instance agrees on. A
// change is a new row, appended in the same transaction as its "config.change" audit entry. An
// advisory lock held to commit serializes writers across connections and processes, so reading
// the head and appending after it cannot interleave with another writer (taken before the audit
// log's own lock, always in that order). A NOTIFY sent in that transaction tells the other
// instances at commit.
import { StudioError } from "../errors/errors";
import type { Prisma, PrismaClient } from "../db/generated/client";
import type { AuditAppend, AuditLog } from "../audit/log";
import { versionOf } from "./store";

/** The channel that carries a new revision's id to every listening instance. */
export const CONFIG_CHANNEL = "studio_config";

/** pg_advisory_xact_lock key serializing revision appends ("configrv" as a big-endian int64). */
export const CONFIG_LOCK_KEY = 7165066918303855222n;

export interface ConfigRevision {
  id: number;
  /** sha256 hex of `text`: the version clients send back (expectedVersion, If-Match). */
  hash: string;
  text: string;
  author: string;
  source: "api" | "file";
  createdAt: Date;
}

/** Metadata of a revision, as the API shows it (the text stays on the server: it may hold secrets). */
export type RevisionInfo = Omit<ConfigRevision, "text">;

/** Refused: the config moved past the version the writer started from. */
export class ConfigConflictError extends StudioError {
  static override readonly tag: string = "ConfigConflictError";
  constructor(
    readonly expected: string,
    readonly head: ConfigRevision,
  ) {
    super("conflict", `the config is now revision ${head.id} (version ${head.hash.slice(0, 12)}), not version ${expected.slice(0, 12)}`);
  }
}

/** Not appended: the latest revision already has this text (another instance imported the same file). */
export class ConfigUnchangedError extends StudioError {
  static override readonly tag: string = "ConfigUnchangedError";
  constructor(readonly head: ConfigRevision) {
    super("conflict", `revision ${head.id} already has this text`);
  }
}

export interface AppendRevision {
  text: string;
  author: string;
  source: ConfigRevision["source"];
  /** Refuse (ConfigConflictError) unless the latest revision has this hash; a list accepts any of them. */
  expected?: string | readonly string[];
  /** Where the request came from, for the audit entry. */
  from?: string | null;
  /** What the audit entry names as changed (the file as people know it). */
  target: string;
  /** More audit entries that commit with this revision or not at all (e.g. its "server.add"). */
  also?: readonly AuditAppend[];
}

type Row = Prisma.ConfigRevisionGetPayload<object>;
const toRevision = (r: Row): ConfigRevision => ({ ...r, source: r.source === "file" ? "file" : "api" });

export class ConfigRevisions {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly audit: AuditLog,
    /** Whether to NOTIFY (PostgreSQL with listeners elsewhere); PGlite has no other process to tell. */
    private readonly notify = true,
  ) {}

  /** The latest revision, or null before the first one. */
  async head(client: PrismaClient | Prisma.TransactionClient = this.prisma): Promise<ConfigRevision | null> {
    const r = await client.configRevision.findFirst({ orderBy: { id: "desc" } });
    return r ? toRevision(r) : null;
  }

  /** The id of the latest revision (0 before the first): the cheap question the safety poll asks. */
  async headId(): Promise<number> {
    const r = await this.prisma.configRevision.findFirst({ orderBy: { id: "desc" }, select: { id: true } });
    return r?.id ?? 0;
  }

  /** Was this text ever a revision? (A file equal to an old revision is stale, not an edit.) */
  async hasHash(hash: string): Promise<boolean> {
    return (await this.prisma.configRevision.count({ where: { hash } })) > 0;
  }

  /**
   * Appends a revision and its audit entry (and `also`) in one transaction. Throws ConfigConflictError when
   * `expected` is given and the head has moved, ConfigUnchangedError when the head already has
   * this text (nothing is written then).
   */
  async append(a: AppendRevision): Promise<ConfigRevision> {
    const hash = versionOf(a.text);
    const expected = a.expected === undefined ? null : typeof a.expected === "string" ? [a.expected] : a.expected;
    return this.audit.appendWith(
      async (tx) => {
        await tx.$executeRawUnsafe(`SELECT pg_advisory_xact_lock(${CONFIG_LOCK_KEY})`);
        const head = await this.head(tx);
        if (head && head.hash === hash) throw new ConfigUnchangedError(head);
        if (expected && head && !expected.includes(head.hash)) throw new ConfigConflictError(expected[0] ?? "", head);
        const row = toRevision(await tx.configRevision.create({ data: { hash, text: a.text, author: a.author, source: a.source } }));
        if (this.notify) await tx.$executeRaw`SELECT pg_notify(${CONFIG_CHANNEL}, ${String(row.id)})`;
        return row;
      },
      (row): AuditAppend[] => [
        {
          actor: a.author,
          action: "config.change",
          target: a.target,
          detail: { source: a.source === "file" ? "disk" : "api", revision: row.id, version: row.hash, sha256: row.hash, error: null },
          from: a.from ?? null,
        },
        ...(a.also ?? []),
      ],
    );
  }
}
