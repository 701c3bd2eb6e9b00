// The MCP client side against a real server: examples/mcp-server (v2 server SDK, protocol
// 2026-07-28) started by the tests over stdio and over Streamable HTTP. No mocks.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { McpConnection, type McpServerConfig } from "@/lib/mcp/connection";
import { executeTool } from "@/lib/execution/execute";
import { McpManager } from "@/lib/mcp/source";
import { Registry } from "@/lib/registry/registry";
import { RunStore } from "@/lib/runs/store";
import { EXAMPLE_SERVER, eventually, startExampleHttpServer, type ServerProcess } from "@/tests/helpers/mcp";
import type { ProgressUpdate, RegisteredTool, ToolContext } from "@/lib/tools/define";
import { ToolError } from "@/lib/tools/errors";
import type { ContentBlock } from "@/lib/tools/output";
import { createTestDatabase, type TestDatabase } from "./helpers/db";

const PAGE_SIZE = 3;
const ALL_TOOLS = [
  "echo",
  "weather",
  "primes",
  "tiny_image",
  "tiny_audio",
  "resources",
  "slow_count",
  "fail_politely",
  "fancy",
  "header_echo",
  "add",
  "server_stats",
  "add_tool",
  "crash",
];

function ctx(over: Partial<ToolContext> = {}): ToolContext & { updates: ProgressUpdate[] } {
  const updates: ProgressUpdate[] = [];
  return { signal: new AbortController().signal, progress: (u) => updates.push(u), runId: "test-run", actor: "test", updates, ...over };
}

const fast = { backoff: { initialMs: 100, maxMs: 1_000, jitter: 0 }, healthCheckMs: 300 };

function tool(conn: McpConnection, name: string): RegisteredTool {
  const t = conn.tools().find((x) => x.spec.name === `${conn.name}__${name}`);
  if (!t)
    throw new Error(
      `no tool ${name} (have ${conn
        .tools()
        .map((x) => x.spec.name)
        .join(", ")})`,
    );
  return t;
}

async function rejection(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (err) {
    return err;
  }
  throw new Error("expected a rejection");
}

