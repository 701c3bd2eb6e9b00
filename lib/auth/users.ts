import { StudioError } from "../errors/errors";
import { randomBytes, randomUUID } from "node:crypto";
import type { PrismaClient } from "../db/generated/client";
import { auditedWrite, type AuditedChange } from "../audit/log";
import type { StudioAuth } from "./better-auth";
import { asRole, type Role } from "./roles";

/**
 * People, as an admin manages them. Passwords are hashed by better-auth (its context's hasher)
 * and stored in its tables as it stores them, so sign-in finds them as if they had signed up.
 * Every change is written with its audit entries in one transaction (`audited`). The last admin
 * can be neither demoted nor removed.
 */
export interface UserInfo {
  id: string;
  email: string;
  name: string;
  role: Role;
  createdAt: string;
  /** How this person signs in: "password", "oidc". */
  methods: string[];
  activeSessions: number;
  activeTokens: number;
}

/** A refusal of a user edit: which field (a JSON pointer, "" for none) and what was expected. */
export class UserInputError extends StudioError {
  static override readonly tag: string = "UserInputError";
  constructor(
    kind: "bad_request" | "not_found" | "conflict",
    readonly field: string,
    readonly reason: string,
  ) {
    super(kind, field ? `${field} ${reason}` : reason, field ? { details: [{ path: field, message: reason }] } : {});
  }
}

const EMAIL_RE = /^[^\s@]+@[^\s@]+$/;

/** What an edit changed: the person as they are now and were before, and the fields changed ("role", "name", "email", "password"). */
export interface UserChange {
  user: UserInfo;
  before: UserInfo;
  changes: string[];
}

export class UserAdmin {
  constructor(
    readonly prisma: PrismaClient,
    private readonly auth: () => StudioAuth,
    /** A role changed or a user was removed: their tokens' cached verifications must end (TokenStore.forget). */
    private readonly onAccessChange: () => Promise<void>,
  ) {}

  async count(): Promise<number> {
    return this.prisma.user.count();
  }

  async list(): Promise<UserInfo[]> {
    const rows = await this.prisma.user.findMany({ orderBy: { createdAt: "asc" }, take: 1000, include: withCounts(new Date()) });
    return rows.map(toUserInfo);
  }

  /** One person by id (one query, not the whole list). */
  async get(id: string): Promise<UserInfo | null> {
    const row = await this.prisma.user.findUnique({ where: { id }, include: withCounts(new Date()) });
    return row ? toUserInfo(row) : null;
  }

  async create(input: { email: string; name?: string; password: string; role: Role }, audited?: AuditedChange<UserInfo>): Promise<UserInfo> {
    const email = normalizeEmail(input.email);
    checkPassword(input.password);
    if (await this.prisma.user.findUnique({ where: { email } }))
      throw new UserInputError("conflict", "/email", `A user with the email ${email} already exists.`);
    const hash = await (await this.auth().$context).password.hash(input.password);
    const id = randomUUID();
    const name = input.name?.trim() || email.split("@")[0]!;
    const now = new Date();
    await auditedWrite(
      this.prisma,
      async (db) => {
        await db.user.create({ data: { id, email, name, emailVerified: true, role: input.role } });
        await db.account.create({ data: { id: randomUUID(), userId: id, providerId: "credential", accountId: id, password: hash } });
        return { id, email, name, role: input.role, createdAt: now.toISOString(), methods: ["password"], activeSessions: 0, activeTokens: 0 };
      },
      audited,
    );
    return (await this.get(id))!;
  }

