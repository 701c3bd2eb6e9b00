import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, ProtocolError, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { createBuiltinSource } from "@/lib/builtin-tools";
import { RuntimeConfigSchema } from "@/lib/config/schema";
import { DomainService } from "@/lib/domains/service";
import { executeTool, type ExecuteRequest } from "@/lib/execution/execute";
import type { Principal } from "@/lib/auth/principal";
import { META } from "@/lib/mcp-server/mapping";
import { closeMcpEndpoint, createStudioMcpServer, handleMcpRequest, type McpServerDeps, type McpStudio } from "@/lib/mcp-server/server";
import { LegacySessions } from "@/lib/mcp-server/sessions";
import { OutboxStore } from "@/lib/outbox/store";
import { Registry, type ToolSourceProvider } from "@/lib/registry/registry";
import { RunStore } from "@/lib/runs/store";
import type { Run } from "@/lib/runs/types";
import { ToolError } from "@/lib/tools/errors";
import { text } from "@/lib/tools/output";
import { createTestDatabase, type TestDatabase } from "./helpers/db";
import { modernRequest } from "./helpers/mcp";

// The studio as an MCP server: a real registry (built-in tools plus an MCP-proxied and a
// runtime-defined tool), a real run store on PostgreSQL, and the real v2 MCP client whose
// transport `fetch` calls handleMcpRequest directly (no network).

const URL_ = new URL("http://127.0.0.1:3000/api/mcp");
const MODERN = "2026-07-28";

let db: TestDatabase;
let runs: RunStore;
let registry: Registry;
let studio: McpStudio;

/** Tools of the other two source kinds, with every optional field of a ToolSpec set. */
const extraSource: ToolSourceProvider = {
  id: "test-extras",
  list: () => [
    {
      spec: {
        name: "demo__echo",
        title: "Echo (proxied)",
        description: "Echoes its text; stands in for a tool proxied from an MCP server.",
        inputSchema: { $schema: "https://json-schema.org/draft/2020-12/schema", type: "object", properties: { text: { type: "string" } }, required: ["text"] },
        outputSchema: { type: "object", properties: { echoed: { type: "string" } }, required: ["echoed"] },
        annotations: { title: "Echo", readOnlyHint: true, openWorldHint: false },
        icons: [{ src: "data:image/svg+xml;base64,PHN2Zy8+", mimeType: "image/svg+xml", sizes: ["any"], theme: "light" }],
        _meta: { "com.example/owner": "team-a" },
        execution: { taskSupport: "optional" },
        paramDomains: { text: "tool_names" },
        invocationTriggers: ["echo"],
        timeoutMs: 5_000,
        source: { kind: "mcp", id: "mcp:demo", server: "demo" },
        raw: { name: "echo", secretField: "never listed" },
      },
      invoke: async (args) => ({ content: [text(String(args.text))], structuredContent: { echoed: args.text } }),
    },
    {
      spec: {
        name: "down__ping",
        description: "A proxied tool whose server is down.",
        inputSchema: { type: "object" },
        source: { kind: "mcp", id: "mcp:down", server: "down" },
        unavailable: 'MCP server "down" is not connected: connection refused',
      },
      invoke: async () => {
        throw new ToolError("network", 'MCP server "down" is not connected.', { detail: "ECONNREFUSED 127.0.0.1:9 (operator only)" });
      },
    },
    {
      spec: {
        name: "rt_hello",
        description: "Defined at run time.",
        inputSchema: { type: "object", properties: {} },
        source: { kind: "runtime", id: "runtime" },
      },
      invoke: async () => ({ content: [text("hello")] }),
    },
  ],
};

beforeAll(async () => {
  db = await createTestDatabase();
  const outbox = new OutboxStore(db.prisma);
  const config = RuntimeConfigSchema.parse({});
  runs = new RunStore(db.prisma);
  registry = new Registry();
  registry.addSource(createBuiltinSource({ outbox, config: () => config, listTools: () => registry.list() }));
  registry.addSource(extraSource);
  const domains = new DomainService({ config: () => config, tools: async () => (await registry.snapshot()).tools });
  // Built the way lib/studio/studio.ts boot() builds it.
  studio = { registry, execute: (req: ExecuteRequest) => executeTool({ registry, runs, domains }, req) };
});
afterAll(async () => {
  if (studio) await closeMcpEndpoint(studio);
  await db?.drop();
});

