// Server code: a client component that imports this (directly or not) fails the build.
import "server-only";
import { betterAuth } from "better-auth";
import { prismaAdapter } from "better-auth/adapters/prisma";
import { APIError, createAuthMiddleware, getSessionFromCtx } from "better-auth/api";
import { genericOAuth } from "better-auth/plugins";
import type { PrismaClient } from "../db/generated/client";
import { stringProblem } from "../http/input";
import type { Role } from "./roles";

/**
 * Accounts and sessions are better-auth's (password hashing with scrypt, sessions in the
 * database, HttpOnly SameSite=Lax cookies, Secure under https, rate limiting), on our Prisma
 * client so they live in the same PostgreSQL or PGlite as everything else. Sign-up is closed:
 * people are added by an admin, by the first-admin link, or by their first SSO sign-in.
 */

export interface OidcSettings {
  issuer: string;
  clientId: string;
  clientSecret: string;
  name?: string;
  scopes?: string[];
  defaultRole: Role;
}

/** What the audit log hears from sign-in and sign-out. */
export type AuthEvent =
  | { type: "sign-in"; userId: string; email: string; method: "password" | "sso"; ip: string | null; userAgent: string | null }
  | { type: "sign-in.failed"; email: string | null; reason: string; ip: string | null; userAgent: string | null }
  | { type: "sign-out"; userId: string; email: string; everywhere: boolean; ip: string | null; userAgent: string | null }
  | { type: "password-change"; userId: string; email: string; ip: string | null; userAgent: string | null };

export interface AuthOptions {
  prisma: PrismaClient;
  secret: string;
  /** Where the studio is reached: callback URLs and the origin check use it. */
  baseURL: string;
  /** Other origins the browser may call from (the other loopback name, allowed hosts). */
  trustedOrigins: string[];
  oidc?: OidcSettings | null;
  /** Sign-in attempts allowed per IP per window (seconds). */
  signInLimit?: { max: number; window: number };
  /** Failed sign-ins allowed per account per window (seconds), whatever the address. */
  accountLimit?: { max: number; window: number };
  onEvent?: (e: AuthEvent) => void | Promise<void>;
}

export const OIDC_PROVIDER_ID = "oidc";
/** The studio's only cookie prefix: better-auth.session_token etc. */
export const SESSION_COOKIE = "better-auth.session_token";

