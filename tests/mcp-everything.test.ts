// Compatibility: the v2 client against @modelcontextprotocol/server-everything (built on SDK v1,
// protocol 2025-11-25), started from node_modules over stdio and over Streamable HTTP, and
// against a bare 2025-06-18 server. The negotiated version must be the older one.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { McpConnection, type McpServerConfig } from "@/lib/mcp/connection";
import { eventually, everythingServerPath, startEverythingHttpServer, type ServerProcess } from "@/tests/helpers/mcp";
import type { ProgressUpdate, RegisteredTool, ToolContext } from "@/lib/tools/define";
import type { ContentBlock } from "@/lib/tools/output";
import { AuditLog } from "@/lib/audit";
import { cancelRun } from "@/lib/execution/active-runs";
import { executeTool } from "@/lib/execution/execute";
import type { InputEvent } from "@/lib/execution/pending-input";
import { answerRunInput, readRunInput } from "@/lib/execution/run-input";
import { HUMAN_MODEL } from "@/lib/mcp/client-requests";
import { RAW } from "@/lib/mcp/mapping";
import { callAsTask, type TaskState } from "@/lib/mcp/tasks";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { Registry } from "@/lib/registry/registry";
import { RunStore } from "@/lib/runs/store";
import { createTestDatabase, type TestDatabase } from "./helpers/db";

// The tools server-everything offers the studio, which declares elicitation (form and URL),
// sampling, roots and tasks: those registered after initialization (announced with list_changed) included.
const EVERYTHING_TOOLS = [
  "echo",
  "get-annotated-message",
  "get-env",
  "get-resource-links",
  "get-resource-reference",
  "get-structured-content",
  "get-sum",
  "get-tiny-image",
  "gzip-file-as-resource",
  "toggle-simulated-logging",
  "toggle-subscriber-updates",
  "trigger-long-running-operation",
  "simulate-research-query",
  "get-roots-list",
  "trigger-elicitation-request",
  "trigger-url-elicitation",
  "trigger-sampling-request",
  // Only offered to a client that takes elicitation and sampling as tasks (capabilities.tasks.requests).
  "trigger-elicitation-request-async",
  "trigger-sampling-request-async",
];
const ROOTS = [{ uri: "file:///tmp/studio-roots/project", name: "Project" }, { uri: "file:///tmp/studio-roots/scratch" }];

function ctx(): ToolContext & { updates: ProgressUpdate[] } {
  const updates: ProgressUpdate[] = [];
  return { signal: new AbortController().signal, progress: (u) => updates.push(u), runId: "r", actor: "test", updates };
}

const find = (conn: McpConnection, name: string): RegisteredTool => {
  const t = conn.tools().find((x) => x.spec.name === `${conn.name}__${name}`);
  if (!t) throw new Error(`no tool ${name}`);
  return t;
};

/** server-everything over `transport`, connected, with the roots above configured. */
async function connectEverything(transport: "stdio" | "http"): Promise<{ conn: McpConnection; http?: ServerProcess }> {
  let config: McpServerConfig;
  let http: ServerProcess | undefined;
  if (transport === "http") {
    http = await startEverythingHttpServer();
    config = { name: "everything", transport: "http", url: http.url, headers: {}, enabled: true, roots: ROOTS };
  } else {
    config = {
      name: "everything",
      transport: "stdio",
      command: process.execPath,
      args: [everythingServerPath(), "stdio"],
      env: {},
      enabled: true,
      roots: ROOTS,
    };
  }
  const conn = new McpConnection(config, { backoff: { initialMs: 200, maxMs: 2_000 } });
  await conn.connect();
  await eventually(() => conn.tools().length === EVERYTHING_TOOLS.length);
  return { conn, http };
}