  /** Changes role, name, email or password; `changes` says what changed, for the audit log. */
  async update(id: string, patch: { role?: Role; name?: string; email?: string; password?: string }, audited?: AuditedChange<UserChange>): Promise<UserChange> {
    const before = await this.get(id);
    if (!before) throw new UserInputError("not_found", "", `No user with id ${id}.`);
    const changes: string[] = [];
    const data: { role?: Role; name?: string; email?: string } = {};
    if (patch.role && patch.role !== before.role) {
      if (before.role === "admin") await this.keepAnAdmin(id, "demote");
      data.role = patch.role;
      changes.push("role");
    }
    if (patch.name !== undefined && patch.name.trim() !== before.name) {
      if (!patch.name.trim()) throw new UserInputError("bad_request", "/name", "must not be empty");
      data.name = patch.name.trim();
      changes.push("name");
    }
    if (patch.email !== undefined) {
      const email = normalizeEmail(patch.email);
      if (email !== before.email) {
        const other = await this.prisma.user.findUnique({ where: { email } });
        if (other && other.id !== id) throw new UserInputError("conflict", "/email", `A user with the email ${email} already exists.`);
        data.email = email;
        changes.push("email");
      }
    }
    let hash: string | null = null;
    if (patch.password !== undefined) {
      checkPassword(patch.password);
      hash = await (await this.auth().$context).password.hash(patch.password);
      changes.push("password");
    }
    if (!changes.length) return { user: before, before, changes };
    const after = { ...before, ...data };
    await auditedWrite(
      this.prisma,
      async (db) => {
        if (Object.keys(data).length) await db.user.update({ where: { id }, data });
        if (hash !== null) {
          const updated = await db.account.updateMany({ where: { userId: id, providerId: "credential" }, data: { password: hash } });
          if (!updated.count) await db.account.create({ data: { id: randomUUID(), userId: id, providerId: "credential", accountId: id, password: hash } });
        }
        return { user: after, before, changes };
      },
      audited,
    );
    if (Object.keys(data).length) await this.onAccessChange();
    return { user: (await this.get(id))!, before, changes };
  }

  async remove(id: string, audited?: AuditedChange<UserInfo>): Promise<UserInfo> {
    const before = await this.get(id);
    if (!before) throw new UserInputError("not_found", "", `No user with id ${id}.`);
    if (before.role === "admin") await this.keepAnAdmin(id, "remove");
    await auditedWrite(
      this.prisma,
      async (db) => {
        await db.user.delete({ where: { id } });
        return before;
      },
      audited,
    );
    await this.onAccessChange();
    return before;
  }

  /** Signs a person out of every browser (their API tokens are separate and stay); returns how many sessions ended. */
  async revokeSessions(id: string, audited?: AuditedChange<number>): Promise<number> {
    return auditedWrite(this.prisma, async (db) => (await db.session.deleteMany({ where: { userId: id } })).count, audited);
  }

  private async keepAnAdmin(id: string, what: "demote" | "remove"): Promise<void> {
    const others = await this.prisma.user.count({ where: { role: "admin", id: { not: id } } });
    if (!others) throw new UserInputError("conflict", "/role", `Cannot ${what} the last admin: make someone else admin first.`);
  }

  /** For the first-admin link: a user with a password nobody knows yet (they set theirs after). */
  async createWithRandomPassword(
    input: { email: string; name: string; role: Role },
    audited?: AuditedChange<UserInfo>,
  ): Promise<{ user: UserInfo; password: string }> {
    const password = randomBytes(24).toString("base64url");
    return { user: await this.create({ ...input, password }, audited), password };
  }
}

/** What a UserInfo needs besides the user row: sign-in methods, live sessions and tokens. */
const withCounts = (now: Date) => ({
  accounts: { select: { providerId: true } },
  _count: {
    select: {
      sessions: { where: { expiresAt: { gt: now } } },
      apiTokens: { where: { revokedAt: null, OR: [{ expiresAt: null }, { expiresAt: { gt: now } }] } },
    },
  },
});

function toUserInfo(u: {
  id: string;
  email: string;
  name: string;
  role: string;
  createdAt: Date;
  accounts: { providerId: string }[];
  _count: { sessions: number; apiTokens: number };
}): UserInfo {
  return {
    id: u.id,
    email: u.email,
    name: u.name,
    role: asRole(u.role),
    createdAt: u.createdAt.toISOString(),
    methods: [...new Set(u.accounts.map((a) => (a.providerId === "credential" ? "password" : a.providerId)))],
    activeSessions: u._count.sessions,
    activeTokens: u._count.apiTokens,
  };
}

function normalizeEmail(raw: string): string {
  const email = raw.trim().toLowerCase();
  if (!EMAIL_RE.test(email) || email.length > 200) throw new UserInputError("bad_request", "/email", "must be an email address such as ana@example.com");
  return email;
}

function checkPassword(pw: string): void {
  if (pw.length < 8 || pw.length > 256) throw new UserInputError("bad_request", "/password", "must be 8 to 256 characters");
}
