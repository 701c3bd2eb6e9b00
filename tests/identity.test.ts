import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AuditLog, runAudit, type AuditAction } from "@/lib/audit";
import { issueFirstAdminLink, redeemFirstAdminLink } from "@/lib/auth/first-admin";
import { authAuditEntry, type AuthAudit } from "@/lib/auth/audited-sessions";
import { authSecret, Identity } from "@/lib/auth/identity";
import { UserAdmin } from "@/lib/auth/users";
import { executeTool } from "@/lib/execution/execute";
import { Registry } from "@/lib/registry/registry";
import { RunStore } from "@/lib/runs/store";
import { defineTool } from "@/lib/tools/define";
import { structured } from "@/lib/tools/output";
import { createTestDatabase, type TestDatabase } from "./helpers/db";

// Identity on a real PostgreSQL: better-auth sessions, API tokens, the environment tokens, the
// first-admin link, and the audit trail of each.

let db: TestDatabase;
let audit: AuditLog;
let identity: Identity;
let users: UserAdmin;
const BASE = "http://127.0.0.1:3999";
const headers = (h: Record<string, string> = {}) => new Headers({ host: "127.0.0.1:3999", origin: BASE, ...h });

/** As the studio wires them (lib/studio/studio.ts): changes with their writes, a failed sign-in alone. */
const audited = () => ({
  audit: { chain: audit, entryOf: authAuditEntry } satisfies AuthAudit,
  onSignInFailed: async (e: Parameters<typeof authAuditEntry>[0]) => void (await audit.append(authAuditEntry(e))),
});

beforeAll(async () => {
  db = await createTestDatabase();
  audit = new AuditLog(db.prisma);
  identity = new Identity({
    prisma: db.prisma,
    env: { adminToken: "admin-secret-token", mcpToken: "mcp-secret-token" },
    secret: await authSecret(db.prisma, {}),
    baseURL: BASE,
    trustedOrigins: [BASE],
    oidc: () => null,
    signInLimit: { max: 3, window: 60 },
    ...audited(),
  });
  users = new UserAdmin(
    db.prisma,
    () => identity.auth,
    () => identity.tokens.forget(),
  );
});
afterAll(async () => {
  await db?.drop();
});

/** Another Identity on the same database, with a per-address limit that the test does not reach. */
const roomyIdentity = async (more: Partial<ConstructorParameters<typeof Identity>[0]>) =>
  new Identity({
    prisma: db.prisma,
    env: {},
    secret: await authSecret(db.prisma, {}),
    baseURL: BASE,
    trustedOrigins: [BASE],
    oidc: () => null,
    signInLimit: { max: 100, window: 60 },
    ...more,
  });

/**
 * A password sign-in as the route serves it (Identity.handle), from `addr`: the socket peer, as
 * scripts/server.mjs writes it into x-studio-peer; `extra` headers are the client's own.
 */
async function signIn(
  email: string,
  password: string,
  addr = "10.9.8.7",
  extra: Record<string, string> = {},
  id: Identity = identity,
): Promise<{ status: number; cookie: string | null; retryAfter: string | null }> {
  const res = await id.handle(
    new Request(`${BASE}/api/auth/sign-in/email`, {
      method: "POST",
      headers: headers({ "content-type": "application/json", "x-studio-peer": addr, ...extra }),
      body: JSON.stringify({ email, password }),
    }),
  );
  const cookie = res.headers.getSetCookie().find((c) => c.startsWith("better-auth.session_token="));
  return { status: res.status, cookie: cookie ? cookie.split(";")[0]! : null, retryAfter: res.headers.get("retry-after") };
}

describe("the auth secret", () => {
  it("is generated once and kept in the database; the environment overrides it", async () => {
    const a = await authSecret(db.prisma, {});
    expect(a).toHaveLength(43);
    expect(await authSecret(db.prisma, {})).toBe(a);
    expect(await authSecret(db.prisma, { BETTER_AUTH_SECRET: "from-env" })).toBe("from-env");
  });
});