describe.each(["stdio", "http"] as const)("server-everything over %s", (transport) => {
  let http: ServerProcess | undefined;
  let conn: McpConnection;

  beforeAll(async () => {
    ({ conn, http } = await connectEverything(transport));
  });

  afterAll(async () => {
    await conn?.close();
    await http?.stop();
  });

  it("negotiates the older protocol version (2025-11-25) with the 2026-07-28 client", () => {
    const s = conn.status();
    expect(s.state).toBe("connected");
    expect(s.protocolVersion).toBe("2025-11-25");
    expect(s.era).toBe("legacy");
    expect(s.serverInfo).toMatchObject({ name: "mcp-servers/everything" });
    expect(s.capabilities).toMatchObject({ tools: { listChanged: true } });
    if (transport === "stdio") expect(s.stderrTail.join("\n")).toMatch(/STDIO/);
  });

  it("lists all its tools with their annotations", async () => {
    // The last tool arrives with list_changed right after initialization.
    await eventually(() => conn.tools().length === EVERYTHING_TOOLS.length);
    const specs = conn.tools().map((t) => t.spec);
    expect(specs.map((s) => s.name).sort()).toEqual(EVERYTHING_TOOLS.map((n) => `everything__${n}`).sort());
    expect(conn.excluded).toEqual([]);
    for (const spec of specs) {
      const raw = spec.raw as Record<string, unknown>;
      expect(spec.annotations, spec.name).toBeDefined();
      expect(spec.annotations).toEqual(raw.annotations);
      expect(spec.inputSchema).toEqual(raw.inputSchema);
      expect(spec.source).toEqual({ kind: "mcp", id: "mcp:everything", server: "everything" });
    }
    const sum = find(conn, "get-sum").spec;
    expect(sum.title).toBe("Get Sum Tool");
    expect(sum.annotations).toEqual({ readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false });
    // 2025-11-25 still carries `execution`: it is kept.
    expect(sum.execution).toEqual({ taskSupport: "forbidden" });
    expect(find(conn, "get-structured-content").spec.outputSchema).toMatchObject({ type: "object" });
  });

  it("calls echo and get-sum", async () => {
    expect((await find(conn, "echo").invoke({ message: "hello" }, ctx())).content).toEqual([{ type: "text", text: "Echo: hello" }]);
    expect((await find(conn, "get-sum").invoke({ a: 2, b: 3 }, ctx())).content).toEqual([{ type: "text", text: "The sum of 2 and 3 is 5." }]);
  });

  it("returns an image", async () => {
    const out = await find(conn, "get-tiny-image").invoke({}, ctx());
    const img = out.content.find((b) => b.type === "image") as Extract<ContentBlock, { type: "image" }>;
    expect(img.mimeType).toBe("image/png");
    expect(Buffer.from(img.data, "base64").subarray(1, 4).toString("ascii")).toBe("PNG");
    expect(out.content.filter((b) => b.type === "text")).toHaveLength(2);
  });

  it("returns structured content", async () => {
    const out = await find(conn, "get-structured-content").invoke({ location: "New York" }, ctx());
    expect(out.structuredContent).toMatchObject({ temperature: expect.any(Number), conditions: expect.any(String) });
  });

  it("runs a tool whose task support is required as a task: its state shows as progress, its result arrives", async () => {
    const research = find(conn, "simulate-research-query");
    expect(research.spec.execution).toEqual({ taskSupport: "required" });
    const c = ctx();
    const out = await research.invoke({ topic: "tides" }, c);
    expect(out.content[0]).toMatchObject({ type: "text", text: expect.stringContaining("# Research Report: tides") });
    const messages = c.updates.map((u) => u.message);
    expect(messages[0]).toMatch(/^task working: /);
    // Polled every second (the task's pollInterval) while its four stages take a second each.
    expect(messages.length).toBeGreaterThanOrEqual(3);
    expect(messages.every((m) => /^task (working|completed)/.test(m ?? ""))).toBe(true);
  });

  it("a task whose run is cancelled is cancelled (the call ends at once)", async () => {
    const controller = new AbortController();
    const c = { ...ctx(), signal: controller.signal };
    const call = find(conn, "simulate-research-query").invoke({ topic: "moss" }, c);
    call.catch(() => {}); // awaited below
    await eventually(() => c.updates.length > 0);
    const t0 = Date.now();
    controller.abort(new Error("stop"));
    await expect(call).rejects.toThrow("stop");
    expect(Date.now() - t0).toBeLessThan(500);
  });

  it("forwards progress from a long-running operation", async () => {
    const c = ctx();
    await find(conn, "trigger-long-running-operation").invoke({ duration: 0.6, steps: 3 }, c);
    expect(c.updates.length).toBeGreaterThanOrEqual(1);
    expect(c.updates[0]).toMatchObject({ progress: expect.any(Number), total: 3 });
  });
});

