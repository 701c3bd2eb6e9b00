import { tryGetCurrentAuthEndpointContext } from "@better-auth/core/context";
import type { AuditAppend, AuditLog } from "../audit/log";
import { Prisma, type PrismaClient } from "../db/generated/client";
import { prismaSql } from "../db/sql";
import type { AuthEvent } from "./better-auth";

/**
 * better-auth's writes that are audited changes (a session made by a sign-in, ended by a sign-out,
 * a password changed) commit with their audit entry: the Prisma client better-auth is given is this
 * one, whose session and account writes, when the endpoint better-auth is serving is one of those,
 * run in a transaction (better-auth's own when it holds one) that appends the entry last. An entry
 * the log refuses fails the write with it: no session without its "auth.sign-in".
 *
 * What happens is read from better-auth's own request context (the endpoint's path and headers),
 * so a sign-in through `auth.api` is audited like one through the route.
 */
export interface AuthAudit {
  chain: Pick<AuditLog, "appendIn">;
  entryOf: (e: AuthEvent) => AuditAppend;
}

type Db = PrismaClient | Prisma.TransactionClient;
type Tx = Prisma.TransactionClient;
type Who = { ip: string | null; userAgent: string | null };
type Endpoint = { path: string; who: Who };
/** The sessions a delete takes, with their owners (for the entry). */
type Owner = { userId: string; user: { email: string } };

const SIGN_IN = /^\/(sign-in\/email|callback\/[^/]+|oauth2\/callback\/[^/]+)$/;
const READ_COMMITTED = { isolationLevel: Prisma.TransactionIsolationLevel.ReadCommitted };

export function auditedAuthClient(prisma: PrismaClient, audit: AuthAudit, whoOf: (headers: Headers | undefined) => Who): PrismaClient {
  const endpoint = (): Endpoint | null => {
    const ctx = tryGetCurrentAuthEndpointContext() as { path?: string; headers?: Headers } | undefined;
    return ctx?.path ? { path: ctx.path, who: whoOf(ctx.headers) } : null;
  };
  /** `work` in the transaction better-auth holds, or in one of its own. */
  const within = <T>(tx: Tx | null, work: (tx: Tx) => Promise<T>): Promise<T> => (tx ? work(tx) : prisma.$transaction(work, READ_COMMITTED));
  const append = (tx: Tx, e: AuthEvent) => audit.chain.appendIn(prismaSql(tx), [audit.entryOf(e)]);
  const emailOf = async (tx: Tx, userId: string) => (await tx.user.findUnique({ where: { id: userId }, select: { email: true } }))?.email ?? userId;

  const session = (db: Db, tx: Tx | null) => {
    const real = db.session;
    const ending = (op: "delete" | "deleteMany") => async (args: { where: Prisma.SessionWhereInput }) => {
      const at = endpoint();
      if (!at || (at.path !== "/sign-out" && at.path !== "/revoke-sessions")) return (real[op] as (a: unknown) => Promise<unknown>)(args);
      return within(tx, async (t) => {
        const owners: Owner[] = await t.session.findMany({ where: args.where, select: { userId: true, user: { select: { email: true } } } });
        const out = await (t.session[op] as (a: unknown) => Promise<unknown>)(args);
        const first = owners[0];
        if (first) await append(t, { type: "sign-out", userId: first.userId, email: first.user.email, everywhere: at.path === "/revoke-sessions", ...at.who });
        return out;
      });
    };
    return new Proxy(real, {
      get(target, prop) {
        if (prop === "create")
          return async (args: Prisma.SessionCreateArgs) => {
            const at = endpoint();
            if (!at || !SIGN_IN.test(at.path)) return target.create(args);
            return within(tx, async (t) => {
              const created = await t.session.create(args);
              const method = at.path === "/sign-in/email" ? "password" : "sso";
              await append(t, { type: "sign-in", userId: created.userId, email: await emailOf(t, created.userId), method, ...at.who });
              return created;
            });
          };
        if (prop === "delete" || prop === "deleteMany") return ending(prop);
        return bound(target, prop);
      },
    });
  };

  const account = (db: Db, tx: Tx | null) =>
    new Proxy(db.account, {
      get(target, prop) {
        if (prop !== "update" && prop !== "updateMany") return bound(target, prop);
        return async (args: { where: Prisma.AccountWhereInput; data: { password?: unknown } }) => {
          const at = endpoint();
          const write = (d: Db) => (d.account[prop] as (a: unknown) => Promise<unknown>)(args);
          if (at?.path !== "/change-password" || args.data?.password === undefined) return write(db);
          return within(tx, async (t) => {
            const out = await write(t);
            const owner = await t.account.findFirst({ where: args.where, select: { userId: true } });
            if (owner) await append(t, { type: "password-change", userId: owner.userId, email: await emailOf(t, owner.userId), ...at.who });
            return out;
          });
        };
      },
    });

  const wrap = <D extends Db>(db: D, tx: Tx | null): D =>
    new Proxy(db, {
      get(target, prop) {
        if (prop === "session") return session(target, tx);
        if (prop === "account") return account(target, tx);
        // better-auth's transactions (transaction: true): the writes inside them are wrapped too.
        if (prop === "$transaction" && !tx)
          return (fn: unknown, options?: unknown) =>
            typeof fn === "function"
              ? (target as PrismaClient).$transaction((t) => (fn as (t: Tx) => Promise<unknown>)(wrap(t, t)), options as never)
              : (target as PrismaClient).$transaction(fn as never, options as never);
        return bound(target, prop);
      },
    });
  return wrap(prisma, null);
}

/** A member of the real client, its methods bound to it (Prisma's own `this`). */
function bound(target: object, prop: string | symbol): unknown {
  const v = Reflect.get(target, prop, target);
  return typeof v === "function" ? v.bind(target) : v;
}

/** Sign-in, failed sign-in, sign-out and password changes as audit entries (never a password, never a token). */
export function authAuditEntry(e: AuthEvent): AuditAppend {
  const from = [e.ip ? `addr ${e.ip}` : "local", e.userAgent ? `ua ${e.userAgent.slice(0, 120)}` : null].filter(Boolean).join("; ");
  if (e.type === "sign-in") return { actor: e.email, action: "auth.sign-in", target: e.email, detail: { userId: e.userId, method: e.method }, from };
  if (e.type === "sign-in.failed")
    return { actor: e.email ?? "anonymous", action: "auth.sign-in-failed", target: e.email, detail: { reason: e.reason.slice(0, 300) }, from };
  if (e.type === "password-change") return { actor: e.email, action: "user.password-change", target: e.email, detail: { userId: e.userId }, from };
  return { actor: e.email, action: e.everywhere ? "auth.sign-out-everywhere" : "auth.sign-out", target: e.email, detail: { userId: e.userId }, from };
}
