// Compatibility: the v2 client against @modelcontextprotocol/server-everything (built on SDK v1,
// protocol 2025-11-25), started from node_modules over stdio and over Streamable HTTP, and
// against a bare 2025-06-18 server. The negotiated version must be the older one.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { McpConnection, type McpServerConfig } from "@/lib/mcp/connection";
import { eventually, everythingServerPath, startEverythingHttpServer, type ServerProcess } from "@/tests/helpers/mcp";
import type { ProgressUpdate, RegisteredTool, ToolContext } from "@/lib/tools/define";
import type { ContentBlock } from "@/lib/tools/output";

// The tools server-everything offers a client that declares no sampling / elicitation / roots
// (the last one is registered after initialization and announced with list_changed).
const EVERYTHING_TOOLS = [
  "echo", "get-annotated-message", "get-env", "get-resource-links", "get-resource-reference", "get-structured-content",
  "get-sum", "get-tiny-image", "gzip-file-as-resource", "toggle-simulated-logging", "toggle-subscriber-updates",
  "trigger-long-running-operation", "simulate-research-query",
];

function ctx(): ToolContext & { updates: ProgressUpdate[] } {
  const updates: ProgressUpdate[] = [];
  return { signal: new AbortController().signal, progress: (u) => updates.push(u), runId: "r", actor: "test", updates };
}

const find = (conn: McpConnection, name: string): RegisteredTool => {
  const t = conn.tools().find((x) => x.spec.name === `${conn.name}__${name}`);
  if (!t) throw new Error(`no tool ${name}`);
  return t;
};

describe.each(["stdio", "http"] as const)("server-everything over %s", (transport) => {
  let http: ServerProcess | undefined;
  let conn: McpConnection;

  beforeAll(async () => {
    let config: McpServerConfig;
    if (transport === "http") {
      http = await startEverythingHttpServer();
      config = { name: "everything", transport: "http", url: http.url, headers: {}, enabled: true };
    } else {
      config = { name: "everything", transport: "stdio", command: process.execPath, args: [everythingServerPath(), "stdio"], env: {}, enabled: true };
    }
    conn = new McpConnection(config, { backoff: { initialMs: 200, maxMs: 2_000 } });
    await conn.connect();
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
    await eventually(() => conn.tools().some((t) => t.spec.name === "everything__simulate-research-query"));
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

  it("forwards progress from a long-running operation", async () => {
    const c = ctx();
    await find(conn, "trigger-long-running-operation").invoke({ duration: 0.6, steps: 3 }, c);
    expect(c.updates.length).toBeGreaterThanOrEqual(1);
    expect(c.updates[0]).toMatchObject({ progress: expect.any(Number), total: 3 });
  });
});

// A minimal server speaking 2025-06-18 (raw JSON-RPC over stdio; it answers an unknown method,
// such as the 2026-07-28 client's server/discover probe, with -32601).
const OLD_SERVER = `
const rl = require("node:readline").createInterface({ input: process.stdin });
const send = (m) => process.stdout.write(JSON.stringify(m) + "\\n");
rl.on("line", (line) => {
  let m; try { m = JSON.parse(line); } catch { return; }
  if (m.id === undefined) return;
  const ok = (result) => send({ jsonrpc: "2.0", id: m.id, result });
  if (m.method === "initialize") return ok({ protocolVersion: "2025-06-18", capabilities: { tools: {} }, serverInfo: { name: "old-server", version: "0.1.0" } });
  if (m.method === "tools/list") return ok({ tools: [{ name: "hello", title: "Hello", inputSchema: { type: "object", properties: { who: { type: "string" } } }, annotations: { readOnlyHint: true } }] });
  if (m.method === "tools/call") return ok({ content: [{ type: "text", text: "hello " + ((m.params.arguments || {}).who || "?") }] });
  if (m.method === "ping") return ok({});
  send({ jsonrpc: "2.0", id: m.id, error: { code: -32601, message: "Method not found: " + m.method } });
});
`;

describe("a 2025-06-18 server over stdio", () => {
  const conn = new McpConnection({ name: "old", transport: "stdio", command: process.execPath, args: ["-e", OLD_SERVER], env: {}, enabled: true });
  afterAll(() => conn.close());

  it("connects at 2025-06-18, lists and calls its tool", async () => {
    await conn.connect();
    expect(conn.status()).toMatchObject({ state: "connected", protocolVersion: "2025-06-18", era: "legacy", serverInfo: { name: "old-server" } });
    expect(conn.tools().map((t) => t.spec.name)).toEqual(["old__hello"]);
    expect(conn.tools()[0].spec.annotations).toEqual({ readOnlyHint: true });
    expect((await conn.tools()[0].invoke({ who: "there" }, ctx())).content).toEqual([{ type: "text", text: "hello there" }]);
  });
});