// A run asks its caller: server-everything's elicitation and sampling requests reach the run's
// caller as requests for input, answered through the API's functions (lib/execution/run-input.ts,
// what POST /api/runs/{id}/input calls), the run captured in PostgreSQL and the answer audited.
describe.each(["stdio", "http"] as const)("a run of server-everything asks its caller for input (%s)", (transport) => {
  let http: ServerProcess | undefined;
  let conn: McpConnection;
  let db: TestDatabase;
  let runs: RunStore;
  let audit: AuditLog;
  const registry = new Registry();
  const ana = { actor: "ana@example.com", userId: "u-ana", role: "runner", from: "test" };

  beforeAll(async () => {
    db = await createTestDatabase();
    runs = new RunStore(db.prisma);
    audit = new AuditLog(db.prisma);
    ({ conn, http } = await connectEverything(transport));
    registry.addSource({ id: "mcp:everything", list: () => conn.tools() });
  });
  afterAll(async () => {
    await conn?.close();
    await http?.stop();
    await db?.drop();
  });

  /** The run's text output, once it succeeded. */
  async function successText(done: Promise<{ status: string; output?: { content: ContentBlock[] } | null }>): Promise<string> {
    const run = await done;
    expect(run.status).toBe("success");
    return (run.output?.content ?? []).map((b) => (b.type === "text" ? b.text : "")).join("\n");
  }

  /** Starts the tool as Ana and waits for its first request for input. */
  async function runAsking(tool: string, args: Record<string, unknown> = {}) {
    const events: InputEvent[] = [];
    const done = executeTool(
      { registry, runs },
      { tool: `everything__${tool}`, arguments: args, origin: "api", actor: ana.actor, actorId: ana.userId, timeoutMs: 20_000, onInput: (e) => events.push(e) },
    );
    const first = await eventually(() => events.find((e) => e.type === "input"));
    if (first.type !== "input") throw new Error("unreachable");
    return { events, done, input: first.input };
  }

  it("elicitation: the form request waits as input_required; only the caller or an admin answers; the answer is checked, sent and audited", async () => {
    const { events, done, input } = await runAsking("trigger-elicitation-request");
    expect(input).toMatchObject({ kind: "elicitation", mode: "form", server: "everything", message: expect.stringContaining("Please provide inputs") });
    const schema = input.kind === "elicitation" && input.mode === "form" ? input.requestedSchema : {};
    expect(schema).toMatchObject({ type: "object", required: ["name"] });
    expect(await readRunInput(runs, input.runId, ana)).toEqual({ state: "input_required", inputs: [input] });

    const bob = { actor: "bob@example.com", userId: "u-bob", role: "runner" };
    await expect(readRunInput(runs, input.runId, bob)).rejects.toMatchObject({ status: 403 });
    await expect(answerRunInput({ runs, audit }, input.runId, { inputId: input.id, action: "decline" }, bob)).rejects.toMatchObject({ status: 403 });
    // Invalid content: 400 with the field, the request still waits.
    await expect(answerRunInput({ runs, audit }, input.runId, { inputId: input.id, action: "accept", content: { check: true } }, ana)).rejects.toMatchObject({
      kind: "invalid_args",
      fields: [{ path: "/content/name", message: "is required" }],
    });
    await expect(answerRunInput({ runs, audit }, input.runId, { inputId: input.id, action: "approve", text: "no" }, ana)).rejects.toMatchObject({
      kind: "invalid_args",
    });

    const content = { name: "Ada Lovelace", check: true, integer: 7, untitledSingleSelectEnum: "Joey", apiKey: "s3cret" };
    expect(await answerRunInput({ runs, audit }, input.runId, { inputId: input.id, action: "accept", content }, ana)).toEqual({
      answered: true,
      inputId: input.id,
      action: "accept",
    });
    const run = await done;
    expect(run.status).toBe("success");
    const text = run.output!.content.map((b) => (b.type === "text" ? b.text : "")).join("\n");
    expect(text).toContain("User provided the requested information");
    expect(text).toContain("- Name: Ada Lovelace");
    expect(text).toContain("- Favorite Integer: 7");
    expect(events.at(-1)).toEqual({ type: "input_resolved", runId: run.id, inputId: input.id, outcome: "answered", action: "accept" });
    // Answered: nothing waits any more.
    expect(await readRunInput(runs, run.id, ana)).toEqual({ state: "success", inputs: [] });
    await expect(answerRunInput({ runs, audit }, run.id, { inputId: input.id, action: "decline" }, ana)).rejects.toMatchObject({ status: 409 });

    const [entry] = (await audit.list({ action: "run.input", limit: 1 })).entries;
    expect(entry).toMatchObject({
      actor: ana.actor,
      target: "everything__trigger-elicitation-request",
      detail: { runId: run.id, kind: "elicitation", mode: "form", action: "accept", userId: "u-ana" },
    });
    expect((entry.detail as { content: Record<string, unknown> }).content).toEqual({ ...content, apiKey: "[redacted]" });
  });

  it("elicitation: decline reaches the server; an admin may answer", async () => {
    const { done, input } = await runAsking("trigger-elicitation-request");
    await answerRunInput(
      { runs, audit },
      input.runId,
      { inputId: input.id, action: "decline" },
      { actor: "admin@example.com", userId: "u-admin", role: "admin" },
    );
    const run = await done;
    expect(JSON.stringify(run.output)).toContain("User declined");
  });

  it("elicitation: nobody answers in time: the server hears cancel, the run ends cleanly, the run's own timeout paused meanwhile", async () => {
    process.env.STUDIO_INPUT_TIMEOUT_MS = "400";
    try {
      const events: InputEvent[] = [];
      // A 300 ms run timeout would end the run while it waits, were it not paused.
      const run = await executeTool(
        { registry, runs },
        {
          tool: "everything__trigger-elicitation-request",
          arguments: {},
          origin: "api",
          actor: ana.actor,
          actorId: ana.userId,
          timeoutMs: 300,
          onInput: (e) => events.push(e),
        },
      );
      expect(run.status).toBe("success");
      expect(JSON.stringify(run.output)).toContain("User cancelled");
      expect(events.map((e) => (e.type === "input_resolved" ? e.outcome : e.type))).toEqual(["input", "timeout"]);
    } finally {
      delete process.env.STUDIO_INPUT_TIMEOUT_MS;
    }
  });

  it("elicitation: cancelling the run ends its request (cancel to the server)", async () => {
    const { events, done, input } = await runAsking("trigger-elicitation-request");
    expect(cancelRun(input.runId)).toBe(true);
    expect((await done).status).toBe("cancelled");
    expect(events.at(-1)).toMatchObject({ type: "input_resolved", outcome: "cancelled" });
  });

  it("a call from an MCP client (an agent, origin mcp) is not asked: elicitation is declined and sampling refused at once", async () => {
    const events: InputEvent[] = [];
    const base = { origin: "mcp", actor: ana.actor, actorId: ana.userId, timeoutMs: 20_000, onInput: (e: InputEvent) => events.push(e) } as const;
    const elicit = await executeTool({ registry, runs }, { ...base, tool: "everything__trigger-elicitation-request", arguments: {} });
    expect(JSON.stringify(elicit.output)).toContain("User declined");
    const sample = await executeTool({ registry, runs }, { ...base, tool: "everything__trigger-sampling-request", arguments: { prompt: "hi" } });
    expect(sample.status).toBe("error");
    expect(JSON.stringify(sample)).toContain("no person to ask");
    expect(events).toEqual([]);
  });

  it("URL elicitation: shown as an http(s) link; accepting means the person agreed to open it", async () => {
    const { done, input } = await runAsking("trigger-url-elicitation", { url: "https://example.com/authorize?x=1", message: "Sign in at the example" });
    expect(input).toMatchObject({ kind: "elicitation", mode: "url", url: "https://example.com/authorize?x=1", message: "Sign in at the example" });
    await answerRunInput({ runs, audit }, input.runId, { inputId: input.id, action: "accept", content: { ignored: true } }, ana);
    expect(JSON.stringify((await done).output)).toContain("completed the URL elicitation");
  });

  it("sampling: the messages are shown, the person writes and approves the reply (no model is called)", async () => {
    const { done, input } = await runAsking("trigger-sampling-request", { prompt: "Say hi", maxTokens: 50 });
    expect(input).toMatchObject({
      kind: "sampling",
      systemPrompt: "You are a helpful test server.",
      maxTokens: 50,
      messages: [{ role: "user", text: expect.stringContaining("Say hi") }],
    });
    await expect(answerRunInput({ runs, audit }, input.runId, { inputId: input.id, action: "approve", text: "   " }, ana)).rejects.toMatchObject({
      kind: "invalid_args",
    });
    await answerRunInput({ runs, audit }, input.runId, { inputId: input.id, action: "approve", text: "Hi from a person" }, ana);
    const run = await done;
    expect(run.status).toBe("success");
    const text = JSON.stringify(run.output);
    expect(text).toContain("Hi from a person");
    expect(text).toContain(HUMAN_MODEL);
    const [entry] = (await audit.list({ action: "run.input", limit: 1 })).entries;
    expect(entry.detail).toMatchObject({ kind: "sampling", action: "approve", replyChars: 16 });
  });

  it("sampling: a rejected request fails the server's call with the user's rejection", async () => {
    const { done, input } = await runAsking("trigger-sampling-request", { prompt: "Say hi" });
    await answerRunInput({ runs, audit }, input.runId, { inputId: input.id, action: "reject" }, ana);
    const run = await done;
    expect(run.status).toBe("error");
    expect(JSON.stringify(run)).toContain("rejected");
  });

  it("a task that needs input: the task's elicitation reaches the run's caller, the answer reaches the task", async () => {
    const { done, input } = await runAsking("simulate-research-query", { topic: "python", ambiguous: true });
    expect(input).toMatchObject({ kind: "elicitation", mode: "form", message: expect.stringContaining('"python" could have multiple interpretations') });
    const schema = (input.kind === "elicitation" && input.mode === "form" ? input.requestedSchema : {}) as {
      properties: { interpretation: { oneOf: { const: string }[] } };
    };
    const choice = schema.properties.interpretation.oneOf[0].const;
    await answerRunInput({ runs, audit }, input.runId, { inputId: input.id, action: "accept", content: { interpretation: choice } }, ana);
    const run = await done;
    expect(run.status).toBe("success");
    expect(JSON.stringify(run.output)).toContain(`**Clarification**: ${choice}`);
  });

  it("elicitation as a task (trigger-elicitation-request-async): the studio answers with a task, the person answers through the API, the server polls tasks/get and fetches tasks/result", async () => {
    const { done, input } = await runAsking("trigger-elicitation-request-async");
    expect(input).toMatchObject({ kind: "elicitation", mode: "form", message: expect.stringContaining("async task demo") });
    const schema = input.kind === "elicitation" && input.mode === "form" ? input.requestedSchema : {};
    expect(schema).toMatchObject({ type: "object", required: ["name"] });
    await expect(
      answerRunInput({ runs, audit }, input.runId, { inputId: input.id, action: "accept", content: { favoriteColor: "Blue" } }, ana),
    ).rejects.toMatchObject({ kind: "invalid_args" });
    await answerRunInput(
      { runs, audit },
      input.runId,
      { inputId: input.id, action: "accept", content: { name: "Grace Hopper", favoriteColor: "Blue", agreeToTerms: true } },
      ana,
    );
    const text = await successText(done);
    expect(text).toContain("[COMPLETED] User provided the requested information!");
    expect(text).toContain("- Name: Grace Hopper");
    expect(text).toContain("- Favorite Color: Blue");
    expect(text).toContain("- Agreed to terms: true");
    // The server saw the task created, then polled it until completed.
    expect(text).toMatch(/Task created: [0-9a-f-]{36}/);
    expect(text).toMatch(/Poll \d+: completed/);
    expect(text).toContain('"io.modelcontextprotocol/related-task"');
  });

  it("elicitation as a task, declined", async () => {
    const { done, input } = await runAsking("trigger-elicitation-request-async");
    await answerRunInput({ runs, audit }, input.runId, { inputId: input.id, action: "decline" }, ana);
    expect(JSON.stringify((await done).output)).toContain("[DECLINED]");
  });

  it("sampling as a task (trigger-sampling-request-async): the person's approved reply is the task's result", async () => {
    const { done, input } = await runAsking("trigger-sampling-request-async", { prompt: "Say hi", maxTokens: 40 });
    expect(input).toMatchObject({
      kind: "sampling",
      systemPrompt: "You are a helpful test server.",
      maxTokens: 40,
      messages: [{ role: "user", text: expect.stringContaining("Say hi") }],
    });
    await answerRunInput({ runs, audit }, input.runId, { inputId: input.id, action: "approve", text: "Hi, as a task" }, ana);
    const text = await successText(done);
    expect(text).toContain("[COMPLETED] Async sampling completed!");
    expect(text).toContain("Hi, as a task");
    expect(text).toContain(HUMAN_MODEL);
    expect(text).toMatch(/Poll \d+: completed/);
  });

  it("sampling as a task, rejected: the task fails with the rejection", async () => {
    const { done, input } = await runAsking("trigger-sampling-request-async", { prompt: "Say hi" });
    await answerRunInput({ runs, audit }, input.runId, { inputId: input.id, action: "reject" }, ana);
    const text = JSON.stringify((await done).output);
    expect(text).toContain("[FAILED]");
    expect(text).toContain("the user rejected the request");
  });

  it("roots: the server gets the roots configured for it", async () => {
    const out = await find(conn, "get-roots-list").invoke({}, ctx());
    const text = out.content.map((b) => (b.type === "text" ? b.text : "")).join("\n");
    expect(text).toContain("file:///tmp/studio-roots/project");
    expect(text).toContain("Project");
    expect(text).toContain("file:///tmp/studio-roots/scratch");
  });
});

