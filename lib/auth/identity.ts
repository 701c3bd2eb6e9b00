import { randomBytes } from "node:crypto";
import type { PrismaClient } from "../db/generated/client";
import { clientAddress } from "../http/client-address";
import { readBody, toErrorResponse } from "../http/http";
import type { AuthAudit } from "./audited-sessions";
import { CLIENT_ADDRESS_HEADER, createAuth, type AuthOptions, type OidcSettings, type SignInBackoff, type StudioAuth } from "./better-auth";
import { ADMIN_TOKEN_ACTOR, MCP_TOKEN_ACTOR, type Identification, type Principal } from "./principal";
import { asRole } from "./roles";
import { bearerToken, sameSecret } from "./secret-compare";
import { TOKEN_PREFIX, TokenStore } from "./tokens";

/**
 * Establishes who is calling, from what the request carries, in this order:
 *   Authorization: Bearer <STUDIO_ADMIN_TOKEN>  admin, for automation and headless browsers
 *   Authorization: Bearer <STUDIO_MCP_TOKEN>    runner, on /api/mcp only
 *   Authorization: Bearer tst_...              a person's API token
 *   the session cookie                          a person signed in through the browser
 * A bearer header that matches none of them is refused (401), never ignored in favour of the cookie.
 */
export interface IdentityEnv {
  adminToken?: string;
  mcpToken?: string;
}

export function identityEnvFrom(env: Record<string, string | undefined> = process.env): IdentityEnv {
  return { adminToken: env.STUDIO_ADMIN_TOKEN?.trim() || undefined, mcpToken: env.STUDIO_MCP_TOKEN?.trim() || undefined };
}

export interface IdentityOptions {
  prisma: PrismaClient;
  env: IdentityEnv;
  secret: string;
  baseURL: string;
  trustedOrigins: string[];
  /** The SSO settings in force now (config or env); the auth instance follows changes. */
  oidc: () => OidcSettings | null;
  signInLimit?: { max: number; window: number };
  signInBackoff?: SignInBackoff;
  /** Sign-ins, sign-outs and password changes, each committed with its write; a failed sign-in alone. */
  audit?: AuthAudit;
  onSignInFailed?: AuthOptions["onSignInFailed"];
}

export class Identity {
  readonly tokens: TokenStore;
  private auth_: { key: string; auth: StudioAuth } | null = null;

  constructor(private readonly o: IdentityOptions) {
    this.tokens = new TokenStore(o.prisma);
  }

  /** better-auth, rebuilt when the SSO settings change (config edits apply without a restart). */
  get auth(): StudioAuth {
    const oidc = this.o.oidc();
    const key = JSON.stringify(oidc);
    if (!this.auth_ || this.auth_.key !== key) {
      this.auth_ = {
        key,
        auth: createAuth({
          prisma: this.o.prisma,
          secret: this.o.secret,
          baseURL: this.o.baseURL,
          trustedOrigins: this.o.trustedOrigins,
          oidc,
          signInLimit: this.o.signInLimit,
          accountBackoff: this.o.signInBackoff,
          audit: this.o.audit,
          onSignInFailed: this.o.onSignInFailed,
        }),
      };
    }
    return this.auth_.auth;
  }

  /**
   * Serves better-auth's endpoints (/api/auth/*) as the route hands them over: the body limit of
   * every route (413), and the client's address as the studio established it in the one header
   * better-auth reads (whatever a client sent under that name is dropped). 429s say Retry-After.
   */
  async handle(request: Request): Promise<Response> {
    let body: Uint8Array<ArrayBuffer> | undefined;
    try {
      if (request.method !== "GET" && request.method !== "HEAD") body = new Uint8Array(await readBody(request));
    } catch (err) {
      return toErrorResponse(err);
    }
    const headers = new Headers(request.headers);
    const address = clientAddress(request.headers);
    if (address) headers.set(CLIENT_ADDRESS_HEADER, address);
    else headers.delete(CLIENT_ADDRESS_HEADER);
    const res = await this.auth.handler(new Request(request.url, { method: request.method, headers, body, signal: request.signal }));
    const wait = res.headers.get("x-retry-after");
    if (res.status !== 429 || !wait || res.headers.has("retry-after")) return res;
    const out = new Response(res.body, res);
    out.headers.set("retry-after", wait);
    return out;
  }

