import { StudioError } from "../errors/errors";
import { randomBytes, randomUUID } from "node:crypto";
import type { Prisma, PrismaClient } from "../db/generated/client";
import { auditedWrite, type AuditAppend, type AuditLog } from "../audit/log";
import type { CredentialProblem, Principal } from "./principal";
import { asRole, lowerRole, roleAtLeast, type Role } from "./roles";
import { sha256Hex } from "./secret-compare";

/**
 * Personal API tokens. A token is 32 random bytes (`tst_` + base64url), shown once; only its
 * SHA-256 is stored, so a database dump yields no usable token. Its role is fixed at creation
 * (no higher than the owner's) and capped again by the owner's current role at every use.
 */
export const TOKEN_PREFIX = "tst_";
const NAME_MAX = 100;
/** Writing last-used on every request would turn every read into a write: once a minute is enough. */
const LAST_USED_GRANULARITY_MS = 60_000;

export interface TokenInfo {
  id: string;
  userId: string;
  userEmail?: string;
  name: string;
  role: Role;
  /** The token's first characters, to tell tokens apart. */
  prefix: string;
  createdAt: string;
  expiresAt: string | null;
  lastUsedAt: string | null;
  revokedAt: string | null;
  state: "active" | "expired" | "revoked";
}

export class TokenInputError extends StudioError {
  static override readonly tag: string = "TokenInputError";
  constructor(
    readonly field: string,
    readonly reason: string,
  ) {
    super("bad_request", `Invalid request body: ${field} ${reason}`, { details: [{ path: field, message: reason }] });
  }
}

type Row = {
  id: string;
  userId: string;
  name: string;
  role: string;
  prefix: string;
  createdAt: Date;
  expiresAt: Date | null;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
  user?: { email: string };
};

function toInfo(r: Row, now = new Date()): TokenInfo {
  return {
    id: r.id,
    userId: r.userId,
    ...(r.user ? { userEmail: r.user.email } : {}),
    name: r.name,
    role: asRole(r.role),
    prefix: r.prefix,
    createdAt: r.createdAt.toISOString(),
    expiresAt: r.expiresAt?.toISOString() ?? null,
    lastUsedAt: r.lastUsedAt?.toISOString() ?? null,
    revokedAt: r.revokedAt?.toISOString() ?? null,
    state: r.revokedAt ? "revoked" : r.expiresAt && r.expiresAt <= now ? "expired" : "active",
  };
}

/**
 * How long a verified token's row is reused without reading it again. A revoke, a role change
 * or a removed user clears every cache at once (this process, and the others through
 * `onChange`); the time bounds what a change made behind the studio's back (plain SQL) takes.
 */
export const TOKEN_CACHE_MS = 30_000;
const TOKEN_CACHE_MAX = 10_000;

export class TokenStore {
  /** Rows of verified tokens by hash: a token is checked on every API call (issue 12's profile: one query per run). */
  private readonly cache = new Map<string, { row: VerifyRow; until: number }>();
  /** Told after a change that must end cached verifications everywhere (another instance's caches: NOTIFY). */
  onChange: (() => Promise<void>) | null = null;

  constructor(private readonly prisma: PrismaClient) {}

  /** Drops every cached verification in this process (a token, a user or a role changed). */
  forgetLocal(): void {
    this.cache.clear();
  }

  /** Drops cached verifications here and, through `onChange`, in every other instance. */
  async forget(): Promise<void> {
    this.cache.clear();
    await this.onChange?.();
  }

  /** Creates a token for a user; the returned `token` is the only time it is ever seen. */
  async create(
    owner: { id: string; role: Role },
    input: { name: string; role?: Role; expiresAt?: Date | null },
    now = new Date(),
    audited?: Audited,
  ): Promise<{ token: string; info: TokenInfo }> {
    const name = input.name.trim();
    if (!name || name.length > NAME_MAX) throw new TokenInputError("/name", `must be 1 to ${NAME_MAX} characters`);
    const role = input.role ?? owner.role;
    if (!roleAtLeast(owner.role, role)) throw new TokenInputError("/role", `must be no higher than your own role (${owner.role})`);
    if (input.expiresAt && input.expiresAt.getTime() <= now.getTime()) throw new TokenInputError("/expiresAt", "must be in the future");
    const token = TOKEN_PREFIX + randomBytes(32).toString("base64url");
    const write = (db: Db) =>
      db.apiToken.create({
        data: {
          id: randomUUID(),
          userId: owner.id,
          name,
          role,
          hash: sha256Hex(token),
          prefix: token.slice(0, TOKEN_PREFIX.length + 6),
          expiresAt: input.expiresAt ?? null,
        },
      });
    const row = await inTransaction(this.prisma, write, audited, (r) => toInfo(r, now));
    return { token, info: toInfo(row, now) };
  }