export function createAuth(o: AuthOptions) {
  const limit = o.signInLimit ?? { max: 10, window: 60 };
  const accountLock = failedSignIns(o.prisma, o.accountLimit ?? ACCOUNT_LIMIT);
  const emit = async (e: AuthEvent) => {
    try {
      await o.onEvent?.(e);
    } catch (err) {
      console.error("[tool-studio] could not record an auth event", err);
    }
  };
  const who = (headers: Headers | undefined) => ({
    ip: headers?.get("x-forwarded-for")?.split(",")[0]?.trim() || null,
    userAgent: headers?.get("user-agent")?.slice(0, 200) ?? null,
  });
  return betterAuth({
    appName: "Tool Studio",
    baseURL: o.baseURL,
    basePath: "/api/auth",
    secret: o.secret,
    trustedOrigins: o.trustedOrigins,
    database: prismaAdapter(o.prisma, { provider: "postgresql", transaction: true }),
    emailAndPassword: { enabled: true, disableSignUp: true, minPasswordLength: 8, maxPasswordLength: 256 },
    user: { additionalFields: { role: { type: "string", required: false, defaultValue: "viewer", input: false } } },
    session: { expiresIn: 60 * 60 * 24 * 7, updateAge: 60 * 60 * 24 },
    account: {
      encryptOAuthTokens: true,
      accountLinking: { enabled: true, trustedProviders: [OIDC_PROVIDER_ID] },
    },
    // On everywhere (better-auth enables it only in production), shared by every instance.
    rateLimit: {
      enabled: true,
      storage: "database",
      modelName: "rateLimit",
      window: 60,
      max: 200,
      customRules: { "/sign-in/email": limit, "/sign-in/social": limit },
    },
    advanced: { cookiePrefix: "better-auth" },
    // Its messages can quote what a client sent (a callback URL, a provider name): one line, cut short.
    logger: {
      level: "warn",
      log: (level, message, ...args) => {
        const line = `[tool-studio] auth ${level}: ${clip([message, ...args.map(String)].join(" "))}`;
        if (level === "error") console.error(line);
        else console.warn(line);
      },
    },
    telemetry: { enabled: false },
    databaseHooks: {
      user: {
        create: {
          // A person's first SSO sign-in creates their account with the configured role.
          async before(user, ctx) {
            if (ctx?.path?.startsWith("/callback/") && o.oidc) return { data: { ...user, role: o.oidc.defaultRole } };
            return { data: user };
          },
        },
      },
    },
    hooks: {
      before: createAuthMiddleware(async (ctx) => {
        if (ctx.path === "/sign-in/email") {
          const wait = await accountLock.retryAfter(emailOf(ctx.body));
          if (wait > 0) {
            await emit({ type: "sign-in.failed", email: emailOf(ctx.body), reason: "too many failed sign-ins for this account", ...who(ctx.headers) });
            throw new APIError("TOO_MANY_REQUESTS", { message: `Too many failed sign-ins for this account. Try again in ${wait} s.` }, { "X-Retry-After": String(wait) });
          }
          return;
        }
        if (ctx.path !== "/sign-out" && ctx.path !== "/revoke-sessions") return;
        const session = await getSessionFromCtx(ctx).catch(() => null);
        if (session) await emit({ type: "sign-out", userId: session.user.id, email: session.user.email, everywhere: ctx.path === "/revoke-sessions", ...who(ctx.headers) });
      }),
      after: createAuthMiddleware(async (ctx) => {
        if (ctx.path === "/change-password") {
          const session = ctx.context.session;
          if (session && !(ctx.context.returned instanceof APIError)) {
            await emit({ type: "password-change", userId: session.user.id, email: session.user.email, ...who(ctx.headers) });
          }
          return;
        }
        const isPassword = ctx.path === "/sign-in/email";
        if (!isPassword && !ctx.path.startsWith("/callback/")) return;
        const created = ctx.context.newSession;
        if (isPassword) await (created ? accountLock.clear(emailOf(ctx.body)) : accountLock.fail(emailOf(ctx.body)));
        if (created) {
          await emit({ type: "sign-in", userId: created.user.id, email: created.user.email, method: isPassword ? "password" : "sso", ...who(ctx.headers) });
          return;
        }
        const returned = ctx.context.returned;
        if (returned instanceof APIError || isPassword) {
          const email = isPassword && typeof ctx.body?.email === "string" ? ctx.body.email.slice(0, 200) : null;
          const reason = returned instanceof APIError ? String(returned.body?.message ?? returned.message) : "sign-in did not complete";
          await emit({ type: "sign-in.failed", email, reason, ...who(ctx.headers) });
        }
      }),
    },
    plugins: o.oidc
      ? [
          genericOAuth({
            config: [
              {
                providerId: OIDC_PROVIDER_ID,
                discoveryUrl: `${o.oidc.issuer.replace(/\/+$/, "")}/.well-known/openid-configuration`,
                clientId: o.oidc.clientId,
                clientSecret: o.oidc.clientSecret,
                scopes: o.oidc.scopes ?? ["openid", "email", "profile"],
                pkce: true,
              },
            ],
          }),
        ]
      : [],
  });
}

export type StudioAuth = ReturnType<typeof createAuth>;

/** 10 failed sign-ins per account per 15 minutes: password guessing is slowed even from many addresses. */
export const ACCOUNT_LIMIT = { max: 10, window: 15 * 60 };

const emailOf = (body: unknown): string | null => {
  const e = (body as { email?: unknown } | undefined)?.email;
  // Not an address the database could hold (NUL, invalid Unicode): better-auth refuses it next.
  return typeof e === "string" && !stringProblem(e) ? e.trim().toLowerCase().slice(0, 200) : null;
};

/**
 * Per-account failed sign-in counts, in the rate-limit table every instance shares. The address
 * limit alone is not enough: the client address comes from X-Forwarded-For, which a client can
 * set itself when no proxy in front of the studio overwrites it.
 */
function failedSignIns(prisma: PrismaClient, limit: { max: number; window: number }) {
  const key = (email: string) => `failed-sign-in:${email}`;
  const windowMs = limit.window * 1000;
  return {
    async retryAfter(email: string | null): Promise<number> {
      if (!email) return 0;
      const row = await prisma.rateLimit.findUnique({ where: { key: key(email) } });
      if (!row || row.count < limit.max) return 0;
      const left = Number(row.lastRequest) + windowMs - Date.now();
      return left > 0 ? Math.ceil(left / 1000) : 0;
    },
    async fail(email: string | null): Promise<void> {
      if (!email) return;
      const now = Date.now();
      const row = await prisma.rateLimit.findUnique({ where: { key: key(email) } });
      const fresh = !row || now - Number(row.lastRequest) >= windowMs;
      await prisma.rateLimit.upsert({
        where: { key: key(email) },
        create: { id: crypto.randomUUID(), key: key(email), count: 1, lastRequest: BigInt(now) },
        update: fresh ? { count: 1, lastRequest: BigInt(now) } : { count: { increment: 1 }, lastRequest: BigInt(now) },
      });
    },
    async clear(email: string | null): Promise<void> {
      if (email) await prisma.rateLimit.deleteMany({ where: { key: key(email) } });
    },
  };
}

const clip = (s: string) => (s.length > 300 ? `${s.slice(0, 300)}… (${s.length} characters)` : s).replace(/[\r\n]+/g, " ");
