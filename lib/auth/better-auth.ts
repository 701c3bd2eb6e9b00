// Server code: a client component that imports this (directly or not) fails the build.
import "server-only";
import { betterAuth } from "better-auth";
import { prismaAdapter } from "better-auth/adapters/prisma";
import { APIError, createAuthMiddleware } from "better-auth/api";
import { genericOAuth } from "better-auth/plugins";
import type { PrismaClient } from "../db/generated/client";
import { addressKey } from "../http/client-address";
import { stringProblem } from "../http/input";
import type { Role } from "./roles";
import { auditedAuthClient, type AuthAudit } from "./audited-sessions";

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

/** What the audit log hears from sign-in and sign-out: the changes with their writes (AuthAudit), a failed sign-in alone. */
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
  /** Password attempts on one account from one address before each next one waits (SIGN_IN_BACKOFF). */
  accountBackoff?: SignInBackoff;
  /** Sign-ins, sign-outs and password changes: each entry commits with the write (lib/auth/audited-sessions.ts). */
  audit?: AuthAudit;
  /** A sign-in that did not happen changes nothing: its entry is appended on its own. */
  onSignInFailed?: (e: Extract<AuthEvent, { type: "sign-in.failed" }>) => void | Promise<void>;
}

export const OIDC_PROVIDER_ID = "oidc";
/** The studio's only cookie prefix: better-auth.session_token etc. */
export const SESSION_COOKIE = "better-auth.session_token";
/**
 * The client's address as the studio established it (lib/http/client-address.ts), set by
 * Identity.handle on the request it hands to better-auth, whose rate limits and sessions read it
 * (and nothing else: a client's own X-Forwarded-For is no address).
 */
export const CLIENT_ADDRESS_HEADER = "x-studio-client-address";

export function createAuth(o: AuthOptions) {
  const limit = o.signInLimit ?? { max: 10, window: 60 };
  const backoff = o.accountBackoff ?? SIGN_IN_BACKOFF;
  const attempts = signInAttempts(o.prisma, backoff);
  const emit = async (e: Extract<AuthEvent, { type: "sign-in.failed" }>) => {
    try {
      await o.onSignInFailed?.(e);
    } catch (err) {
      console.error("[tool-studio] could not record a failed sign-in", err);
    }
  };
  const who = (headers: Headers | undefined) => ({
    ip: headers?.get(CLIENT_ADDRESS_HEADER) || null,
    userAgent: headers?.get("user-agent")?.slice(0, 200) ?? null,
  });
  return betterAuth({
    appName: "Tool Studio",
    baseURL: o.baseURL,
    basePath: "/api/auth",
    secret: o.secret,
    trustedOrigins: o.trustedOrigins,
    database: prismaAdapter(o.audit ? auditedAuthClient(o.prisma, o.audit, who) : o.prisma, { provider: "postgresql", transaction: true }),
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
      // The last rule is for no endpoint: better-auth prunes the table's rows older than its longest
      // window, and the sign-in backoff's rows (same table) must last until they reset.
      customRules: { "/sign-in/email": limit, "/sign-in/social": limit, "/studio-sign-in-backoff": { window: backoff.resetSeconds, max: 1 } },
    },
    advanced: { cookiePrefix: "better-auth", ipAddress: { ipAddressHeaders: [CLIENT_ADDRESS_HEADER] } },
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
          const email = emailOf(ctx.body);
          const wait = await attempts.begin(email, who(ctx.headers).ip);
          if (wait > 0) {
            await emit({ type: "sign-in.failed", email, reason: "too many failed sign-ins for this account from this address", ...who(ctx.headers) });
            throw new APIError(
              "TOO_MANY_REQUESTS",
              { message: `Too many failed sign-ins for this account from this address. Try again in ${wait} s.` },
              { "Retry-After": String(wait), "X-Retry-After": String(wait) },
            );
          }
        }
      }),
      after: createAuthMiddleware(async (ctx) => {
        const isPassword = ctx.path === "/sign-in/email";
        if (!isPassword && !ctx.path.startsWith("/callback/")) return;
        const created = ctx.context.newSession;
        if (isPassword && created) await attempts.succeeded(emailOf(ctx.body), who(ctx.headers).ip);
        // A sign-in's entry committed with its session (audited-sessions.ts).
        if (created) return;
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

/**
 * Password attempts on one account from one address: `free` of them at once, then each next one
 * waits 1 s, 2 s, 4 s … (at most `maxWaitSeconds`) after the one before; a success from that
 * address starts it afresh, and so do `resetSeconds` without an attempt. Per account *and*
 * address, so nobody can lock the owner out from elsewhere (the 900 s lock of issue 37); guessing
 * from many addresses is slowed by the per-address limit and the password hash itself.
 */
export interface SignInBackoff {
  free: number;
  maxWaitSeconds: number;
  resetSeconds: number;
}
export const SIGN_IN_BACKOFF: SignInBackoff = { free: 5, maxWaitSeconds: 15 * 60, resetSeconds: 24 * 60 * 60 };

const emailOf = (body: unknown): string | null => {
  const e = (body as { email?: unknown } | undefined)?.email;
  // Not an address the database could hold (NUL, invalid Unicode): better-auth refuses it next.
  return typeof e === "string" && !stringProblem(e) ? e.trim().toLowerCase().slice(0, 200) : null;
};

/** The seconds attempt `count + 1` waits after attempt `count` (0 while free). */
export function backoffSeconds(count: number, b: SignInBackoff): number {
  return count < b.free ? 0 : Math.min(b.maxWaitSeconds, 2 ** Math.min(30, count - b.free));
}

/**
 * The attempts, in the rate-limit table every instance shares. An attempt is counted when it
 * starts (so parallel guesses count too) and forgotten on success.
 */
function signInAttempts(prisma: PrismaClient, b: SignInBackoff) {
  const key = (email: string, address: string | null) => `sign-in:${email}|${addressKey(address)}`;
  return {
    /** Counts an attempt and answers 0, or the seconds to wait before the next one may be made. */
    async begin(email: string | null, address: string | null): Promise<number> {
      if (!email) return 0;
      const k = key(email, address);
      const now = Date.now();
      const row = await prisma.rateLimit.findUnique({ where: { key: k } });
      const stale = !row || now - Number(row.lastRequest) >= b.resetSeconds * 1000;
      const count = stale ? 0 : row.count;
      const left = stale ? 0 : Number(row.lastRequest) + backoffSeconds(count, b) * 1000 - now;
      if (left > 0) return Math.ceil(left / 1000);
      await prisma.rateLimit.upsert({
        where: { key: k },
        create: { id: crypto.randomUUID(), key: k, count: 1, lastRequest: BigInt(now) },
        update: stale ? { count: 1, lastRequest: BigInt(now) } : { count: { increment: 1 }, lastRequest: BigInt(now) },
      });
      return 0;
    },
    async succeeded(email: string | null, address: string | null): Promise<void> {
      if (email) await prisma.rateLimit.deleteMany({ where: { key: key(email, address) } });
    },
  };
}

const clip = (s: string) => (s.length > 300 ? `${s.slice(0, 300)}… (${s.length} characters)` : s).replace(/[\r\n]+/g, " ");