  /** One user's tokens, or everyone's (admins), newest first. */
  async list(userId?: string): Promise<TokenInfo[]> {
    const rows = await this.prisma.apiToken.findMany({
      where: userId ? { userId } : {},
      include: { user: { select: { email: true } } },
      orderBy: { createdAt: "desc" },
      take: 1000,
    });
    return rows.map((r) => toInfo(r));
  }

  async get(id: string): Promise<TokenInfo | null> {
    if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)) return null;
    const row = await this.prisma.apiToken.findUnique({ where: { id }, include: { user: { select: { email: true } } } });
    return row ? toInfo(row) : null;
  }

  /** Revokes a token (idempotent); null when there is no such token. */
  async revoke(id: string, now = new Date(), audited?: Audited): Promise<TokenInfo | null> {
    const existing = await this.get(id);
    if (!existing) return null;
    if (existing.revokedAt) return existing;
    const write = (db: Db) => db.apiToken.update({ where: { id }, data: { revokedAt: now }, include: { user: { select: { email: true } } } });
    const row = await inTransaction(this.prisma, write, audited, (r) => toInfo(r, now));
    await this.forget();
    return toInfo(row, now);
  }

  /** A token's row with its user's, from the cache while fresh (revoked and expired ones are refused by the caller either way). */
  private async lookup(hash: string, now: Date): Promise<VerifyRow | undefined> {
    const cached = this.cache.get(hash);
    if (cached && cached.until > now.getTime()) return cached.row;
    // One round trip (Prisma's include would read the user in a second query).
    const [found] = await this.prisma.$queryRaw<VerifyRow[]>`
      SELECT t.id, t.name, t.role, t.expires_at AS "expiresAt", t.last_used_at AS "lastUsedAt", t.revoked_at AS "revokedAt",
             u.id AS "userId", u.email AS "userEmail", u.name AS "userName", u.role AS "userRole"
      FROM api_tokens t JOIN auth_users u ON u.id = t.user_id
      WHERE t.hash = ${hash}`;
    if (!found) {
      this.cache.delete(hash);
      return undefined;
    }
    if (this.cache.size >= TOKEN_CACHE_MAX) this.cache.clear();
    this.cache.set(hash, { row: found, until: now.getTime() + TOKEN_CACHE_MS });
    return found;
  }

  /** The principal a presented token stands for, or why it is refused. */
  async verify(token: string, now = new Date()): Promise<{ principal: Principal } | { problem: CredentialProblem; message: string }> {
    if (!token.startsWith(TOKEN_PREFIX)) return { problem: "invalid", message: "The bearer token is not valid." };
    const hash = sha256Hex(token);
    const found = await this.lookup(hash, now);
    if (!found) return { problem: "invalid", message: "The bearer token is not valid." };
    const row = {
      ...found,
      expiresAt: found.expiresAt && new Date(found.expiresAt),
      lastUsedAt: found.lastUsedAt && new Date(found.lastUsedAt),
      revokedAt: found.revokedAt && new Date(found.revokedAt),
      user: { id: found.userId, email: found.userEmail, name: found.userName, role: found.userRole },
    };
    if (row.revokedAt) return { problem: "revoked", message: `The API token "${row.name}" was revoked.` };
    if (row.expiresAt && row.expiresAt <= now) return { problem: "expired", message: `The API token "${row.name}" expired at ${row.expiresAt.toISOString()}.` };
    if (!row.lastUsedAt || now.getTime() - row.lastUsedAt.getTime() >= LAST_USED_GRANULARITY_MS) {
      found.lastUsedAt = now; // the cached row too: stamped once a minute, not on every call
      // Best effort by design: a missed last-use stamp must not refuse a valid token.
      await this.prisma.apiToken.update({ where: { id: row.id }, data: { lastUsedAt: now } }).catch(() => {});
    }
    return {
      principal: {
        via: "token",
        role: lowerRole(asRole(row.role), asRole(row.user.role)),
        userId: row.user.id,
        actor: row.user.email,
        name: row.user.name,
        tokenId: row.id,
        tokenName: row.name,
      },
    };
  }
}

interface VerifyRow {
  id: string;
  name: string;
  role: string;
  expiresAt: Date | string | null;
  lastUsedAt: Date | string | null;
  revokedAt: Date | string | null;
  userId: string;
  userEmail: string;
  userName: string;
  userRole: string;
}

/** The audit entry of a token change, written in the change's own transaction (both commit, or neither). */
export interface Audited {
  log: AuditLog;
  entry(info: TokenInfo): AuditAppend;
}

type Db = PrismaClient | Prisma.TransactionClient;

function inTransaction<R>(prisma: PrismaClient, write: (db: Db) => Promise<R>, audited: Audited | undefined, info: (row: R) => TokenInfo): Promise<R> {
  return auditedWrite(prisma, write, audited && { log: audited.log, entries: (row) => audited.entry(info(row)) });
}
