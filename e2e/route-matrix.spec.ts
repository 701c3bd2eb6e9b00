import { expect, test } from "@playwright/test";
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { MCP_METHODS, ROUTES, type McpMethod, type RouteAccess } from "../lib/auth/routes";
import { FORBIDDEN_CODE } from "../lib/mcp-server/access";
import { roleAtLeast, type Role } from "../lib/auth/roles";

// Every route and page under app/ against every kind of caller. The table in lib/auth/routes.ts
// is what each route declares; this walks the files, so a route that is not declared, or that
// answers other than it declares, fails here.

const BASE = `http://127.0.0.1:${process.env.E2E_PORT ?? 3123}`;
const ADMIN = process.env.E2E_ADMIN_TOKEN!;
type Method = keyof RouteAccess["methods"];

function walk(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return e.name.startsWith("_") ? [] : walk(p);
    return /^(route\.ts|page\.tsx)$/.test(e.name) ? [p] : [];
  });
}

const files = walk("app").map((file) => {
  const dir = path
    .dirname(path.relative("app", file))
    .split(path.sep)
    .filter((s) => s !== "." && !s.startsWith("("));
  const pattern = "/" + dir.join("/");
  const methods = file.endsWith("page.tsx")
    ? ["GET"]
    : [...fs.readFileSync(file, "utf8").matchAll(/export (?:const|async function) (GET|POST|PUT|PATCH|DELETE)\b/g)].map((m) => m[1]!);
  return { file, pattern, methods: methods as Method[] };
});

const sample: Record<string, string> = { "[name]": "add", "[id]": randomUUID(), "[preset]": "no-such-preset", "[...all]": "get-session" };
const urlOf = (pattern: string) =>
  pattern
    .split("/")
    .map((s) => sample[s] ?? s)
    .join("/") || "/";

async function call(method: Method, url: string, auth: Record<string, string>): Promise<number> {
  const ctrl = new AbortController();
  const res = await fetch(BASE + url, {
    method,
    headers: { ...auth, ...(method === "GET" ? {} : { "content-type": "application/json", origin: BASE }) },
    // Writes carry a body no handler accepts, so walking the routes changes nothing.
    body: method === "GET" || method === "DELETE" ? undefined : "{",
    redirect: "manual",
    signal: ctrl.signal,
  });
  ctrl.abort(); // streams (SSE, exports) end here: only the status matters
  return res.status;
}