describe.each(["stdio", "http"] as const)("example MCP server over %s", (transport) => {
  let http: ServerProcess | undefined;
  let conn: McpConnection;

  beforeAll(async () => {
    let config: McpServerConfig;
    if (transport === "http") {
      http = await startExampleHttpServer(0, ["--page-size", String(PAGE_SIZE)]);
      config = {
        name: "ex",
        transport: "http",
        url: http.url,
        headers: { "X-Studio-Test": "1" },
        enabled: true,
        timeoutMs: 9_000,
        toolTimeouts: { slow_count: 12_345 },
      };
    } else {
      config = {
        name: "ex",
        transport: "stdio",
        command: process.execPath,
        args: [EXAMPLE_SERVER, "--page-size", String(PAGE_SIZE)],
        env: { EXAMPLE_ENV: "1" },
        enabled: true,
        timeoutMs: 9_000,
        toolTimeouts: { slow_count: 12_345 },
      };
    }
    conn = new McpConnection(config, fast);
    await conn.connect();
  });

  afterAll(async () => {
    await conn?.close();
    await http?.stop();
  });

  it("negotiates 2026-07-28 and reports the server", () => {
    const s = conn.status();
    expect(s.state).toBe("connected");
    expect(s.protocolVersion).toBe("2026-07-28");
    expect(s.era).toBe("modern");
    expect(s.serverInfo).toMatchObject({ name: "tool-studio-example", version: "1.0.0" });
    expect(s.capabilities).toMatchObject({ tools: { listChanged: true } });
    if (transport === "stdio") {
      expect(s.pid).toBeGreaterThan(0);
      expect(s.stderrTail.join("\n")).toContain("serving on stdio");
    }
  });

  it("lists every page of tools, namespaced, excluding the tool with an invalid x-mcp-header", () => {
    const names = conn.tools().map((t) => t.spec.name);
    // 15 tools in pages of 3: five pages had to be followed.
    expect(names).toEqual(ALL_TOOLS.map((n) => `ex__${n}`));
    expect(conn.status().toolCount).toBe(ALL_TOOLS.length);
    expect(conn.excluded).toEqual([{ tool: "bad_header", reason: expect.stringMatching(/x-mcp-header.*items/) }]);
    for (const t of conn.tools()) {
      expect(t.spec.source).toEqual({ kind: "mcp", id: "mcp:ex", server: "ex" });
      expect(t.spec.unavailable).toBeUndefined();
    }
    expect(tool(conn, "slow_count").spec.timeoutMs).toBe(12_345);
    expect(tool(conn, "echo").spec.timeoutMs).toBe(9_000);
  });

  it("keeps every field of a tool, and its raw JSON", () => {
    const spec = tool(conn, "fancy").spec;
    expect(spec.title).toBe("Fancy tool");
    expect(spec.description).toMatch(/every piece of metadata/);
    expect(spec.annotations).toEqual({
      title: "Fancy (annotation title)",
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    });
    expect(spec.icons).toHaveLength(3);
    expect(spec.icons?.[0]).toMatchObject({ mimeType: "image/png", sizes: ["4x4"], src: expect.stringMatching(/^data:image\/png;base64,iVBOR/) });
    expect(spec.icons?.map((i) => i.theme)).toEqual([undefined, "light", "dark"]);
    expect(spec.icons?.[1].src).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(spec._meta).toEqual({ "com.example/category": "demo", "com.example/version": 3 });
    // `execution` is 2025-era vocabulary: the server SDK drops it on a 2026-07-28 connection
    // (server-everything, a 2025-11-25 server, shows it is kept: see mcp-everything.test.ts).
    expect(spec.execution).toBeUndefined();
    expect(spec.raw).toMatchObject({ name: "fancy", title: "Fancy tool", _meta: spec._meta, icons: spec.icons });
    // Non-object output schema roots are kept (2026-07-28).
    expect(tool(conn, "primes").spec.outputSchema).toEqual({ type: "array", items: { type: "integer" } });
    // x-mcp-header annotations survive in the schema and in raw.
    const header = tool(conn, "header_echo").spec;
    expect((header.inputSchema.properties as Record<string, Record<string, unknown>>).region["x-mcp-header"]).toBe("Region");
    expect((header.raw as { inputSchema: unknown }).inputSchema).toEqual(header.inputSchema);
  });

  it("returns structured content (object and non-object roots)", async () => {
    const out = await tool(conn, "weather").invoke({ city: "Oslo" }, ctx());
    expect(out.structuredContent).toEqual({ city: "Oslo", tempC: 21.5, conditions: "sunny" });
    expect(out.content[0]).toMatchObject({ type: "text" });
    expect(out.isError).toBeUndefined();
    const primes = await tool(conn, "primes").invoke({ below: 12 }, ctx());
    expect(primes.structuredContent).toEqual([2, 3, 5, 7, 11]);
  });

  it("passes every content kind through as is: image, audio, resource_link, embedded text and blob", async () => {
    const img = (await tool(conn, "tiny_image").invoke({}, ctx())).content[0] as Extract<ContentBlock, { type: "image" }>;
    expect(img).toMatchObject({ type: "image", mimeType: "image/png" });
    expect(Buffer.from(img.data, "base64").subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));

    const audio = (await tool(conn, "tiny_audio").invoke({}, ctx())).content[0] as Extract<ContentBlock, { type: "audio" }>;
    expect(audio).toMatchObject({ type: "audio", mimeType: "audio/wav" });
    const wav = Buffer.from(audio.data, "base64");
    expect(wav.toString("ascii", 0, 4)).toBe("RIFF");
    expect(wav.toString("ascii", 8, 12)).toBe("WAVE");

    const res = (await tool(conn, "resources").invoke({}, ctx())).content;
    expect(res).toEqual([
      {
        type: "resource_link",
        uri: "https://example.com/docs/readme.md",
        name: "readme.md",
        title: "The README",
        description: "A linked resource",
        mimeType: "text/markdown",
        size: 1234,
      },
      { type: "resource", resource: { uri: "file:///notes/hello.txt", mimeType: "text/plain", text: "Hello from an embedded resource." } },
      {
        type: "resource",
        resource: { uri: "file:///images/tiny.png", mimeType: "image/png", blob: img.data },
        annotations: { audience: ["user"], priority: 0.5 },
      },
      { type: "resource", resource: { uri: "file:///sounds/beep.wav", mimeType: "audio/wav", blob: audio.data } },
      {
        type: "resource_link",
        uri: "example://notes/changelog.md",
        name: "changelog.md",
        title: "The changelog",
        mimeType: "text/markdown",
        annotations: { audience: ["user", "assistant"], priority: 0.9, lastModified: "2026-11-30T12:00:00Z" },
      },
      { type: "resource_link", uri: "example://images/tiny.png", name: "tiny.png", mimeType: "image/png" },
    ]);
  });

  it("reads a resource of any scheme through the server (resources/read), and names an unknown one", async () => {
    expect(await conn.readResource("example://notes/changelog.md")).toEqual([
      { uri: "example://notes/changelog.md", mimeType: "text/markdown", text: expect.stringContaining("# Changelog") },
    ]);
    const [png] = await conn.readResource("example://images/tiny.png");
    expect(png).toMatchObject({ uri: "example://images/tiny.png", mimeType: "image/png" });
    expect(
      Buffer.from((png as { blob: string }).blob, "base64")
        .subarray(1, 4)
        .toString("ascii"),
    ).toBe("PNG");
    const missing = await rejection(conn.readResource("example://nowhere"));
    expect(missing).toBeInstanceOf(ToolError);
    expect(missing).toMatchObject({ kind: "not_found", message: expect.stringMatching(/Resource not found: example:\/\/nowhere/) });
  });

  it("maps isError to a tool-level error result", async () => {
    const out = await tool(conn, "fail_politely").invoke({ reason: "testing" }, ctx());
    expect(out.isError).toBe(true);
    expect(out.content).toEqual([{ type: "text", text: "It did not work: testing" }]);
  });

  it("maps JSON-RPC errors to ToolError kinds", async () => {
    const bad = await rejection(tool(conn, "add").invoke({ a: "x", b: 1 }, ctx()));
    expect(bad).toBeInstanceOf(ToolError);
    expect((bad as ToolError).kind).toBe("invalid_args");
    expect((bad as ToolError).message).toMatch(/a and b must be integers/);
    expect((bad as ToolError).detail).toMatch(/-32602/);
    const missing = await rejection(conn.callTool("no_such_tool", {}, ctx()));
    expect((missing as ToolError).kind).toBe("not_found");
  });

  it("forwards progress notifications", async () => {
    const c = ctx();
    const out = await tool(conn, "slow_count").invoke({ to: 4, delayMs: 40 }, c);
    expect(out.content).toEqual([{ type: "text", text: "counted to 4" }]);
    expect(c.updates.length).toBeGreaterThanOrEqual(2);
    expect(c.updates[0]).toEqual({ progress: 1, total: 4, message: "counted 1 of 4" });
  });

  it("cancels through the signal: the server sees the cancellation and the signal's reason is rethrown", async () => {
    const before = (await tool(conn, "server_stats").invoke({}, ctx())).structuredContent as { cancelled: number };
    const controller = new AbortController();
    const reason = new ToolError("cancelled", "The caller cancelled the run.");
    setTimeout(() => controller.abort(reason), 200);
    const started = Date.now();
    const err = await rejection(tool(conn, "slow_count").invoke({ to: 50, delayMs: 100 }, ctx({ signal: controller.signal })));
    expect(err).toBe(reason);
    expect(Date.now() - started).toBeLessThan(2_000);
    await eventually(async () => {
      const s = (await tool(conn, "server_stats").invoke({}, ctx())).structuredContent as { cancelled: number };
      return s.cancelled > before.cancelled;
    });
  });

  it(transport === "http" ? "mirrors x-mcp-header arguments into Mcp-Param-* headers" : "sends no Mcp-Param-* headers over stdio", async () => {
    const out = await tool(conn, "header_echo").invoke({ region: "eu-west-1", dryRun: true, count: 3, target: { id: "Zürich" }, note: "not mirrored" }, ctx());
    const headers = (out.structuredContent as { headers: Record<string, string> }).headers;
    if (transport === "http") {
      expect(headers).toEqual({
        "mcp-param-region": "eu-west-1",
        "mcp-param-dry-run": "true",
        "mcp-param-count": "3",
        "mcp-param-target-id": `=?base64?${Buffer.from("Zürich").toString("base64")}?=`,
      });
    } else {
      expect(headers).toEqual({});
    }
  });

  it("picks up notifications/tools/list_changed live", async () => {
    const added = `added_${transport}`;
    const seen = new Promise<string[]>((resolve) => {
      const off = conn.subscribe((e) => {
        if (e.type === "tools" && e.tools.some((t) => t.name === `ex__${added}`)) {
          off();
          resolve(e.tools.map((t) => t.name));
        }
      });
    });
    await tool(conn, "add_tool").invoke({ name: added }, ctx());
    const names = await seen;
    expect(names).toContain(`ex__${added}`);
    expect(names).toContain("ex__echo");
    const out = await tool(conn, added).invoke({ value: "hi" }, ctx());
    expect(out.content).toEqual([{ type: "text", text: `${added}: hi` }]);
  });

  it("notices the server dying, keeps its tools listed as unavailable, and reconnects with backoff", async () => {
    const failedEvents: string[] = [];
    const off = conn.subscribe((e) => {
      if (e.type === "state" && e.status.state === "failed") failedEvents.push(e.status.error ?? "");
    });
    if (transport === "stdio") {
      const pid = conn.status().pid!;
      process.kill(pid, "SIGKILL");
    } else {
      await http!.stop();
    }
    const down = await conn.waitFor((s) => s.state !== "connected", 10_000);
    expect(["failed", "connecting"]).toContain(down.state);
    // Still listed, marked unavailable; a call fails fast with a network error.
    const echo = tool(conn, "echo");
    expect(echo.spec.unavailable).toBeTruthy();
    const started = Date.now();
    const err = await rejection(echo.invoke({ message: "x" }, ctx()));
    expect((err as ToolError).kind).toBe("network");
    expect(Date.now() - started).toBeLessThan(500);
    if (transport === "stdio") {
      expect(failedEvents[0]).toMatch(/killed by SIGKILL/);
    } else {
      // Let it fail a few times against the dead port: the delays grow (100, 200, 400 ms...).
      await conn.waitFor((s) => s.failures >= 3, 10_000);
      http = await startExampleHttpServer(Number(new URL((conn.config as { url: string }).url).port), ["--page-size", String(PAGE_SIZE)]);
    }
    const up = await conn.waitFor((s) => s.state === "connected", 15_000);
    off();
    expect(up.failures).toBe(0);
    expect(failedEvents.length).toBeGreaterThanOrEqual(1);
    expect(tool(conn, "echo").spec.unavailable).toBeUndefined();
    const out = await tool(conn, "echo").invoke({ message: "back" }, ctx());
    expect(out.content).toEqual([{ type: "text", text: "back" }]);
  });
});