describe("the first-admin link", () => {
  it("is printed while nobody exists, signs its opener in as admin once, and never again", async () => {
    const link = await issueFirstAdminLink(db.prisma, BASE);
    expect(link).toMatch(/^http:\/\/127\.0\.0\.1:3999\/setup\?token=[A-Za-z0-9_-]{32}$/);
    const token = new URL(link!).searchParams.get("token")!;
    expect(await redeemFirstAdminLink(db.prisma, users, identity.auth, "wrong")).toMatchObject({ ok: false });
    const r = await redeemFirstAdminLink(db.prisma, users, identity.auth, token);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.user).toMatchObject({ email: "admin@studio.local", role: "admin", methods: ["password"] });
    const cookie = r.setCookie.find((c) => c.startsWith("better-auth.session_token="))!.split(";")[0]!;
    const who = await identity.identify(headers({ cookie }));
    expect(who.principal).toMatchObject({ via: "session", role: "admin", actor: "admin@studio.local" });
    // Used: the same link does nothing, and with a user there is no new link.
    expect(await redeemFirstAdminLink(db.prisma, users, identity.auth, token)).toMatchObject({ ok: false, message: expect.stringMatching(/already used/) });
    expect(await issueFirstAdminLink(db.prisma, BASE)).toBeNull();
  });
});

