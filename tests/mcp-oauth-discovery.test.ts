// Issue 37, item 6: an HTTP server's 401 `resource_metadata` made the studio fetch any URL it
// named (loopback included) on every reconnect, and showed viewers the status it got. Real
// servers on loopback: MCP servers that answer 401 naming URLs elsewhere, and a "bait" socket
// (IPv4 and IPv6 loopback) that records every connection made to it, which must stay at zero.
import net from "node:net";
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AuditLog } from "@/lib/audit";
import type { McpServerConfig } from "@/lib/mcp/connection";
import { connectionProvider, OAuthStore, SecretBox, SIGN_IN_FAILED, type OAuthDeps } from "@/lib/mcp/oauth";
import { oauthUrlRefusal } from "@/lib/mcp/oauth/fetch-guard";
import { McpManager } from "@/lib/mcp/source";
import { beginServerSignIn } from "@/lib/servers/oauth";
import { serverStateFor } from "@/lib/servers/view";
import { liveConnection } from "@/lib/servers/browse";
import { serveFetch, type FetchServer } from "@/tests/helpers/mcp-http";
import { createTestDatabase, type TestDatabase } from "./helpers/db";

let db: TestDatabase;
let bait: net.Server;
let baitPort = 0;
let baitHits = 0;
const servers: FetchServer[] = [];
let mcp: McpManager;
let oauth: OAuthDeps;
let config: McpServerConfig[] = [];
let asServer: { hits: string[]; keys: (string | null)[] };
let localIssuerKeys: (string | null)[] = [];

/** An MCP endpoint that refuses every request with a 401 challenge; `prm`: what its own well-known metadata says. */
async function challengingServer(
  challenge: (origin: string) => string,
  prm?: (origin: string) => unknown,
): Promise<{ url: string; hits: string[]; keys: (string | null)[] }> {
  const hits: string[] = [];
  const keys: (string | null)[] = [];
  let origin = "";
  const server = await serveFetch(async (req) => {
    const path = new URL(req.url).pathname;
    hits.push(path);
    keys.push(req.headers.get("x-api-key"));
    if (path.startsWith("/.well-known/oauth-protected-resource") && prm) return Response.json(prm(origin));
    if (path !== "/mcp") return new Response("not found", { status: 404 });
    return new Response("unauthorized", { status: 401, headers: { "WWW-Authenticate": challenge(origin) } });
  }, "/mcp");
  servers.push(server);
  origin = server.url.origin;
  return { url: server.url.href, hits, keys };
}

const baitUrl = (host = "127.0.0.1", scheme = "http") => `${scheme}://${host}:${baitPort}`;
const failedTwice = (name: string) => mcp.connection(name)!.waitFor((s) => s.state === "failed" && s.failures >= 2, 15_000);

beforeAll(async () => {
  db = await createTestDatabase();
  bait = net.createServer((socket) => {
    baitHits++;
    socket.destroy();
  });
  await new Promise<void>((resolve) => bait.listen({ port: 0, host: "::", ipv6Only: false }, resolve));
  baitPort = (bait.address() as net.AddressInfo).port;
  // The bait records what reaches it (a control, so that zero below means "not fetched").
  await fetch(`${baitUrl()}/probe`).catch(() => undefined);
  await fetch(`${baitUrl("localhost")}/probe`).catch(() => undefined);
  expect(baitHits).toBe(2);
  baitHits = 0;

  oauth = { store: new OAuthStore(db.prisma, new SecretBox(randomBytes(32).toString("base64url"))), baseUrl: "http://127.0.0.1:3999" };
  mcp = new McpManager({ backoff: { initialMs: 100, maxMs: 300, jitter: 0 }, healthCheckMs: 0, oauth: (s) => connectionProvider(oauth, s) });

  // 1. The 401 names protected resource metadata on another loopback port.
  const offOrigin = await challengingServer(() => `Bearer resource_metadata="${baitUrl()}/.well-known/oauth-protected-resource"`);
  // 2. Its own metadata names an authorization server over plain http on another host.
  const plainIssuer = await challengingServer(
    (o) => `Bearer resource_metadata="${o}/.well-known/oauth-protected-resource/mcp"`,
    (o) => ({ resource: `${o}/mcp`, authorization_servers: [baitUrl("localhost")] }),
  );
  // 3. ... or one over https at a loopback address other than its own host.
  const loopbackIssuer = await challengingServer(
    (o) => `Bearer resource_metadata="${o}/.well-known/oauth-protected-resource/mcp"`,
    (o) => ({ resource: `${o}/mcp`, authorization_servers: [baitUrl("[::1]", "https")] }),
  );
  // 4. An authorization server on its own host (allowed: a local setup), which knows nothing.
  const as = await challengingServer(() => "Bearer");
  const localIssuer = await challengingServer(
    (o) => `Bearer resource_metadata="${o}/.well-known/oauth-protected-resource/mcp"`,
    (o) => ({ resource: `${o}/mcp`, authorization_servers: [new URL(as.url).origin] }),
  );
  asServer = as;
  localIssuerKeys = localIssuer.keys;
  config = [
    { name: "localissuer", transport: "http", url: localIssuer.url, headers: { "X-Api-Key": "k-123456" }, enabled: true },
    { name: "offorigin", transport: "http", url: offOrigin.url, headers: {}, enabled: true },
    { name: "plainissuer", transport: "http", url: plainIssuer.url, headers: {}, enabled: true },
    { name: "loopbackissuer", transport: "http", url: loopbackIssuer.url, headers: {}, enabled: true },
  ];
  await mcp.sync(config);
}, 30_000);