describe("tasks on the wire (callAsTask with a bare v2 client over stdio)", () => {
  it("a cancelled call cancels the server's task (tasks/cancel): the server reports it cancelled", async () => {
    const client = new Client({ name: "test", version: "1" }, { versionNegotiation: { mode: "auto" } });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [everythingServerPath(), "stdio"], stderr: "ignore" }));
    try {
      const controller = new AbortController();
      const states: TaskState[] = [];
      const call = callAsTask(
        client,
        "simulate-research-query",
        { topic: "x" },
        { signal: controller.signal, timeout: 30_000, ttl: 60_000, onState: (t) => states.push(t), log: () => {} },
      );
      call.catch(() => {}); // awaited below
      await eventually(() => states.length > 0);
      controller.abort(new Error("stop"));
      await expect(call).rejects.toThrow("stop");
      const taskId = states[0].taskId;
      const after = await eventually(async () => {
        const t = (await client.request({ method: "tasks/get", params: { taskId } }, RAW)) as { status: string };
        return t.status === "cancelled" && t;
      });
      expect(after).toMatchObject({ taskId, status: "cancelled" });
    } finally {
      await client.close();
    }
  });
});

/**
 * A raw JSON-RPC server over stdio (no SDK) answering with `methods` (JS statements that may
 * `return ok(result)`; `ask(method, params)` sends the client a request and resolves with its
 * response), ping, and -32601 for any other method (such as the 2026-07-28 client's
 * server/discover probe).
 */