describe("people and sessions", () => {
  it("an admin adds a runner who signs in with a password; the session is theirs; sign-in and failures are audited", async () => {
    const rita = await users.create({ email: "Rita@Example.com", name: "Rita", password: "correct horse", role: "runner" });
    expect(rita).toMatchObject({ email: "rita@example.com", role: "runner" });
    const stored = await db.prisma.account.findFirstOrThrow({ where: { userId: rita.id } });
    expect(stored.password).not.toContain("correct horse"); // hashed by better-auth

    const bad = await signIn("rita@example.com", "wrong password");
    expect(bad.status).toBe(401);
    const ok = await signIn("rita@example.com", "correct horse");
    expect(ok.status).toBe(200);
    const who = await identity.identify(headers({ cookie: ok.cookie! }));
    expect(who.principal).toMatchObject({ via: "session", role: "runner", userId: rita.id, actor: "rita@example.com", tokenId: null });

    const { entries } = await audit.list({ limit: 10 });
    const actions = entries.map((e) => [e.action, e.actor]);
    expect(actions).toContainEqual(["auth.sign-in", "rita@example.com"]);
    expect(actions).toContainEqual(["auth.sign-in-failed", "rita@example.com"]);
    expect(JSON.stringify(entries)).not.toContain("wrong password");
  });

  it("the session cookie is HttpOnly and SameSite=Lax, and Secure when the studio is served over https", async () => {
    const raw = async (id: Identity, base: string) => {
      const res = await id.auth.handler(
        new Request(`${base}/api/auth/sign-in/email`, {
          method: "POST",
          headers: new Headers({ origin: base, "content-type": "application/json", "x-forwarded-for": "10.6.0.1" }),
          body: JSON.stringify({ email: "rita@example.com", password: "correct horse" }),
        }),
      );
      return res.headers.getSetCookie().find((c) => /session_token=/.test(c)) ?? "";
    };
    const plain = await raw(identity, BASE);
    expect(plain).toMatch(/HttpOnly/i);
    expect(plain).toMatch(/SameSite=Lax/i);
    expect(plain).not.toMatch(/Secure/i);
    const https = new Identity({
      prisma: db.prisma,
      env: {},
      secret: await authSecret(db.prisma, {}),
      baseURL: "https://studio.example.com",
      trustedOrigins: ["https://studio.example.com"],
      oidc: () => null,
    });
    const secure = await raw(https, "https://studio.example.com");
    expect(secure).toMatch(/Secure/);
    expect(secure).toMatch(/HttpOnly/i);
  });

  it("sign-out is audited and ends the session", async () => {
    const { cookie } = await signIn("rita@example.com", "correct horse");
    const out = await identity.auth.handler(
      new Request(`${BASE}/api/auth/sign-out`, { method: "POST", headers: headers({ cookie: cookie!, "content-type": "application/json" }), body: "{}" }),
    );
    expect(out.status).toBe(200);
    expect((await identity.identify(headers({ cookie: cookie! }))).principal).toBeNull();
    const { entries } = await audit.list({ action: "auth.sign-out", limit: 1 });
    expect(entries[0]).toMatchObject({ actor: "rita@example.com" });
  });

  it("a person changes their own password with the current one; it is audited and other sessions end", async () => {
    await users.create({ email: "pat@example.com", password: "first-password", role: "viewer" });
    const a = await signIn("pat@example.com", "first-password", "10.7.0.1");
    const b = await signIn("pat@example.com", "first-password", "10.7.0.2");
    expect([a.status, b.status]).toEqual([200, 200]);
    const change = (cookie: string, currentPassword: string) =>
      identity.auth.handler(
        new Request(`${BASE}/api/auth/change-password`, {
          method: "POST",
          headers: headers({ cookie, "content-type": "application/json" }),
          body: JSON.stringify({ currentPassword, newPassword: "second-password", revokeOtherSessions: true }),
        }),
      );
    expect([400, 401]).toContain((await change(a.cookie!, "wrong-password")).status);
    expect((await change(a.cookie!, "first-password")).status).toBe(200);
    expect((await identity.identify(headers({ cookie: b.cookie! }))).principal).toBeNull();
    expect((await signIn("pat@example.com", "second-password", "10.7.0.3")).status).toBe(200);
    const { entries } = await audit.list({ action: "user.password-change", limit: 5 });
    expect(entries.map((e) => e.actor)).toEqual(["pat@example.com"]);
  });

  it("sign-in is rate limited per client address, and a forged X-Forwarded-For does not get around it", async () => {
    await users.create({ email: "slow@example.com", password: "password-1", role: "viewer" });
    const statuses: number[] = [];
    // Issue 37: each attempt claimed another address and was counted as it.
    for (let i = 0; i < 5; i++) statuses.push((await signIn("slow@example.com", "nope-nope", "10.9.9.1", { "x-forwarded-for": `198.51.100.${i}` })).status);
    expect(statuses.slice(0, 3)).toEqual([401, 401, 401]);
    expect(statuses.slice(3)).toEqual([429, 429]);
    // Another peer is another address.
    expect((await signIn("slow@example.com", "password-1", "10.9.9.2")).status).toBe(200);
  });

  it("X-Forwarded-For is the client's address only when the peer is a trusted proxy (STUDIO_TRUSTED_PROXIES)", async () => {
    process.env.STUDIO_TRUSTED_PROXIES = "10.50.0.0/16";
    try {
      const statuses: number[] = [];
      // Behind the proxy, every client has its own budget …
      for (let i = 0; i < 5; i++) statuses.push((await signIn("slow@example.com", "nope-nope", "10.50.0.1", { "x-forwarded-for": `203.0.113.${i}` })).status);
      expect(statuses).toEqual([401, 401, 401, 401, 401]);
      // … and one that prepends its own claim is still counted as the address the proxy saw.
      for (let i = 0; i < 3; i++) await signIn("slow@example.com", "nope-nope", "10.50.0.1", { "x-forwarded-for": `6.6.6.${i}, 203.0.113.77` });
      expect((await signIn("slow@example.com", "nope-nope", "10.50.0.1", { "x-forwarded-for": "6.6.6.99, 203.0.113.77" })).status).toBe(429);
      const { entries } = await audit.list({ action: "auth.sign-in-failed", limit: 1 });
      expect(entries[0]!.from).toMatch(/^addr 203\.0\.113\.77(;|$)/);
    } finally {
      delete process.env.STUDIO_TRUSTED_PROXIES;
    }
  });

  it("a sign-in, a sign-out and a password change commit with their entries: an entry the log refuses leaves the session or password as it was", async () => {
    let refuse = false;
    const strict = await roomyIdentity({
      audit: { chain: audit, entryOf: (e) => (refuse ? { actor: "x", action: "Not An Action" as AuditAction } : authAuditEntry(e)) },
    });
    const ulla = await users.create({ email: "ulla@example.com", password: "ulla-password-1", role: "viewer" });
    const sessions = () => db.prisma.session.count({ where: { userId: ulla.id } });
    const logged = async (action: AuditAction) =>
      (await audit.list({ action, limit: 200 })).entries.filter((e) => (e.detail as { userId?: string }).userId === ulla.id);
    const post = (path: string, cookie: string, body: object = {}) =>
      strict.handle(
        new Request(`${BASE}/api/auth/${path}`, {
          method: "POST",
          // An address of its own: better-auth allows 3 password changes per 10 s per address.
          headers: headers({ cookie, "content-type": "application/json", "x-studio-peer": "10.88.1.1" }),
          body: JSON.stringify(body),
        }),
      );

    // Sign-in: refused, no session was made; audited, the session and its entry are both there.
    refuse = true;
    const lost = await signIn("ulla@example.com", "ulla-password-1", "10.88.0.1", {}, strict);
    expect(lost.status).toBeGreaterThanOrEqual(400);
    expect(lost.cookie).toBeNull();
    expect(await sessions()).toBe(0);
    refuse = false;
    const kept = await signIn("ulla@example.com", "ulla-password-1", "10.88.0.2", { "user-agent": "probe/1" }, strict);
    expect(kept.status).toBe(200);
    expect(await sessions()).toBe(1);
    expect(await logged("auth.sign-in")).toMatchObject([{ actor: "ulla@example.com", detail: { method: "password" }, from: "addr 10.88.0.2; ua probe/1" }]);

    // Sign-out: refused, the session is still live and nothing is logged (better-auth answers a
    // sign-out whose delete failed as done, as it does for any database failure there); audited, it ends with its entry.
    refuse = true;
    await post("sign-out", kept.cookie!);
    expect((await strict.identify(headers({ cookie: kept.cookie! }))).principal).toMatchObject({ userId: ulla.id });
    expect(await logged("auth.sign-out")).toHaveLength(0);
    refuse = false;
    expect((await post("sign-out", kept.cookie!)).status).toBe(200);
    expect((await strict.identify(headers({ cookie: kept.cookie! }))).principal).toBeNull();
    expect(await logged("auth.sign-out")).toHaveLength(1);

    // A password change: refused, the old password still signs in; audited, the new one does.
    const again = await signIn("ulla@example.com", "ulla-password-1", "10.88.0.3", {}, strict);
    refuse = true;
    const change = { currentPassword: "ulla-password-1", newPassword: "ulla-password-2" };
    expect((await post("change-password", again.cookie!, change)).status).toBeGreaterThanOrEqual(400);
    refuse = false;
    expect((await signIn("ulla@example.com", "ulla-password-1", "10.88.0.4", {}, strict)).status).toBe(200);
    expect(await logged("user.password-change")).toHaveLength(0);
    expect((await post("change-password", again.cookie!, change)).status).toBe(200);
    expect((await signIn("ulla@example.com", "ulla-password-2", "10.88.0.5", {}, strict)).status).toBe(200);
    expect(await logged("user.password-change")).toHaveLength(1);
    expect((await audit.verify()).ok).toBe(true);
  });

  it("wrong passwords slow down their own address only: the owner signs in from another, the guesser waits (Retry-After, doubling)", async () => {
    // A roomy per-address limit, so what answers 429 here is the per-account-and-address backoff.
    const roomy = await roomyIdentity(audited());
    await users.create({ email: "target@example.com", password: "the-real-password", role: "viewer" });
    const attacker = "10.66.0.1";
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await signIn("target@example.com", `guess-${i}`, attacker, {}, roomy)).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401]);
    const slowed = await signIn("target@example.com", "guess-5", attacker, {}, roomy);
    expect(slowed).toMatchObject({ status: 429, retryAfter: "1" });
    // The guesser's address waits even with the right password …
    expect((await signIn("target@example.com", "the-real-password", attacker, {}, roomy)).status).toBe(429);
    // … while the owner, from elsewhere, is not locked out (issue 37: 429 for 900 s).
    expect((await signIn("target@example.com", "the-real-password", "10.66.0.2", {}, roomy)).status).toBe(200);
    // Many addresses guessing each get their own free attempts; the owner still gets in.
    for (let i = 0; i < 6; i++) expect((await signIn("target@example.com", `spread-${i}`, `10.67.0.${i}`, {}, roomy)).status).toBe(401);
    expect((await signIn("target@example.com", "the-real-password", "10.66.0.3", {}, roomy)).status).toBe(200);

    // Once the wait is over the guesser may try again, and then waits twice as long.
    await new Promise((r) => setTimeout(r, 1000 * Number(slowed.retryAfter) + 50));
    expect((await signIn("target@example.com", "guess-6", attacker, {}, roomy)).status).toBe(401);
    expect(await signIn("target@example.com", "guess-7", attacker, {}, roomy)).toMatchObject({ status: 429, retryAfter: "2" });
    const { entries } = await audit.list({ action: "auth.sign-in-failed", limit: 3 });
    expect(entries[0]).toMatchObject({ actor: "target@example.com", detail: { reason: "too many failed sign-ins for this account from this address" } });
    expect(entries[0]!.from).toMatch(new RegExp(`^addr ${attacker.replaceAll(".", "\\.")}(;|$)`));
  });

  it("/api/auth/* has the body limit of every route: 413 in the one error shape, declared or not", async () => {
    const big = JSON.stringify({ email: "rita@example.com", password: "x".repeat(2 * 1024 * 1024) });
    const declared = await identity.handle(
      new Request(`${BASE}/api/auth/sign-in/email`, {
        method: "POST",
        headers: headers({ "content-type": "application/json", "content-length": String(big.length) }),
        body: big,
      }),
    );
    expect(declared.status).toBe(413);
    expect(await declared.json()).toEqual({ error: { kind: "payload_too_large", message: expect.stringContaining("STUDIO_MAX_BODY_BYTES") } });
    const stream = new ReadableStream({
      start(c) {
        c.enqueue(new TextEncoder().encode(big));
        c.close();
      },
    });
    const chunked = await identity.handle(
      new Request(`${BASE}/api/auth/sign-in/email`, {
        method: "POST",
        headers: headers({ "content-type": "application/json" }),
        body: stream,
        duplex: "half",
      } as RequestInit),
    );
    expect(chunked.status).toBe(413);
    expect(await chunked.json()).toMatchObject({ error: { kind: "payload_too_large" } });
  });

  it("revoking a person's sessions signs them out; the last admin cannot be demoted or removed", async () => {
    const v = await users.create({ email: "vic@example.com", password: "password-2", role: "viewer" });
    const s = await identity.auth.api.signInEmail({ body: { email: "vic@example.com", password: "password-2" }, returnHeaders: true });
    const cookie = s.headers
      .getSetCookie()
      .find((c) => c.startsWith("better-auth.session_token="))!
      .split(";")[0]!;
    expect((await identity.identify(headers({ cookie }))).principal?.actor).toBe("vic@example.com");
    expect(await users.revokeSessions(v.id)).toBe(1);
    expect((await identity.identify(headers({ cookie }))).principal).toBeNull();

    const admin = (await users.list()).find((u) => u.role === "admin")!;
    await expect(users.update(admin.id, { role: "viewer" })).rejects.toThrow(/last admin/);
    await expect(users.remove(admin.id)).rejects.toThrow(/last admin/);
    await expect(users.create({ email: "vic@example.com", password: "password-3", role: "viewer" })).rejects.toThrow(/already exists/);
    await expect(users.create({ email: "not-an-email", password: "password-3", role: "viewer" })).rejects.toThrow(/email address/);
  });
});

