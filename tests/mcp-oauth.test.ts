// OAuth for remote MCP servers, end to end without a browser: a real OpenID provider (dynamic
// client registration, PKCE, refresh tokens, resource indicators, 3 s JWT access tokens) and an
// MCP server that requires its tokens, both started here on loopback; the studio's side on a
// real PostgreSQL. The person at the provider's login and consent screens is played over HTTP.
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AuditLog } from "@/lib/audit";
import type { McpServerConfig } from "@/lib/mcp/connection";
import { connectionProvider, OAuthStore, redirectUrlFor, SecretBox, SIGN_IN_REQUIRED, stateHash, type OAuthDeps } from "@/lib/mcp/oauth";
import { McpManager } from "@/lib/mcp/source";
import type { ToolContext } from "@/lib/tools/define";
import { beginServerSignIn, completeServerSignIn, serverSignedIn, serverSignOut, type ServerOAuthDeps } from "@/lib/servers/oauth";
import { httpFailure } from "@/tests/helpers/http-error";
import { serveFetch } from "@/tests/helpers/mcp-http";
import { consentAtProvider, startOAuthFixture, type OAuthFixture } from "@/tests/helpers/oauth-servers";
import { createTestDatabase, type TestDatabase } from "./helpers/db";

const BASE = "http://127.0.0.1:3999";
const CALLBACK = redirectUrlFor(BASE, "secure");
const TTL_S = 3;
const who = { actor: "ana@example.com", userId: "u-ana", from: "local" };

let db: TestDatabase;
let fixture: OAuthFixture;
let audit: AuditLog;
let oauth: OAuthDeps;
let mcp: McpManager;
let deps: ServerOAuthDeps;
let servers: McpServerConfig[];
const secret = randomBytes(32).toString("base64url");

const ctx = (): ToolContext => ({ signal: new AbortController().signal, progress: () => {}, runId: "test-run", actor: who.actor });
const whoami = () => {
  const tool = mcp
    .connection("secure")!
    .tools()
    .find((t) => t.spec.name === "secure__whoami");
  if (!tool) throw new Error("no whoami tool");
  return tool.invoke({}, ctx());
};
const row = () => db.prisma.mcpOAuthCredential.findUniqueOrThrow({ where: { server: "secure" } });
const paramsOf = (url: string) => Object.fromEntries(new URL(url).searchParams);

/** One browser trip: start, log in and consent at the provider, the callback's parameters. */
async function signInTrip(actor = who.actor): Promise<Record<string, string>> {
  const started = await beginServerSignIn(deps, "secure", { ...who, actor });
  if (!("authorizationUrl" in started)) throw new Error("expected an authorization URL");
  return paramsOf(await consentAtProvider(started.authorizationUrl, CALLBACK));
}

beforeAll(async () => {
  db = await createTestDatabase();
  audit = new AuditLog(db.prisma);
  fixture = await startOAuthFixture({ accessTokenTtl: TTL_S });
  oauth = { store: new OAuthStore(db.prisma, new SecretBox(secret)), baseUrl: BASE };
  mcp = new McpManager({ backoff: { initialMs: 200, maxMs: 1_000, jitter: 0 }, healthCheckMs: 0, oauth: (s) => connectionProvider(oauth, s) });
  servers = [
    { name: "secure", transport: "http", url: fixture.mcpUrl, headers: {}, enabled: true },
    { name: "local", transport: "stdio", command: process.execPath, args: ["-e", "setTimeout(() => {}, 1e9)"], env: {}, enabled: false },
    { name: "plain", transport: "http", url: fixture.mcpUrl, headers: {}, enabled: false, oauth: false },
  ];
  deps = { oauth, mcp, audit, servers: () => servers };
  await mcp.sync(servers);
}, 30_000);

afterAll(async () => {
  await mcp?.close();
  await fixture?.close();
  await db?.drop();
});