const rawStdioServer = (methods: string) => `
const rl = require("node:readline").createInterface({ input: process.stdin });
const send = (m) => process.stdout.write(JSON.stringify(m) + "\\n");
const waiting = new Map();
let next = 0;
const ask = (method, params) => new Promise((resolve) => { const id = "s" + next++; waiting.set(id, resolve); send({ jsonrpc: "2.0", id, method, params }); });
rl.on("line", async (line) => {
  let m; try { m = JSON.parse(line); } catch { return; }
  if (m.method === undefined && waiting.has(m.id)) { const r = waiting.get(m.id); waiting.delete(m.id); return r(m); }
  if (m.id === undefined) return;
  const ok = (result) => send({ jsonrpc: "2.0", id: m.id, result });
  ${methods}
  if (m.method === "ping") return ok({});
  send({ jsonrpc: "2.0", id: m.id, error: { code: -32601, message: "Method not found: " + m.method } });
});
`;

// A minimal server speaking 2025-06-18.
const OLD_SERVER = rawStdioServer(`
  if (m.method === "initialize") return ok({ protocolVersion: "2025-06-18", capabilities: { tools: {} }, serverInfo: { name: "old-server", version: "0.1.0" } });
  if (m.method === "tools/list") return ok({ tools: [{ name: "hello", title: "Hello", inputSchema: { type: "object", properties: { who: { type: "string" } } }, annotations: { readOnlyHint: true } }] });
  if (m.method === "tools/call") return ok({ content: [{ type: "text", text: "hello " + ((m.params.arguments || {}).who || "?") }] });
`);