describe("the SDK's own request timeout", () => {
  it("is mapped to a timeout ToolError (when the studio's signal has not fired first)", async () => {
    const conn = new McpConnection(
      { name: "t", transport: "stdio", command: process.execPath, args: [EXAMPLE_SERVER], env: {}, enabled: true, toolTimeouts: { slow_count: 300 } },
      { callSlackMs: 0 },
    );
    try {
      await conn.connect();
      // Progress resets the SDK's timeout, so the steps must be slower than the 300 ms it allows.
      const err = await rejection(tool(conn, "slow_count").invoke({ to: 3, delayMs: 700 }, ctx()));
      expect(err).toBeInstanceOf(ToolError);
      expect((err as ToolError).kind).toBe("timeout");
    } finally {
      await conn.close();
    }
  });
});

describe("McpManager with the example server", () => {
  const manager = new McpManager(fast);
  afterAll(() => manager.close());

  const stdio = (name: string, extra: string[] = []): McpServerConfig => ({
    name,
    transport: "stdio",
    command: process.execPath,
    args: [EXAMPLE_SERVER, ...extra],
    env: {},
    enabled: true,
  });

  it("syncs config servers (refusing a repeated name), restarts changed ones, stops removed ones, and offers all tools as the mcp source", async () => {
    const r1 = await manager.sync([stdio("one"), { ...stdio("off"), enabled: false }, stdio("two"), stdio("two", ["--page-size", "2"])]);
    expect(r1.started).toEqual(["one", "two"]);
    expect(r1.refused).toEqual([{ name: "two", reason: expect.stringMatching(/another entry of the config/) }]);
    await manager.connection("one")!.waitFor((s) => s.state === "connected", 15_000);
    await manager.connection("two")!.waitFor((s) => s.state === "connected", 15_000);

    const names = (await manager.source().list()).map((t) => t.spec.name);
    expect(names.filter((n) => n.startsWith("one__"))).toHaveLength(ALL_TOOLS.length);
    expect(names.filter((n) => n.startsWith("two__"))).toHaveLength(ALL_TOOLS.length);
    expect(manager.source().id).toBe("mcp");

    const states = manager.states();
    expect(states.map((s) => [s.name, s.origin, s.enabled, s.state])).toEqual([
      ["one", "config", true, "connected"],
      ["off", "config", false, "disconnected"],
      ["two", "config", true, "connected"],
    ]);
    expect(states[0]).toMatchObject({ transport: "stdio", protocolVersion: "2026-07-28", toolCount: ALL_TOOLS.length, excluded: [{ tool: "bad_header" }] });

    // A config reload: "one" changes (restarted), "off" disappears, "two" is left running as it was.
    const pidBefore = manager.state("one")!.pid;
    const twoPid = manager.state("two")!.pid!;
    const r2 = await manager.sync([stdio("one", ["--page-size", "2"]), stdio("two")]);
    expect(r2.restarted).toEqual(["one"]);
    expect(r2.unchanged).toEqual(["two"]);
    expect(r2.refused).toEqual([]);
    await manager.connection("one")!.waitFor((s) => s.state === "connected", 15_000);
    expect(manager.state("one")!.pid).not.toBe(pidBefore);
    expect(manager.state("two")!.pid).toBe(twoPid);
    expect(manager.states().map((s) => s.name)).toEqual(["one", "two"]);

    // "two" leaves the config: stopped, and its process ends.
    const r3 = await manager.sync([stdio("one", ["--page-size", "2"])]);
    expect(r3.unchanged).toEqual(["one"]);
    expect(r3.stopped).toEqual(["two"]);
    expect(manager.states().map((s) => s.name)).toEqual(["one"]);
    // The source answers the same array while nothing changed (the registry then skips its merge), a new one after.
    const listed = await manager.source().list();
    expect(await manager.source().list()).toBe(listed);
    expect(listed.every((t) => t.spec.name.startsWith("one__"))).toBe(true);
    await eventually(() => {
      try {
        process.kill(twoPid, 0);
        return false;
      } catch {
        return true; // the process is gone
      }
    });
  });
});