const depsWith = (): McpServerDeps => ({ studio, actor: "tester" });

async function connect(opts: { era?: "modern" | "legacy"; name?: string; token?: string } = {}): Promise<Client> {
  const era = opts.era ?? "modern";
  const deps = depsWith();
  const client = new Client(
    { name: opts.name ?? "vitest-client", version: "1.0.0" },
    era === "modern" ? { versionNegotiation: { mode: { pin: MODERN } } } : {},
  );
  const transport = new StreamableHTTPClientTransport(URL_, {
    // Request carries the client's AbortSignal, as a real HTTP server's request would.
    fetch: (url, init) => handleMcpRequest(new Request(url, init), deps),
    ...(opts.token ? { requestInit: { headers: { authorization: `Bearer ${opts.token}` } } } : {}),
  });
  await client.connect(transport);
  return client;
}

const rawModern = (method: string, params: Record<string, unknown> = {}, headers: Record<string, string> = {}): Request =>
  modernRequest(URL_, method, params, headers);

const runIdOf = (result: { _meta?: Record<string, unknown> }): string => String(result._meta?.[META.runId]);

async function waitForRun(id: () => Promise<Run | undefined>, done: (r: Run) => boolean, ms = 10_000): Promise<Run> {
  const until = Date.now() + ms;
  for (;;) {
    const run = await id();
    if (run && done(run)) return run;
    if (Date.now() > until) throw new Error(`run did not reach the expected state: ${JSON.stringify(run)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe("protocol negotiation", () => {
  it("a 2026-07-28 client negotiates the revision through server/discover (there is no initialize in it)", async () => {
    const client = await connect();
    expect(client.getNegotiatedProtocolVersion()).toBe(MODERN);
    expect(client.getProtocolEra()).toBe("modern");
    expect(client.getServerVersion()).toMatchObject({ name: "tool-studio" });
    expect(client.getServerCapabilities()?.tools).toEqual({ listChanged: true });
    await client.close();
  });

  it("a 2025-era client gets the initialize handshake and a session", async () => {
    const client = await connect({ era: "legacy", name: "old-client" });
    expect(client.getProtocolEra()).toBe("legacy");
    expect(client.getNegotiatedProtocolVersion()).toBe("2025-11-25");
    const result = await client.callTool({ name: "add", arguments: { a: 1, b: 2 } });
    expect(result.structuredContent).toEqual({ sum: 3 });
    // The name from initialize's clientInfo is captured on the run.
    expect(await runs.get(runIdOf(result))).toMatchObject({ origin: "mcp", clientName: "old-client", status: "success" });
    await client.close();
  });
});

describe("tools/list", () => {
  it("lists every tool of the registry with its schemas, annotations and studio extras under _meta", async () => {
    const client = await connect();
    const { tools } = await client.listTools();
    const specs = await registry.list();
    expect(tools.map((t) => t.name).sort()).toEqual(specs.map((s) => s.name).sort());
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(["add", "slow_count", "fail", "send_message", "demo__echo", "down__ping", "rt_hello"]));
    for (const spec of specs) {
      const tool = tools.find((t) => t.name === spec.name)!;
      expect(tool.inputSchema).toEqual(spec.inputSchema);
      expect(tool.outputSchema).toEqual(spec.outputSchema);
      expect(tool.annotations).toEqual(spec.annotations);
      expect(tool.title).toEqual(spec.title);
      expect(tool.description).toEqual(spec.description);
      expect(tool._meta?.[META.source]).toEqual(spec.source);
    }
    const add = tools.find((t) => t.name === "add")!;
    expect(add.annotations).toEqual({ title: "Add two integers", readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false });
    expect(add.outputSchema).toMatchObject({ properties: { sum: { type: "integer" } }, required: ["sum"] });
    const send = tools.find((t) => t.name === "send_message")!;
    expect(send._meta?.[META.paramDomains]).toBeTruthy();
    await client.close();
  });

  it("sends each definition exactly as declared on the wire: icons, _meta, execution, unavailable; never `raw`", async () => {
    const res = await handleMcpRequest(rawModern("tools/list"), depsWith());
    expect(res.status).toBe(200);
    const { result } = await res.json();
    const echo = result.tools.find((t: { name: string }) => t.name === "demo__echo");
    expect(echo).toEqual({
      name: "demo__echo",
      title: "Echo (proxied)",
      description: "Echoes its text; stands in for a tool proxied from an MCP server.",
      inputSchema: { $schema: "https://json-schema.org/draft/2020-12/schema", type: "object", properties: { text: { type: "string" } }, required: ["text"] },
      outputSchema: { type: "object", properties: { echoed: { type: "string" } }, required: ["echoed"] },
      annotations: { title: "Echo", readOnlyHint: true, openWorldHint: false },
      icons: [{ src: "data:image/svg+xml;base64,PHN2Zy8+", mimeType: "image/svg+xml", sizes: ["any"], theme: "light" }],
      _meta: {
        "com.example/owner": "team-a",
        // 2026-07-28 has no Tool.execution (tasks are an extension): it travels under _meta.
        "dev.toolstudio/execution": { taskSupport: "optional" },
        "dev.toolstudio/paramDomains": { text: "tool_names" },
        "dev.toolstudio/invocationTriggers": ["echo"],
        "dev.toolstudio/source": { kind: "mcp", id: "mcp:demo", server: "demo" },
        "dev.toolstudio/timeoutMs": 5000,
      },
    });
    expect(JSON.stringify(result)).not.toContain("never listed");
    const down = result.tools.find((t: { name: string }) => t.name === "down__ping");
    expect(down._meta[META.unavailable]).toMatch(/not connected/);
    expect(result.tools.find((t: { name: string }) => t.name === "rt_hello")._meta[META.source]).toEqual({ kind: "runtime", id: "runtime" });
  });

  it("gives 2025-era clients `execution` as the top-level Tool field it is in their revision", async () => {
    const client = await connect({ era: "legacy" });
    const { tools } = await client.listTools();
    const echo = tools.find((t) => t.name === "demo__echo")!;
    expect(echo.execution).toEqual({ taskSupport: "optional" });
    expect(echo._meta?.[META.execution]).toBeUndefined();
    expect(echo.icons).toHaveLength(1);
    await client.close();
  });
});

describe("tools/call", () => {
  it("add returns structuredContent {sum} and is captured as a run with origin mcp and the client's name", async () => {
    const client = await connect({ name: "claude-test" });
    const result = await client.callTool({ name: "add", arguments: { a: 2, b: 40 } });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual({ sum: 42 });
    expect(result.content).toEqual([{ type: "text", text: JSON.stringify({ sum: 42 }, null, 2) }]);
    const run = await runs.get(runIdOf(result));
    expect(run).toMatchObject({
      tool: "add",
      status: "success",
      origin: "mcp",
      clientName: "claude-test",
      actor: "tester",
      arguments: { a: 2, b: 40 },
      outputValid: true,
    });
    const listed = await runs.list({ tool: "add" });
    expect(listed.runs.some((r) => r.id === run!.id && r.origin === "mcp" && r.clientName === "claude-test")).toBe(true);
    await client.close();
  });

  it("invalid arguments are captured as rejected and reported as isError with the field errors", async () => {
    const client = await connect();
    const result = await client.callTool({ name: "add", arguments: { a: "x" } });
    expect(result.isError).toBe(true);
    const message = (result.content as { type: string; text: string }[])[0].text;
    expect(message).toMatch(/rejected \(invalid_args\)/);
    expect(message).toContain("- /a: must be integer");
    expect(message).toContain("- /b: is required");
    expect(result._meta?.[META.fieldErrors]).toEqual(
      expect.arrayContaining([
        { path: "/a", message: "must be integer" },
        { path: "/b", message: "is required" },
      ]),
    );
    const run = await runs.get(runIdOf(result));
    expect(run).toMatchObject({ status: "rejected", origin: "mcp", clientName: "vitest-client", error: { kind: "invalid_args" } });
    expect(run!.error!.details).toEqual(expect.arrayContaining([{ path: "/a", message: "must be integer" }]));
    await client.close();
  });

  it("a tool error is isError with its kind and message, never the operator-only detail", async () => {
    const client = await connect();
    const thrown = await client.callTool({ name: "fail", arguments: { kind: "permission_denied", message: "no access" } });
    expect(thrown.isError).toBe(true);
    expect(thrown.content).toEqual([{ type: "text", text: "The tool failed (permission_denied): no access" }]);
    expect(thrown._meta?.[META.errorKind]).toBe("permission_denied");

    const crash = await client.callTool({ name: "fail", arguments: { kind: "other", mode: "crash", message: "SECRET stack text" } });
    expect(crash.isError).toBe(true);
    expect(JSON.stringify(crash)).not.toContain("SECRET");
    expect((await runs.get(runIdOf(crash)))?.status).toBe("error");

    const down = await client.callTool({ name: "down__ping", arguments: {} });
    expect(down.isError).toBe(true);
    expect(JSON.stringify(down.content)).toContain("(network)");
    expect(JSON.stringify(down)).not.toContain("ECONNREFUSED");
    await client.close();
  });

  it("an unknown tool is the JSON-RPC error -32602, and nothing is captured", async () => {
    const client = await connect();
    const err = await client.callTool({ name: "no_such_tool", arguments: {} }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProtocolError);
    expect((err as ProtocolError).code).toBe(-32602);
    expect((err as ProtocolError).message).toMatch(/Unknown tool: no_such_tool/);
    expect((await runs.list({ tool: "no_such_tool" })).runs).toHaveLength(0);
    await client.close();
  });

  it("runs proxied and runtime tools too", async () => {
    const client = await connect();
    // Its option domain (tool_names) is checked on MCP calls too.
    const echo = await client.callTool({ name: "demo__echo", arguments: { text: "add" } });
    expect(echo.structuredContent).toEqual({ echoed: "add" });
    expect(await runs.get(runIdOf(echo))).toMatchObject({ source: "mcp:demo", origin: "mcp", status: "success" });
    const outside = await client.callTool({ name: "demo__echo", arguments: { text: "hi" } });
    expect(outside.isError).toBe(true);
    expect(outside._meta?.[META.fieldErrors]).toEqual([{ path: "/text", message: expect.stringMatching(/not a valid choice/) }]);
    const hello = await client.callTool({ name: "rt_hello", arguments: {} });
    expect(hello.content).toEqual([{ type: "text", text: "hello" }]);
    await client.close();
  });
});

describe("progress and cancellation", () => {
  it("slow_count sends progress notifications when the client asks for them", async () => {
    const client = await connect();
    const updates: { progress: number; total?: number; message?: string }[] = [];
    const result = await client.callTool({ name: "slow_count", arguments: { steps: 3, delayMs: 10 } }, { onprogress: (p) => updates.push(p) });
    expect(result.structuredContent).toEqual({ counted: 3 });
    expect(updates).toEqual([
      { progress: 1, total: 3, message: "Counted 1 of 3" },
      { progress: 2, total: 3, message: "Counted 2 of 3" },
      { progress: 3, total: 3, message: "Counted 3 of 3" },
    ]);
    await client.close();
  });

  for (const era of ["modern", "legacy"] as const) {
    it(`cancelling a slow_count call cancels its run (${era === "modern" ? "2026-07-28: closing the stream" : "2025: notifications/cancelled"})`, async () => {
      const name = `cancel-${era}`;
      const client = await connect({ era, name });
      const controller = new AbortController();
      const call = client.callTool(
        { name: "slow_count", arguments: { steps: 100, delayMs: 50 } },
        { signal: controller.signal, onprogress: (p) => p.progress === 2 && controller.abort("enough") },
      );
      await expect(call).rejects.toThrow();
      const run = await waitForRun(
        async () => (await runs.list({ tool: "slow_count", limit: 20 })).runs.find((r) => r.clientName === name),
        (r) => r.status !== "running",
      );
      expect(run).toMatchObject({ status: "cancelled", origin: "mcp", error: { kind: "cancelled" } });
      await client.close();
    });
  }
});

describe("the caller", () => {
  const viewer: Principal = { via: "token", role: "viewer", userId: "u-1", actor: "vera@example.com", name: "Vera", tokenId: "t-1", tokenName: "ci" };
  const runner: Principal = { ...viewer, role: "runner", actor: "rita@example.com", userId: "u-2", tokenId: "t-2" };

  it("runs are attributed to the principal the door established, with its token", async () => {
    const res = await handleMcpRequest(rawModern("tools/call", { name: "add", arguments: { a: 1, b: 2 } }), depsWith(), runner);
    expect(res.status).toBe(200);
    const { runs: found } = await runs.list({ actor: "rita@example.com" });
    expect(found[0]).toMatchObject({ tool: "add", status: "success", origin: "mcp", actor: "rita@example.com", actorId: "u-2", tokenId: "t-2" });
  });

  it("the run policy applies to MCP callers: a viewer may list but not call", async () => {
    expect((await handleMcpRequest(rawModern("tools/list"), depsWith(), viewer)).status).toBe(200);
    const res = await handleMcpRequest(rawModern("tools/call", { name: "add", arguments: { a: 1, b: 2 } }), depsWith(), viewer);
    const body = JSON.stringify(await res.json());
    expect(body).toMatch(/needs the runner role/);
    const { runs: found } = await runs.list({ actor: "vera@example.com" });
    expect(found[0]).toMatchObject({ tool: "add", status: "rejected", error: { kind: "permission_denied" } });
  });
});

describe("2025-era sessions", () => {
  const initialize = (): Request =>
    new Request(URL_, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 0,
        method: "initialize",
        params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "sess", version: "1" } },
      }),
    });
  const stateless = async () => new Response("stateless", { status: 299 });

  it("an idle session is closed, and its id then answers 404", async () => {
    let now = 1_000;
    const sessions = new LegacySessions(() => createStudioMcpServer(studio), { idleMs: 60_000, now: () => now });
    const res = await sessions.handle(initialize(), stateless);
    expect(res.status).toBe(200);
    const id = res.headers.get("mcp-session-id")!;
    expect(id).toBeTruthy();
    expect(sessions.size).toBe(1);
    now += 30_000;
    expect(await sessions.sweep()).toBe(0);
    now += 61_000;
    expect(await sessions.sweep()).toBe(1);
    const gone = await sessions.handle(new Request(URL_, { method: "DELETE", headers: { "mcp-session-id": id } }), stateless);
    expect(gone.status).toBe(404);
    // Without a session id and without initialize, a request is served statelessly.
    expect((await sessions.handle(new Request(URL_, { method: "GET" }), stateless)).status).toBe(299);
    await sessions.closeAll();
  });

  it("GET and DELETE without a session are answered 405 (2026-07-28 has no GET stream; stateless 2025 serving has no session)", async () => {
    expect((await handleMcpRequest(new Request(URL_, { method: "GET", headers: { accept: "text/event-stream" } }), depsWith())).status).toBe(405);
    expect((await handleMcpRequest(new Request(URL_, { method: "DELETE" }), depsWith())).status).toBe(405);
    expect((await handleMcpRequest(new Request(URL_, { method: "GET", headers: { "mcp-session-id": "nope" } }), depsWith())).status).toBe(404);
  });

  it("DELETE ends a session; the oldest session makes room beyond the limit", async () => {
    const sessions = new LegacySessions(() => createStudioMcpServer(studio), { maxSessions: 2 });
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await sessions.handle(initialize(), stateless)).headers.get("mcp-session-id")!);
    expect(sessions.size).toBe(2);
    expect((await sessions.handle(new Request(URL_, { method: "DELETE", headers: { "mcp-session-id": ids[0] } }), stateless)).status).toBe(404);
    const del = await sessions.handle(
      new Request(URL_, { method: "DELETE", headers: { "mcp-session-id": ids[2], "mcp-protocol-version": "2025-11-25" } }),
      stateless,
    );
    expect(del.status).toBe(200);
    expect(sessions.size).toBe(1);
    await sessions.closeAll();
    expect(sessions.size).toBe(0);
  });
});