/** A connection to a raw stdio server (closed after the describe block it is made in). */
function rawConnection(name: string, script: string): McpConnection {
  const conn = new McpConnection({ name, transport: "stdio", command: process.execPath, args: ["-e", script], env: {}, enabled: true });
  afterAll(() => conn.close());
  return conn;
}

describe("a 2025-06-18 server over stdio", () => {
  const conn = rawConnection("old", OLD_SERVER);

  it("connects at 2025-06-18, lists and calls its tool", async () => {
    await conn.connect();
    expect(conn.status()).toMatchObject({ state: "connected", protocolVersion: "2025-06-18", era: "legacy", serverInfo: { name: "old-server" } });
    expect(conn.tools().map((t) => t.spec.name)).toEqual(["old__hello"]);
    expect(conn.tools()[0].spec.annotations).toEqual({ readOnlyHint: true });
    expect((await conn.tools()[0].invoke({ who: "there" }, ctx())).content).toEqual([{ type: "text", text: "hello there" }]);
  });
});

// A raw 2025-11-25 server over stdio that, during a call, sends an elicitation as a task, then
// asks the studio's client tasks/get, tasks/list, tasks/cancel (twice), tasks/result and tasks/get
// for an unknown task, and answers the call with what it heard (as JSON).
const TASK_PROBE_SERVER = rawStdioServer(`
  if (m.method === "initialize") return ok({ protocolVersion: "2025-11-25", capabilities: { tools: {} }, serverInfo: { name: "task-probe", version: "0.1.0" } });
  if (m.method === "tools/list") return ok({ tools: [{ name: "probe", inputSchema: { type: "object" } }] });
  if (m.method === "tools/call") {
    const heard = {};
    heard.create = await ask("elicitation/create", { task: { ttl: 30000 }, message: "Name?", requestedSchema: { type: "object", properties: { name: { type: "string" } } } });
    const taskId = heard.create.result && heard.create.result.task && heard.create.result.task.taskId;
    heard.get = await ask("tasks/get", { taskId });
    heard.list = await ask("tasks/list", {});
    heard.cancel = await ask("tasks/cancel", { taskId });
    heard.cancelAgain = await ask("tasks/cancel", { taskId });
    heard.result = await ask("tasks/result", { taskId });
    heard.unknown = await ask("tasks/get", { taskId: "nope" });
    heard.plain = await ask("elicitation/create", { message: "Plain?", requestedSchema: { type: "object", properties: {} } });
    return ok({ content: [{ type: "text", text: JSON.stringify(heard) }] });
  }
`);