  /** What the sign-in page offers. */
  ssoProvider(): { id: string; name: string } | null {
    const oidc = this.o.oidc();
    return oidc ? { id: "oidc", name: oidc.name ?? "Single sign-on" } : null;
  }

  async identify(headers: Headers, ctx: { mcp: boolean } = { mcp: false }): Promise<Identification> {
    const authz = headers.get("authorization");
    if (authz) {
      const presented = bearerToken(authz);
      if (!presented) return { principal: null, problem: "invalid", message: "The Authorization header must be `Bearer <token>`." };
      const { adminToken, mcpToken } = this.o.env;
      if (adminToken && sameSecret(presented, adminToken)) return { principal: envPrincipal("admin-token") };
      if (mcpToken && sameSecret(presented, mcpToken)) {
        if (ctx.mcp) return { principal: envPrincipal("mcp-token") };
        return { principal: null, problem: "invalid", message: "STUDIO_MCP_TOKEN is accepted on /api/mcp only." };
      }
      if (presented.startsWith(TOKEN_PREFIX)) {
        const r = await this.tokens.verify(presented);
        return "principal" in r ? r : { principal: null, problem: r.problem, message: r.message };
      }
      return { principal: null, problem: "invalid", message: "The bearer token is not valid." };
    }
    if (!headers.get("cookie")?.includes("session_token")) return { principal: null };
    const session = await this.auth.api.getSession({ headers }).catch(() => null);
    if (!session) return { principal: null, message: "Your session has ended: sign in again." };
    const u = session.user as { id: string; email: string; name: string; role?: unknown };
    return { principal: { via: "session", role: asRole(u.role), userId: u.id, actor: u.email, name: u.name, tokenId: null, tokenName: null } };
  }
}

function envPrincipal(via: "admin-token" | "mcp-token"): Principal {
  const admin = via === "admin-token";
  return {
    via,
    role: admin ? "admin" : "runner",
    userId: null,
    actor: admin ? ADMIN_TOKEN_ACTOR : MCP_TOKEN_ACTOR,
    name: admin ? "Admin token" : "MCP token",
    tokenId: null,
    tokenName: admin ? "STUDIO_ADMIN_TOKEN" : "STUDIO_MCP_TOKEN",
  };
}

/**
 * The secret that signs sessions: BETTER_AUTH_SECRET or STUDIO_AUTH_SECRET when set, else one
 * generated on first start and kept in the database, so restarts and other instances share it.
 */
export async function authSecret(prisma: PrismaClient, env: Record<string, string | undefined> = process.env): Promise<string> {
  const given = env.BETTER_AUTH_SECRET?.trim() || env.STUDIO_AUTH_SECRET?.trim();
  if (given) return given;
  const key = "auth.secret";
  await prisma.studioSetting.createMany({ data: [{ key, value: randomBytes(32).toString("base64url") }], skipDuplicates: true });
  const row = await prisma.studioSetting.findUniqueOrThrow({ where: { key } });
  return row.value;
}

/** Where people reach the studio: STUDIO_PUBLIC_URL, else the loopback address it listens on. */
export function publicBaseUrl(env: Record<string, string | undefined> = process.env): string {
  if (env.STUDIO_PUBLIC_URL) return env.STUDIO_PUBLIC_URL.replace(/\/+$/, "");
  const host = env.STUDIO_HOST?.trim() || "127.0.0.1";
  const shown = host === "0.0.0.0" || host === "::" ? "127.0.0.1" : host.includes(":") && !host.startsWith("[") ? `[${host}]` : host;
  return `http://${shown}:${env.PORT || "3000"}`;
}

/** Origins a browser may call from: the public URL, both loopback names, and the allowed hosts. */
export function trustedOrigins(env: Record<string, string | undefined> = process.env): string[] {
  const port = env.PORT || "3000";
  const out = new Set([publicBaseUrl(env), `http://127.0.0.1:${port}`, `http://localhost:${port}`, `http://[::1]:${port}`]);
  for (const h of (env.STUDIO_ALLOWED_HOSTS ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean)) {
    out.add(`http://${h}:${port}`);
    out.add(`https://${h}`);
  }
  return [...out];
}