describe("API tokens and the environment tokens", () => {
  it("a token is shown once, stored hashed, capped by its owner's role, and refused once expired or revoked", async () => {
    const rita = (await users.list()).find((u) => u.email === "rita@example.com")!;
    await expect(identity.tokens.create({ id: rita.id, role: "runner" }, { name: "too high", role: "admin" })).rejects.toThrow(/no higher than your own role/);
    const { token, info } = await identity.tokens.create({ id: rita.id, role: "runner" }, { name: "ci" });
    expect(token).toMatch(/^tst_[A-Za-z0-9_-]{43}$/);
    const row = await db.prisma.apiToken.findUniqueOrThrow({ where: { id: info.id } });
    expect(row.hash).not.toContain(token);
    expect(JSON.stringify(row)).not.toContain(token.slice(10));

    const who = await identity.identify(headers({ authorization: `Bearer ${token}` }));
    expect(who.principal).toMatchObject({ via: "token", role: "runner", actor: "rita@example.com", tokenId: info.id, tokenName: "ci" });
    expect((await identity.tokens.get(info.id))?.lastUsedAt).not.toBeNull();

    // The owner's role caps the token at every use.
    await users.update(rita.id, { role: "viewer" });
    expect((await identity.identify(headers({ authorization: `Bearer ${token}` }))).principal?.role).toBe("viewer");
    await users.update(rita.id, { role: "runner" });

    const past = await identity.tokens.create({ id: rita.id, role: "runner" }, { name: "short", expiresAt: new Date(Date.now() + 50) });
    await new Promise((r) => setTimeout(r, 80));
    expect(await identity.identify(headers({ authorization: `Bearer ${past.token}` }))).toMatchObject({ principal: null, problem: "expired" });

    await identity.tokens.revoke(info.id);
    expect(await identity.identify(headers({ authorization: `Bearer ${token}` }))).toMatchObject({ principal: null, problem: "revoked" });
    expect(await identity.identify(headers({ authorization: "Bearer tst_nottherightone" }))).toMatchObject({ principal: null, problem: "invalid" });
  });

  it("a token and its audit entry commit together: an entry the log refuses leaves no token behind", async () => {
    const owner = await users.create({ email: "tara@example.com", name: "Tara", role: "runner", password: "tara-password-1" });
    const entry = (info: { id: string; name: string }) => ({
      actor: owner.email,
      action: "token.create" as const,
      target: info.name,
      detail: { tokenId: info.id },
    });
    const { info } = await identity.tokens.create({ id: owner.id, role: "runner" }, { name: "kept" }, new Date(), { log: audit, entry });
    const written = await audit.list({ action: "token.create", limit: 200 });
    expect(written.entries.find((e) => (e.detail as { tokenId?: string }).tokenId === info.id)).toMatchObject({ target: "kept", actor: owner.email });
    // An entry the log refuses (an action outside its rules) rolls the token back with it.
    const refused = { log: audit, entry: (i: { name: string }) => ({ actor: owner.email, action: "Not An Action" as AuditAction, target: i.name }) };
    await expect(identity.tokens.create({ id: owner.id, role: "runner" }, { name: "lost" }, new Date(), refused)).rejects.toThrow();
    expect((await identity.tokens.list(owner.id)).map((t) => t.name)).toEqual(["kept"]);
    // The same for a revocation: refused, the token stays live; audited, it is revoked with its entry.
    await expect(identity.tokens.revoke(info.id, new Date(), refused)).rejects.toThrow();
    expect((await identity.tokens.get(info.id))?.revokedAt).toBeNull();
    await identity.tokens.revoke(info.id, new Date(), {
      log: audit,
      entry: (i) => ({ actor: owner.email, action: "token.revoke", target: i.name, detail: { tokenId: i.id } }),
    });
    expect((await identity.tokens.get(info.id))?.revokedAt).toBeTruthy();
    expect((await audit.list({ action: "token.revoke", limit: 200 })).entries.some((e) => (e.detail as { tokenId?: string }).tokenId === info.id)).toBe(true);
  });

  it("each change to a person commits with its audit entries: an entry the log refuses leaves the change undone", async () => {
    const refusedAs = <R>() => ({ log: audit, entries: (_r: R) => ({ actor: "admin@x", action: "Not An Action" as AuditAction }) });
    const logged = async (action: AuditAction, userId: string) =>
      (await audit.list({ action, limit: 200 })).entries.filter((e) => (e.detail as { userId?: string }).userId === userId);

    // Create: refused, nobody was added; audited, the person and the entry are both there.
    await expect(users.create({ email: "ines@example.com", password: "ines-password-1", role: "viewer" }, refusedAs())).rejects.toThrow();
    expect((await users.list()).some((u) => u.email === "ines@example.com")).toBe(false);
    const ines = await users.create(
      { email: "ines@example.com", password: "ines-password-1", role: "viewer" },
      { log: audit, entries: (u) => ({ actor: "admin@x", action: "user.create", target: u.email, detail: { userId: u.id, role: u.role } }) },
    );
    expect(await logged("user.create", ines.id)).toHaveLength(1);
    expect((await signIn("ines@example.com", "ines-password-1", "10.77.0.1")).status).toBe(200);

    // Update: refused, the role and the password are as they were.
    await expect(users.update(ines.id, { role: "runner", password: "ines-password-2" }, refusedAs())).rejects.toThrow();
    expect((await users.get(ines.id))?.role).toBe("viewer");
    expect((await signIn("ines@example.com", "ines-password-1", "10.77.0.2")).status).toBe(200);
    const change = await users.update(
      ines.id,
      { role: "runner", name: "Inès" },
      {
        log: audit,
        entries: ({ user, before, changes }) => [
          { actor: "admin@x", action: "user.role", target: user.email, detail: { userId: user.id, from: before.role, to: user.role } },
          { actor: "admin@x", action: "user.update", target: user.email, detail: { userId: user.id, changed: changes.filter((c) => c !== "role") } },
        ],
      },
    );
    expect(change.changes).toEqual(["role", "name"]);
    expect((await logged("user.role", ines.id))[0]?.detail).toMatchObject({ from: "viewer", to: "runner" });
    expect((await logged("user.update", ines.id))[0]?.detail).toMatchObject({ changed: ["name"] });
    // Nothing to change: no write, no entry.
    await users.update(ines.id, { role: "runner" }, refusedAs());

    // Sessions and removal alike.
    await expect(users.revokeSessions(ines.id, refusedAs())).rejects.toThrow();
    expect((await users.get(ines.id))?.activeSessions).toBeGreaterThan(0);
    expect(
      await users.revokeSessions(ines.id, {
        log: audit,
        entries: (n) => ({ actor: "admin@x", action: "user.sign-out-everywhere", detail: { userId: ines.id, sessions: n } }),
      }),
    ).toBeGreaterThan(0);
    expect((await users.get(ines.id))?.activeSessions).toBe(0);
    await expect(users.remove(ines.id, refusedAs())).rejects.toThrow();
    expect(await users.get(ines.id)).not.toBeNull();
    await users.remove(ines.id, { log: audit, entries: (u) => ({ actor: "admin@x", action: "user.delete", target: u.email, detail: { userId: u.id } }) });
    expect(await users.get(ines.id)).toBeNull();
    expect(await logged("user.delete", ines.id)).toHaveLength(1);
    expect((await audit.verify()).ok).toBe(true);
  });

  it("STUDIO_ADMIN_TOKEN is an admin everywhere; STUDIO_MCP_TOKEN a runner on /api/mcp only; a bad bearer never falls back to the cookie", async () => {
    expect((await identity.identify(headers({ authorization: "Bearer admin-secret-token" }))).principal).toMatchObject({
      via: "admin-token",
      role: "admin",
      userId: null,
    });
    expect((await identity.identify(headers({ authorization: "Bearer mcp-secret-token" }), { mcp: true })).principal).toMatchObject({
      via: "mcp-token",
      role: "runner",
    });
    expect((await identity.identify(headers({ authorization: "Bearer mcp-secret-token" }))).principal).toBeNull();
    const ok = await signIn("vic@example.com", "password-2");
    expect((await identity.identify(headers({ authorization: "Bearer wrong", cookie: ok.cookie ?? "" }))).principal).toBeNull();
  });
});