describe("client-side tasks on the wire (a raw 2025-11-25 server asks tasks/get, list, cancel, result)", () => {
  const conn = rawConnection("probe", TASK_PROBE_SERVER);

  it("answers a task-augmented elicitation with a task, serves the task methods, and a cancelled task withdraws its request", async () => {
    await conn.connect();
    const asked: { signal?: AbortSignal; message?: string }[] = [];
    // The run's caller: keeps the task's request open until it is withdrawn; answers a plain one at once.
    const c: ToolContext = {
      ...ctx(),
      requestInput: (request, o) => {
        const message = request.kind === "elicitation" ? request.message : "";
        asked.push({ signal: o.signal, message });
        if (message === "Plain?") return Promise.resolve({ answer: { action: "decline" }, outcome: "answered" });
        return new Promise((resolve) => o.signal?.addEventListener("abort", () => resolve({ answer: null, outcome: "cancelled" }), { once: true }));
      },
    };
    const out = await conn.tools()[0].invoke({}, c);
    const heard = JSON.parse(out.content[0].type === "text" ? out.content[0].text : "{}") as Record<
      string,
      { result?: Record<string, unknown>; error?: { code: number; message: string } }
    >;
    const task = heard.create.result?.task as Record<string, unknown>;
    expect(task).toMatchObject({
      taskId: expect.any(String),
      status: "input_required",
      ttl: 30_000,
      pollInterval: 1_000,
      createdAt: expect.any(String),
      lastUpdatedAt: expect.any(String),
    });
    expect(task.statusMessage).toMatch(/waiting for the person/);
    expect(heard.get.result).toMatchObject({ taskId: task.taskId, status: "input_required" });
    expect(heard.list.result).toMatchObject({ tasks: [{ taskId: task.taskId }] });
    expect(heard.cancel.result).toMatchObject({ taskId: task.taskId, status: "cancelled" });
    expect(heard.cancelAgain.error).toMatchObject({ code: -32602, message: expect.stringContaining("already ended (cancelled)") });
    // The cancelled task's request was withdrawn from its caller; its result is the cancel the person's flow gives.
    expect(asked[0].signal?.aborted).toBe(true);
    expect(heard.result.result).toMatchObject({ action: "cancel", _meta: { "io.modelcontextprotocol/related-task": { taskId: task.taskId } } });
    expect(heard.unknown.error).toMatchObject({ code: -32602, message: expect.stringContaining("Unknown task") });
    // A request without `task` is answered as before, with the plain result.
    expect(heard.plain.result).toEqual({ action: "decline" });
  });
});
