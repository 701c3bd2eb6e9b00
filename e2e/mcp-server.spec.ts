import { expect, test, type APIRequestContext } from "@playwright/test";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";

// The studio as an MCP server over real HTTP (no browser): the v2 MCP client talks to
// /api/mcp of the running studio, and the calls show up as runs with origin "mcp".

type RunRow = { id: string; tool: string; status: string; origin: string; clientName: string | null; actor: string; tokenId: string | null };

// MCP clients authenticate like every other caller: here with a runner's personal API token.
const BASE = `http://127.0.0.1:${process.env.E2E_PORT ?? 3123}`;
const runnerEmail = `mcp-runner-${Date.now().toString(36)}@example.com`;
let token = "";
test.beforeAll(async () => {
  const admin = { authorization: `Bearer ${process.env.E2E_ADMIN_TOKEN}`, "content-type": "application/json", origin: BASE };
  expect(
    (
      await fetch(`${BASE}/api/users`, {
        method: "POST",
        headers: admin,
        body: JSON.stringify({ email: runnerEmail, password: "mcp-runner-pw", role: "runner" }),
      })
    ).status,
  ).toBe(201);
  const signIn = await fetch(`${BASE}/api/auth/sign-in/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: BASE },
    body: JSON.stringify({ email: runnerEmail, password: "mcp-runner-pw" }),
  });
  const cookie = signIn.headers
    .getSetCookie()
    .find((c) => c.startsWith("better-auth.session_token="))!
    .split(";")[0]!;
  const created = await fetch(`${BASE}/api/tokens`, {
    method: "POST",
    headers: { cookie, origin: BASE, "content-type": "application/json" },
    body: JSON.stringify({ name: "mcp e2e" }),
  });
  token = (await created.json()).token;
});

async function connect(baseURL: string, name: string, era: "modern" | "legacy", bearer = token): Promise<Client> {
  const client = new Client({ name, version: "1.0.0" }, era === "modern" ? { versionNegotiation: { mode: { pin: "2026-07-28" } } } : {});
  const transport = new StreamableHTTPClientTransport(new URL("/api/mcp", baseURL), { requestInit: { headers: { authorization: `Bearer ${bearer}` } } });
  await client.connect(transport);
  return client;
}

async function runsOf(request: APIRequestContext, tool: string): Promise<RunRow[]> {
  const res = await request.get(`/api/runs?tool=${tool}&limit=50`);
  expect(res.status()).toBe(200);
  return (await res.json()).runs;
}

for (const era of ["modern", "legacy"] as const) {
  test(`an MCP client (${era === "modern" ? "2026-07-28" : "2025-11-25"}) lists the tools, calls add, and the call is a run with origin mcp`, async ({
    baseURL,
    request,
  }) => {
    const name = `e2e-mcp-${era}`;
    const client = await connect(baseURL!, name, era);
    try {
      expect(client.getNegotiatedProtocolVersion()).toBe(era === "modern" ? "2026-07-28" : "2025-11-25");
      // A gateway clients can trust (issue 13): list changes are announced; logging is accepted.
      expect(client.getServerCapabilities()).toMatchObject({ tools: { listChanged: true }, logging: {} });
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(["add", "json_query", "chart_png", "fail", "slow_count", "create_event"]));
      const add = tools.find((t) => t.name === "add")!;
      expect(add.inputSchema).toMatchObject({ type: "object", required: ["a", "b"] });
      expect(add.outputSchema).toMatchObject({ type: "object", required: ["sum"] });
      expect(add.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
      expect(add._meta?.["dev.toolstudio/source"]).toEqual({ kind: "builtin", id: "builtin" });

      const result = await client.callTool({ name: "add", arguments: { a: 20, b: 22 } });
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent).toEqual({ sum: 42 });
      const runId = result._meta?.["dev.toolstudio/runId"];
      expect(typeof runId).toBe("string");

      const run = (await runsOf(request, "add")).find((r) => r.id === runId);
      expect(run).toMatchObject({ tool: "add", status: "success", origin: "mcp", clientName: name, actor: runnerEmail });
      expect(run?.tokenId).toBeTruthy();

      const invalid = await client.callTool({ name: "add", arguments: { a: "x" } });
      expect(invalid.isError).toBe(true);
      const rejected = (await runsOf(request, "add")).find((r) => r.id === invalid._meta?.["dev.toolstudio/runId"]);
      expect(rejected).toMatchObject({ status: "rejected", origin: "mcp" });
    } finally {
      await client.close();
    }
  });
}

test("closing the stream of a 2026-07-28 call cancels its run", async ({ baseURL, request }) => {
  const name = "e2e-mcp-cancel";
  const client = await connect(baseURL!, name, "modern");
  try {
    const controller = new AbortController();
    const call = client.callTool(
      { name: "slow_count", arguments: { steps: 100, delayMs: 100 } },
      { signal: controller.signal, onprogress: (p) => p.progress === 2 && controller.abort("enough") },
    );
    await expect(call).rejects.toThrow();
    await expect.poll(async () => (await runsOf(request, "slow_count")).find((r) => r.clientName === name)?.status, { timeout: 10_000 }).toBe("cancelled");
  } finally {
    await client.close();
  }
});

test("GET /api/mcp without a session is answered 405 (2026-07-28 has no GET stream)", async ({ request }) => {
  const get = await request.get("/api/mcp");
  expect(get.status()).toBe(405);
});

test("without a token the MCP endpoint answers 401 with a Bearer challenge", async ({ baseURL }) => {
  const res = await fetch(new URL("/api/mcp", baseURL), {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
    body: "{}",
  });
  expect(res.status).toBe(401);
  expect(res.headers.get("www-authenticate")).toMatch(/^Bearer /);
  await expect(connect(baseURL!, "no-token", "modern", "tst_wrong")).rejects.toThrow();
});