describe("OAuth for a remote MCP server", () => {
  it("a server that answers 401 shows 'sign-in required', with the studio registered as a client (sealed)", async () => {
    const s = await mcp.connection("secure")!.waitFor((st) => st.state === "failed", 15_000);
    expect(s).toMatchObject({ authRequired: true, error: SIGN_IN_REQUIRED });
    expect(mcp.state("secure")).toMatchObject({ authRequired: true });
    expect(fixture.refused).toBeGreaterThan(0);
    // Dynamic client registration happened once, and its secret is sealed.
    const r = await row();
    expect(r.serverUrl).toBe(fixture.mcpUrl);
    expect(r.tokens).toBeNull();
    const client = await oauth.store.client({ server: "secure", url: fixture.mcpUrl });
    expect(client?.client_id).toBeTruthy();
    expect(r.client).toMatch(/^v1\./);
    expect(r.client).not.toContain(client!.client_id);
    if (client?.client_secret) expect(r.client).not.toContain(client.client_secret);
    expect(await serverSignedIn(deps, "secure")).toBe(false);
  });

  it("refuses a callback of someone else's sign-in, an unknown state, a refusal by the provider", async () => {
    const back = await signInTrip("mallory@example.com");
    expect(await httpFailureOf(completeServerSignIn(deps, "secure", back, who))).toMatchObject({
      status: 403,
      message: "This sign-in was started by someone else.",
    });
    expect(await httpFailureOf(completeServerSignIn(deps, "secure", { state: "nope", code: "x" }, who))).toMatchObject({ status: 400 });
    expect(await httpFailureOf(completeServerSignIn(deps, "secure", { code: "x" }, who))).toMatchObject({
      status: 400,
      message: "The sign-in callback has no state.",
    });
    const started = await beginServerSignIn(deps, "secure", who);
    if (!("authorizationUrl" in started)) throw new Error("expected an authorization URL");
    const state = new URL(started.authorizationUrl).searchParams.get("state");
    const refused = await httpFailureOf(completeServerSignIn(deps, "secure", { state, error: "access_denied" }, who));
    expect(refused).toMatchObject({ status: 400, message: "The authorization server refused the sign-in (access_denied)." });
  }, 20_000);

  it("signs in with authorization code + PKCE; the callback can land on another instance; tools list and run", async () => {
    const started = await beginServerSignIn(deps, "secure", who);
    if (!("authorizationUrl" in started)) throw new Error("expected an authorization URL");
    const auth = new URL(started.authorizationUrl);
    expect(auth.origin).toBe(fixture.issuer);
    const q = Object.fromEntries(auth.searchParams);
    expect(q).toMatchObject({
      response_type: "code",
      code_challenge_method: "S256",
      redirect_uri: CALLBACK,
      resource: fixture.mcpUrl,
      scope: expect.stringContaining("mcp"),
    });
    expect(q.state.length).toBeGreaterThanOrEqual(40);
    // The flow is in the database: state only as its hash, the verifier sealed.
    const flow = await db.prisma.mcpOAuthFlow.findUniqueOrThrow({ where: { stateHash: stateHash(q.state) } });
    expect(flow).toMatchObject({ server: "secure", actor: who.actor });
    expect(JSON.stringify(flow)).not.toContain(q.state);
    expect(flow.verifier).toMatch(/^v1\./);

    const back = paramsOf(await consentAtProvider(started.authorizationUrl, CALLBACK));
    expect(back).toMatchObject({ state: q.state, iss: fixture.issuer, code: expect.any(String) });

    // Another instance (its own store and key object, the same secret and database) finishes it.
    const other: ServerOAuthDeps = { ...deps, oauth: { store: new OAuthStore(db.prisma, new SecretBox(secret)), baseUrl: BASE } };
    await completeServerSignIn(other, "secure", back, who);
    const s = await mcp.connection("secure")!.waitFor((st) => st.state === "connected", 15_000);
    expect(s.authRequired).toBeUndefined();
    expect(
      mcp
        .connection("secure")!
        .tools()
        .map((t) => t.spec.name),
    ).toEqual(["secure__whoami"]);
    expect((await whoami()).content).toEqual([{ type: "text", text: "signed in as alice" }]);
    expect(await serverSignedIn(deps, "secure")).toBe(true);
    expect(await db.prisma.mcpOAuthFlow.count()).toBe(0);

    // The same callback again: refused (the state is used once).
    expect(await httpFailureOf(completeServerSignIn(deps, "secure", back, who))).toMatchObject({
      status: 400,
      message: expect.stringContaining("unknown, used or expired"),
    });
  });

  it("keeps the tokens sealed: not in the row, not in any state, not in the audit log", async () => {
    const tokens = await oauth.store.tokens({ server: "secure", url: fixture.mcpUrl });
    expect(tokens?.access_token).toBeTruthy();
    expect(tokens?.refresh_token).toBeTruthy();
    const r = await row();
    expect(r.tokens).toMatch(/^v1\./);
    for (const secretValue of [tokens!.access_token, tokens!.refresh_token!]) {
      expect(JSON.stringify(r)).not.toContain(secretValue);
      expect(JSON.stringify(mcp.states())).not.toContain(secretValue);
    }
    // Another key does not open them; a ciphertext moved to another field does not either.
    expect(() => new SecretBox("another-secret").open(r.tokens!, `tokens:secure:${fixture.mcpUrl}`)).toThrow();
    expect(() => new SecretBox(secret).open(r.tokens!, `client:secure:${fixture.mcpUrl}`)).toThrow();
    expect(await new OAuthStore(db.prisma, new SecretBox("another-secret")).tokens({ server: "secure", url: fixture.mcpUrl })).toBeUndefined();
    const { entries } = await audit.list({ action: "server.oauth.signin", limit: 5 });
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ actor: who.actor, target: "secure", detail: { url: fixture.mcpUrl, userId: "u-ana" } });
    expect(JSON.stringify(entries)).not.toContain(tokens!.access_token);
    expect(JSON.stringify(entries)).not.toContain(tokens!.refresh_token!);
  });

  it("refreshes an expired access token through the SDK, and the call still runs", async () => {
    const before = (await oauth.store.tokens({ server: "secure", url: fixture.mcpUrl }))!;
    const refusedBefore = fixture.refused;
    await new Promise((r) => setTimeout(r, (TTL_S + 1.5) * 1000));
    expect((await whoami()).content).toEqual([{ type: "text", text: "signed in as alice" }]);
    expect(fixture.refused).toBeGreaterThan(refusedBefore); // the expired token was refused once
    expect(fixture.grants.refresh_token).toBeGreaterThanOrEqual(1);
    const after = (await oauth.store.tokens({ server: "secure", url: fixture.mcpUrl }))!;
    expect(after.access_token).not.toBe(before.access_token);
    expect(fixture.accepted.at(-1)).toBe(after.access_token);
    expect(mcp.state("secure")?.state).toBe("connected");
  }, 20_000);

  it("Sign in while tokens are kept refreshes them without a browser trip", async () => {
    const refreshes = fixture.grants.refresh_token ?? 0;
    expect(await beginServerSignIn(deps, "secure", who)).toEqual({ authorized: true });
    expect(fixture.grants.refresh_token).toBe(refreshes + 1);
    const [entry] = (await audit.list({ action: "server.oauth.signin", limit: 1 })).entries;
    expect(entry).toMatchObject({ target: "secure", detail: { refreshed: true } });
    await mcp.connection("secure")!.waitFor((st) => st.state === "connected", 15_000);
  });

  it("answers clearly for servers OAuth is not for", async () => {
    expect(await httpFailureOf(beginServerSignIn(deps, "nope", who))).toMatchObject({ status: 404, message: 'No MCP server named "nope".' });
    expect(await httpFailureOf(beginServerSignIn(deps, "local", who))).toMatchObject({ status: 409, message: expect.stringContaining("stdio") });
    expect(await httpFailureOf(beginServerSignIn(deps, "plain", who))).toMatchObject({ status: 409, message: expect.stringContaining('"oauth": false') });
  });

  it("a server that answers 401 without speaking OAuth says so, and how to give it a fixed credential", async () => {
    const plain = await serveFetch(async () => new Response("no", { status: 401 }), "/mcp");
    const other = new McpManager({ backoff: { initialMs: 60_000, maxMs: 60_000 }, oauth: (s) => connectionProvider(oauth, s) });
    try {
      await other.sync([{ name: "keyed", transport: "http", url: plain.url.href, headers: {}, enabled: true }]);
      const s = await other.connection("keyed")!.waitFor((st) => st.state === "failed", 15_000);
      expect(s.authRequired).toBeUndefined();
      expect(s.error).toMatch(
        /^The server answered 401 and OAuth could not start: .+\. A server that takes a fixed credential instead needs it in "headers", with "oauth": false\.$/,
      );
    } finally {
      await other.close();
      await plain.close();
    }
  });

  it("signs out: the tokens are forgotten (audited) and the server needs a sign-in again", async () => {
    expect(await serverSignOut(deps, "secure", who)).toEqual({ signedOut: true });
    expect((await row()).tokens).toBeNull();
    expect(await serverSignedIn(deps, "secure")).toBe(false);
    const s = await mcp.connection("secure")!.waitFor((st) => st.state === "failed", 15_000);
    expect(s).toMatchObject({ authRequired: true, error: SIGN_IN_REQUIRED });
    const [entry] = (await audit.list({ action: "server.oauth.signout", limit: 1 })).entries;
    expect(entry).toMatchObject({ actor: who.actor, target: "secure", detail: { hadTokens: true } });
    // And in again, with the kept registration.
    const client = (await row()).client;
    const back = await signInTrip();
    await completeServerSignIn(deps, "secure", back, who);
    await mcp.connection("secure")!.waitFor((st) => st.state === "connected", 15_000);
    expect((await whoami()).content).toEqual([{ type: "text", text: "signed in as alice" }]);
    expect((await row()).client).toBe(client);
  }, 30_000);

  it("tokens are stored and forgotten with their entries: an entry the log refuses leaves the tokens as they were", async () => {
    // `from` that is no text: the log refuses the entry (AuditInputError), after the provider answered.
    // eslint-disable-next-line no-restricted-syntax -- a value no caller's types allow is the log's refusal under test
    const refused = { ...who, from: 5 as unknown as string };
    const count = async (action: string) => (await audit.list({ action, limit: 500 })).entries.length;
    const before = (await row()).tokens;
    const [ins, outs] = [await count("server.oauth.signin"), await count("server.oauth.signout")];
    expect(before).toBeTruthy();

    await expect(serverSignOut(deps, "secure", refused)).rejects.toThrow(/from must be a string/);
    expect((await row()).tokens).toBe(before);
    // A refresh the provider granted, and a code it exchanged: neither is kept without its entry.
    await expect(beginServerSignIn(deps, "secure", refused)).rejects.toThrow(/from must be a string/);
    expect((await row()).tokens).toBe(before);
    expect([await count("server.oauth.signin"), await count("server.oauth.signout")]).toEqual([ins, outs]);
    // Audited, the sign-out forgets them with its entry; then a code exchanged, refused: still none kept.
    await serverSignOut(deps, "secure", who);
    expect((await row()).tokens).toBeNull();
    await expect(completeServerSignIn(deps, "secure", await signInTrip(), refused)).rejects.toThrow(/from must be a string/);
    expect((await row()).tokens).toBeNull();
    expect([await count("server.oauth.signin"), await count("server.oauth.signout")]).toEqual([ins, outs + 1]);

    // Audited, the new tokens are kept with their entry, and the server answers with them.
    await completeServerSignIn(deps, "secure", await signInTrip(), who);
    expect((await row()).tokens).toBeTruthy();
    expect(await count("server.oauth.signin")).toBe(ins + 1);
    await mcp.connection("secure")!.waitFor((st) => st.state === "connected", 15_000);
    expect((await whoami()).content).toEqual([{ type: "text", text: "signed in as alice" }]);
    expect((await audit.verify()).ok).toBe(true);
  }, 30_000);

  it("a call whose expired token cannot be refreshed any more fails as permission_denied and the server needs a sign-in", async () => {
    expect(mcp.state("secure")?.state).toBe("connected");
    // The tokens are gone from the database (revoked elsewhere): once the access token expires, nothing gets past the 401.
    await oauth.store.forget("secure", "tokens");
    await new Promise((r) => setTimeout(r, (TTL_S + 1.5) * 1000));
    await expect(whoami()).rejects.toMatchObject({ kind: "permission_denied", message: expect.stringContaining("Sign-in required") });
    const s = await mcp.connection("secure")!.waitFor((st) => st.state === "failed" && !!st.authRequired, 15_000);
    expect(s.error).toBe(SIGN_IN_REQUIRED);
  }, 30_000);
});

/** The refusal a sign-in step fails with (an OAuthFlowError, answered by its kind's status). */
const httpFailureOf = httpFailure;