async function signIn(email: string, password: string): Promise<string> {
  const res = await fetch(`${BASE}/api/auth/sign-in/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: BASE },
    body: JSON.stringify({ email, password }),
  });
  expect(res.status, `sign-in of ${email}`).toBe(200);
  return res.headers
    .getSetCookie()
    .find((c) => c.startsWith("better-auth.session_token="))!
    .split(";")[0]!;
}

async function tokenFor(cookie: string, body: object): Promise<{ token: string; id: string }> {
  const res = await fetch(`${BASE}/api/tokens`, {
    method: "POST",
    headers: { cookie, origin: BASE, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  expect(res.status).toBe(201);
  const j = await res.json();
  return { token: j.token, id: j.info.id };
}

test("every route under app/ is declared, with the methods it exports", () => {
  expect(files.length).toBeGreaterThan(30);
  for (const f of files) {
    const declared = ROUTES.find((r) => r.pattern === f.pattern);
    expect(declared, `${f.file} has no entry in lib/auth/routes.ts`).toBeTruthy();
    expect(Object.keys(declared!.methods).sort(), `${f.file} exports other methods than it declares`).toEqual([...f.methods].sort());
  }
  for (const r of ROUTES)
    expect(
      files.some((f) => f.pattern === r.pattern),
      `${r.pattern} is declared but has no file`,
    ).toBe(true);
});

test("every route answers every kind of caller as it declares", async () => {
  test.setTimeout(180_000);
  const suffix = Date.now().toString(36);
  const admin = { authorization: `Bearer ${ADMIN}` };
  const people: Record<Role, { email: string; cookie?: string; token?: string }> = {
    viewer: { email: `matrix-viewer-${suffix}@example.com` },
    runner: { email: `matrix-runner-${suffix}@example.com` },
    admin: { email: `matrix-admin-${suffix}@example.com` },
  };
  for (const [role, p] of Object.entries(people) as [Role, (typeof people)[Role]][]) {
    const res = await fetch(`${BASE}/api/users`, {
      method: "POST",
      headers: { ...admin, "content-type": "application/json", origin: BASE },
      body: JSON.stringify({ email: p.email, password: "matrix-password", role }),
    });
    expect(res.status).toBe(201);
    p.cookie = await signIn(p.email, "matrix-password");
    p.token = (await tokenFor(p.cookie, { name: `matrix ${role}` })).token;
  }
  const expiring = await tokenFor(people.admin.cookie!, { name: "expiring", expiresAt: new Date(Date.now() + 1500).toISOString() });
  const revoked = await tokenFor(people.admin.cookie!, { name: "revoked" });
  expect((await fetch(`${BASE}/api/tokens/${revoked.id}`, { method: "DELETE", headers: { cookie: people.admin.cookie!, origin: BASE } })).status).toBe(200);
  await new Promise((r) => setTimeout(r, 1600));

  const callers: { name: string; role: Role | null; headers: Record<string, string> }[] = [
    { name: "anonymous", role: null, headers: {} },
    { name: "wrong token", role: null, headers: { authorization: "Bearer tst_this-is-not-a-token" } },
    { name: "expired token", role: null, headers: { authorization: `Bearer ${expiring.token}` } },
    { name: "revoked token", role: null, headers: { authorization: `Bearer ${revoked.token}` } },
    { name: "viewer token", role: "viewer", headers: { authorization: `Bearer ${people.viewer.token}` } },
    { name: "runner token", role: "runner", headers: { authorization: `Bearer ${people.runner.token}` } },
    { name: "admin token", role: "admin", headers: { authorization: `Bearer ${people.admin.token}` } },
    { name: "viewer session", role: "viewer", headers: { cookie: people.viewer.cookie! } },
    { name: "runner session", role: "runner", headers: { cookie: people.runner.cookie! } },
  ];

  const problems: string[] = [];
  for (const f of files) {
    const route = ROUTES.find((r) => r.pattern === f.pattern)!;
    for (const method of f.methods) {
      const access = route.methods[method]!;
      for (const c of callers) {
        const status = await call(method, urlOf(f.pattern), c.headers);
        const where = `${method} ${f.pattern} as ${c.name}: ${status}`;
        if (status >= 500) problems.push(`${where} (server error)`);
        else if (access === "public") {
          if (status === 401 || status === 403) problems.push(`${where} (public route refused)`);
        } else if (!c.role) {
          if (status !== 401) problems.push(`${where} (expected 401)`);
        } else if (!roleAtLeast(c.role, access)) {
          if (status !== 403) problems.push(`${where} (expected 403: needs ${access})`);
        } else if (status === 401 || status === 403) problems.push(`${where} (expected to be let in)`);
      }
    }
  }
  expect(problems).toEqual([]);

  // /api/mcp is one route carrying many actions: every JSON-RPC method of MCP_METHODS as every
  // caller, in each protocol era that has it (lib/mcp-server/access.ts).
  const mcpProblems: string[] = [];
  for (const c of callers) {
    for (const era of ["legacy", "modern"] as const) {
      const session = era === "legacy" ? await openMcpSession(c.headers) : { status: 0, id: undefined };
      if (!c.role) {
        const status = era === "legacy" ? session.status : (await mcpCall("modern", "tools/list", {}, c.headers)).status;
        if (status !== 401) mcpProblems.push(`/api/mcp ${era} as ${c.name}: ${status} (expected 401)`);
        continue;
      }
      for (const [method, need] of Object.entries(MCP_METHODS) as [McpMethod, Role][]) {
        if (!MCP_ERAS[method].includes(era) || method === "initialize") continue;
        const r = await mcpCall(era, method, MCP_SAMPLE_PARAMS[method] ?? {}, c.headers, session.id);
        const where = `/api/mcp ${era} ${method} as ${c.name}: HTTP ${r.status}, ${r.text.slice(0, 160)}`;
        const forbidden = r.body?.error?.code === FORBIDDEN_CODE;
        if (r.status >= 500 || r.status === 401 || r.status === 403) mcpProblems.push(`${where} (bad status)`);
        else if (method === "tools/call") {
          const refused = r.body?.result?.isError === true && JSON.stringify(r.body.result.content).includes("needs the runner role");
          if (refused !== !roleAtLeast(c.role, "runner"))
            mcpProblems.push(`${where} (the run policy should ${roleAtLeast(c.role, "runner") ? "let it run" : "refuse it"})`);
        } else if (forbidden !== !roleAtLeast(c.role, need)) mcpProblems.push(`${where} (expected ${forbidden ? "to be let in" : `a refusal: needs ${need}`})`);
      }
    }
  }
  expect(mcpProblems).toEqual([]);
});

/** Which protocol eras have each method: 2025-era sessions start with initialize; 2026-07-28 requests are stateless. */
const MCP_ERAS: Record<McpMethod, readonly ("legacy" | "modern")[]> = {
  initialize: ["legacy"],
  ping: ["legacy", "modern"],
  "server/discover": ["modern"],
  "logging/setLevel": ["legacy"],
  "subscriptions/listen": ["modern"],
  "tools/list": ["legacy", "modern"],
  "prompts/list": ["legacy", "modern"],
  "resources/list": ["legacy", "modern"],
  "resources/templates/list": ["legacy", "modern"],
  "tools/call": ["legacy", "modern"],
  "prompts/get": ["legacy", "modern"],
  "resources/read": ["legacy", "modern"],
  "resources/subscribe": ["legacy"],
  "resources/unsubscribe": ["legacy"],
  "completion/complete": ["legacy", "modern"],
};

const MCP_SAMPLE_PARAMS: Partial<Record<McpMethod, Record<string, unknown>>> = {
  "tools/call": { name: "add", arguments: { a: 2, b: 3 } },
  "prompts/get": { name: "matrix-no-such-prompt", arguments: {} },
  "resources/read": { uri: "matrix://no-such-resource" },
  "resources/subscribe": { uri: "matrix://no-such-resource" },
  "resources/unsubscribe": { uri: "matrix://no-such-resource" },
  "completion/complete": { ref: { type: "ref/prompt", name: "matrix-no-such-prompt" }, argument: { name: "a", value: "" } },
  "logging/setLevel": { level: "info" },
  "subscriptions/listen": { filter: { toolsListChanged: true } },
};

const MODERN_META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
  "io.modelcontextprotocol/clientInfo": { name: "route-matrix", version: "0" },
};

/** One JSON-RPC request to /api/mcp; a stream is read to its first message (subscriptions/listen never ends by itself). */
async function mcpCall(era: "legacy" | "modern", method: string, params: Record<string, unknown>, auth: Record<string, string>, session?: string) {
  const ctrl = new AbortController();
  const headers: Record<string, string> = { ...auth, origin: BASE, "content-type": "application/json", accept: "application/json, text/event-stream" };
  if (era === "modern") {
    // 2026-07-28 routes on headers that must agree with the body.
    const named = params.name ?? params.uri;
    Object.assign(headers, { "mcp-protocol-version": "2026-07-28", "mcp-method": method, ...(typeof named === "string" ? { "mcp-name": named } : {}) });
  } else if (session) Object.assign(headers, { "mcp-protocol-version": "2025-11-25", "mcp-session-id": session });
  const body = { jsonrpc: "2.0", id: 1, method, params: era === "modern" ? { ...params, _meta: MODERN_META } : params };
  const res = await fetch(`${BASE}/api/mcp`, { method: "POST", headers, body: JSON.stringify(body), signal: ctrl.signal });
  let text = "";
  if (res.headers.get("content-type")?.includes("text/event-stream") && res.body) {
    const reader = res.body.getReader();
    const decoder = new TextDecoder();
    // A 2025-era session's stream opens with a priming event (an id, no message).
    while (!/^data: \{.*$/m.test(text)) {
      const { done, value } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
    text =
      text
        .split("\n")
        .find((l) => l.startsWith("data: {"))
        ?.slice(6) ?? "";
  } else text = await res.text();
  ctrl.abort();
  let parsed: { result?: { isError?: boolean; content?: unknown }; error?: { code: number } } | undefined;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { status: res.status, body: parsed, text, session: res.headers.get("mcp-session-id") ?? undefined };
}

async function openMcpSession(auth: Record<string, string>): Promise<{ status: number; id: string | undefined }> {
  const init = await mcpCall(
    "legacy",
    "initialize",
    { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "route-matrix", version: "0" } },
    auth,
  );
  if (init.session) {
    const headers = {
      ...auth,
      origin: BASE,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2025-11-25",
      "mcp-session-id": init.session,
    };
    const res = await fetch(`${BASE}/api/mcp`, { method: "POST", headers, body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }) });
    await res.body?.cancel();
  }
  return { status: init.status, id: init.session };
}

test("a foreign Host gets 4xx on pages and the API, and paths nobody declared are refused", async () => {
  const http = await import("node:http");
  const get = (p: string, host: string) =>
    new Promise<number>((resolve, reject) => {
      const req = http.request(`${BASE}${p}`, { headers: { host, authorization: `Bearer ${ADMIN}` } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on("error", reject);
      req.end();
    });
  for (const p of ["/", "/settings", "/servers", "/runs", "/api/config", "/api/tools", "/sign-in"]) {
    expect(await get(p, "rebound.example:3123"), p).toBe(403);
  }
  expect(await call("GET", "/no-such-page", { authorization: `Bearer ${ADMIN}` })).toBe(404);
  expect(await call("GET", "/no-such-page", {})).toBe(401);
});