describe("a run and its audit entry", () => {
  it("commit together, naming the user and the token", async () => {
    const echo = defineTool({
      name: "echo",
      description: "echo",
      inputSchema: { type: "object", properties: { msg: { type: "string" } }, additionalProperties: false } as const,
      annotations: { readOnlyHint: true },
      async run({ msg }) {
        return structured({ msg });
      },
    });
    const registry = new Registry();
    registry.addSource({ id: "builtin", list: () => [echo] });
    const runs = new RunStore(db.prisma, { audit: runAudit(audit) });
    const run = await executeTool(
      { registry, runs },
      { tool: "echo", arguments: { msg: "hi" }, origin: "api", actor: "rita@example.com", actorId: "user-1", tokenId: "token-1", role: "runner" },
    );
    expect(run).toMatchObject({ status: "success", actor: "rita@example.com", actorId: "user-1", tokenId: "token-1", origin: "api" });
    const { entries } = await audit.list({ action: "run", limit: 1 });
    expect(entries[0]).toMatchObject({
      actor: "rita@example.com",
      target: "echo",
      detail: { runId: run.id, status: "success", origin: "api", userId: "user-1", tokenId: "token-1" },
    });
    expect((await runs.list({ actor: "rita@example.com" })).runs[0]?.id).toBe(run.id);

    const denied = await executeTool(
      { registry, runs, runPolicy: () => [{ tool: "echo", role: "admin" }] },
      { tool: "echo", arguments: {}, origin: "api", actor: "rita@example.com", role: "runner" },
    );
    expect(denied).toMatchObject({ status: "rejected", error: { kind: "permission_denied", message: expect.stringMatching(/needs the admin role/) } });
    expect((await audit.verify()).ok).toBe(true);
  });

  it("group-committed: of runs finishing together, one the database refuses is lost alone, with no entry", async () => {
    const runs = new RunStore(db.prisma, { audit: runAudit(audit) });
    const start = (i: number, args: unknown) => ({
      id: crypto.randomUUID(),
      toolName: "echo",
      toolSource: "builtin",
      toolSpecHash: "h",
      arguments: args,
      startedAt: new Date(),
      actor: `batch-${i}@example.com`,
      origin: "api" as const,
    });
    const starts = Array.from({ length: 12 }, (_, i) => start(i, i === 5 ? { msg: "nul \u0000 here" } : { msg: `m${i}` }));
    const results = await Promise.allSettled(
      starts.map((s) => runs.record(s, { status: "rejected", finishedAt: new Date(), error: { kind: "invalid_args", message: "x" } })),
    );
    expect(results.map((r) => r.status)).toEqual(starts.map((_, i) => (i === 5 ? "rejected" : "fulfilled")));
    const { entries } = await audit.list({ action: "run", limit: 50 });
    const ids = new Set(entries.map((e) => (e.detail as { runId: string }).runId));
    starts.forEach((s, i) => expect(ids.has(s.id), `entry of run ${i}`).toBe(i !== 5));
    expect(await runs.get(starts[5]!.id)).toBeNull();
    expect((await audit.verify()).ok).toBe(true);
  });

  it("runs a dead process left running are marked interrupted at start, each with its audit entry", async () => {
    const runs = new RunStore(db.prisma, { audit: runAudit(audit) });
    const id = crypto.randomUUID();
    await runs.start({
      id,
      toolName: "echo",
      toolSource: "builtin",
      toolSpecHash: "h",
      arguments: {},
      startedAt: new Date(),
      actor: "gone@example.com",
      origin: "api",
    });
    expect(await runs.markInterrupted()).toBe(1);
    expect(await runs.get(id)).toMatchObject({ status: "interrupted" });
    const { entries } = await audit.list({ action: "run", actor: "gone@example.com" });
    expect(entries[0]?.detail).toMatchObject({ runId: id, status: "interrupted" });
  });
});