describe("MCP tools through the studio (registry, executeTool, captured runs in PostgreSQL)", () => {
  let db: TestDatabase;
  let manager: McpManager;
  let registry: Registry;
  let runs: RunStore;

  beforeAll(async () => {
    db = await createTestDatabase();
    runs = new RunStore(db.prisma);
    manager = new McpManager(fast);
    registry = new Registry();
    registry.addSource(manager.source());
    await manager.sync([{ name: "ex", transport: "stdio", command: process.execPath, args: [EXAMPLE_SERVER], env: {}, enabled: true, timeoutMs: 5_000 }]);
    await manager.connection("ex")!.waitFor((s) => s.state === "connected", 15_000);
  });

  afterAll(async () => {
    await manager?.close();
    await db?.drop();
  });

  const run = (tool: string, args: unknown, extra: { timeoutMs?: number; signal?: AbortSignal } = {}) =>
    executeTool({ registry, runs }, { tool, arguments: args, origin: "api", actor: "test", ...extra });

  it("captures a structured result, checked against the tool's outputSchema", async () => {
    const r = await run("ex__weather", { city: "Oslo" });
    expect(r).toMatchObject({ status: "success", source: "mcp:ex", outputValid: true, timeoutMs: 5_000 });
    expect(r.output?.structuredContent).toEqual({ city: "Oslo", tempC: 21.5, conditions: "sunny" });
  });

  it("marks an isError result as an error run", async () => {
    const r = await run("ex__fail_politely", { reason: "nope" });
    expect(r.status).toBe("error");
    expect(r.error?.message).toBe("It did not work: nope");
  });

  it("rejects invalid arguments before the server is called, and captures a timeout", async () => {
    const r = await run("ex__add", { a: 1.5, b: 1 });
    // 1.5 is not an integer: rejected by the studio's own validation before the server is called.
    expect(r.status).toBe("rejected");
    const slow = await run("ex__slow_count", { to: 20, delayMs: 100 }, { timeoutMs: 300 });
    expect(slow.status).toBe("timeout");
    expect(slow.error?.kind).toBe("timeout");
  });

  it("lists the tools of a dead server as unavailable; a call is captured as a network error", async () => {
    const conn = manager.connection("ex")!;
    process.kill(conn.status().pid!, "SIGKILL");
    await conn.waitFor((s) => s.state !== "connected");
    const spec = (await registry.list()).find((t) => t.name === "ex__echo");
    expect(spec?.unavailable).toBeTruthy();
    const r = await run("ex__echo", { message: "x" });
    expect(r.status).toBe("error");
    expect(r.error?.kind).toBe("network");
    await conn.waitFor((s) => s.state === "connected", 15_000);
    expect((await run("ex__echo", { message: "x" })).status).toBe("success");
  });
});