afterAll(async () => {
  await mcp?.close();
  await Promise.all(servers.map((s) => s.close()));
  await new Promise((resolve) => bait?.close(resolve));
  await db?.drop();
});

describe("OAuth discovery fetches only the server's own origin, or the issuer it names over https", () => {
  it("a 401 naming resource metadata on another loopback port: never fetched, on any reconnect; the reason is for admins", async () => {
    const s = await failedTwice("offorigin");
    expect(baitHits).toBe(0);
    expect(s).toMatchObject({ authFailed: true, error: expect.stringContaining("protected resource metadata off its own origin") });
    expect(s.error).toContain(`${baitUrl()}/.well-known/oauth-protected-resource`);
    expect(s.authRequired).toBeUndefined();
    // Viewers and runners see that sign-in failed, not where the studio was sent or what it got.
    const state = mcp.states().find((x) => x.name === "offorigin")!;
    for (const role of ["viewer", "runner"] as const) {
      const shown = serverStateFor(state, role);
      expect(shown.error).toBe(SIGN_IN_FAILED);
      expect(JSON.stringify(shown)).not.toContain(String(baitPort));
    }
    expect(serverStateFor(state, "admin").error).toBe(s.error);
    // Its tools (listed to everyone) and its browse routes (viewers and runners) say the same.
    expect(() => liveConnection(mcp, "offorigin")).toThrow(
      expect.objectContaining({ status: 503, message: `MCP server "offorigin" is failed: ${SIGN_IN_FAILED}.` }),
    );
  });

  it("an authorization server over plain http on another host, or over https at loopback: refused before any connection", async () => {
    const plain = await failedTwice("plainissuer");
    const loop = await failedTwice("loopbackissuer");
    expect(baitHits).toBe(0);
    expect(plain).toMatchObject({ authFailed: true, error: expect.stringContaining("must be reached over https") });
    expect(loop).toMatchObject({ authFailed: true, error: expect.stringContaining("loopback or link-local") });
  });

  it("an authorization server on the server's own host is asked, without the headers configured for the server", async () => {
    const s = await failedTwice("localissuer");
    expect(s.authFailed).toBe(true);
    expect(asServer.hits.length).toBeGreaterThan(0);
    expect(asServer.keys.every((k) => k === null)).toBe(true);
    expect(localIssuerKeys).toContain("k-123456");
    // Its status reached the admin's reason, not a viewer's.
    expect(
      serverStateFor(
        mcp.states().find((x) => x.name === "localissuer")!,
        "viewer",
      ).error,
    ).toBe(SIGN_IN_FAILED);
  });

  it("an admin's sign-in follows the same rule: a 502 with the reason, the bait untouched", async () => {
    const deps = { oauth, mcp, audit: new AuditLog(db.prisma), servers: () => config };
    const who = { actor: "admin@example.com", from: null };
    // Without a 401 to read, the sign-in looks on the server's own origin only (and finds nothing there).
    await expect(beginServerSignIn(deps, "offorigin", who)).rejects.toMatchObject({ status: 502 });
    for (const name of ["plainissuer", "loopbackissuer"]) {
      await expect(beginServerSignIn(deps, name, who)).rejects.toMatchObject({ status: 502, message: expect.stringContaining("OAuth discovery refused") });
    }
    expect(baitHits).toBe(0);
  });
});

describe("oauthUrlRefusal", () => {
  const server = new URL("https://mcp.example.com/mcp");
  const refused = (url: string, from = server) => oauthUrlRefusal(from, new URL(url));
  it("allows the server's origin, https authorization servers, and plain http only on the server's own host", () => {
    expect(refused("https://mcp.example.com/.well-known/oauth-protected-resource/mcp")).toBeUndefined();
    expect(refused("https://auth.example.com/.well-known/oauth-authorization-server")).toBeUndefined();
    expect(refused("https://auth.example.com/token")).toBeUndefined();
    expect(refused("http://127.0.0.1:9000/token", new URL("http://127.0.0.1:8000/mcp"))).toBeUndefined();
  });
  it("refuses protected resource metadata elsewhere, plain http elsewhere, loopback and link-local over https, other schemes", () => {
    expect(refused("https://auth.example.com/.well-known/oauth-protected-resource")).toMatch(/own origin/);
    expect(refused("http://127.0.0.1:9000/.well-known/oauth-protected-resource", new URL("http://127.0.0.1:8000/mcp"))).toMatch(/own origin/);
    expect(refused("http://auth.example.com/token")).toMatch(/https/);
    for (const u of [
      "https://127.0.0.1/",
      "https://localhost/",
      "https://[::1]/",
      "https://169.254.169.254/",
      "https://[::ffff:127.0.0.1]/",
      "https://0.0.0.0/",
      "https://[fe80::1]/",
    ])
      expect(refused(u), u).toMatch(/loopback/);
    expect(refused("file:///etc/passwd")).toMatch(/https/);
  });
});
