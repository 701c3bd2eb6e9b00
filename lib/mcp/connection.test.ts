import { ProtocolError, SdkError, SdkErrorCode } from "@modelcontextprotocol/client";
import { afterEach, describe, expect, it } from "vitest";
import { ToolError } from "../tools/errors";
import { backoffDelay, McpConnection, toToolOutput, toToolSpec } from "./connection";
import { toMcpToolError } from "./errors";

describe("backoff", () => {
  it("doubles from 0.5 s up to 30 s", () => {
    const noJitter = { jitter: 0 };
    expect([1, 2, 3, 4, 5, 6, 7, 8, 20].map((n) => backoffDelay(n, noJitter))).toEqual([500, 1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000]);
  });

  it("spreads delays by the jitter, never past the cap", () => {
    expect(backoffDelay(2, { jitter: 0.2 }, () => 0)).toBe(800);
    expect(backoffDelay(2, { jitter: 0.2 }, () => 1)).toBe(1200);
    expect(backoffDelay(10, { jitter: 0.2 }, () => 1)).toBe(30000);
    for (let i = 0; i < 100; i++) {
      const d = backoffDelay(3, {});
      expect(d).toBeGreaterThanOrEqual(1600);
      expect(d).toBeLessThanOrEqual(2400);
    }
  });
});

describe("mapping tools and results", () => {
  it("namespaces a tool and keeps all its fields plus the raw JSON", () => {
    const raw = {
      name: "get",
      title: "Get",
      description: "d",
      inputSchema: { type: "object" },
      outputSchema: { type: "array" },
      annotations: { readOnlyHint: true, custom: 1 },
      icons: [{ src: "data:image/png;base64,AA==", theme: "dark" }, { nope: 1 }],
      _meta: { k: "v" },
      execution: { taskSupport: "optional" },
      future: "field",
    };
    expect(toToolSpec("srv", raw, 5000)).toEqual({
      name: "srv__get",
      title: "Get",
      description: "d",
      inputSchema: { type: "object" },
      outputSchema: { type: "array" },
      annotations: { readOnlyHint: true, custom: 1 },
      icons: [{ src: "data:image/png;base64,AA==", theme: "dark" }],
      _meta: { k: "v" },
      execution: { taskSupport: "optional" },
      timeoutMs: 5000,
      source: { kind: "mcp", id: "mcp:srv", server: "srv" },
      raw,
    });
  });

  it("passes content through and maps structuredContent and isError", () => {
    const content = [
      { type: "text", text: "a" },
      { type: "image", data: "AA==", mimeType: "image/png", _meta: { x: 1 } },
      { type: "resource_link", uri: "https://x", name: "x" },
    ];
    expect(toToolOutput({ content, structuredContent: [1, 2], _meta: {} }, "s")).toEqual({ content, structuredContent: [1, 2] });
    expect(toToolOutput({ content: [], isError: true }, "s")).toEqual({ content: [], isError: true });
    expect(toToolOutput({ toolResult: { ok: 1 } }, "s").content[0]).toMatchObject({ type: "text" });
    expect(() => toToolOutput("nope", "s")).toThrow(ToolError);
  });
});

describe("error kinds", () => {
  const kind = (err: unknown) => toMcpToolError(err, "s").kind;

  it("maps JSON-RPC errors from the server", () => {
    expect(kind(new ProtocolError(-32602, "Invalid arguments: a"))).toBe("invalid_args");
    expect(kind(new ProtocolError(-32602, "Unknown tool: nope"))).toBe("not_found");
    expect(kind(new ProtocolError(-32602, "MCP error -32602: Tool nope not found"))).toBe("not_found");
    expect(kind(new ProtocolError(-32601, "Method not found"))).toBe("not_found");
    const internal = toMcpToolError(new ProtocolError(-32603, "boom", { secret: 1 }), "s");
    expect(internal.kind).toBe("provider");
    expect(internal.message).toMatch(/-32603: boom/);
    expect(internal.detail).toMatch(/"secret":1/);
  });

  it("maps SDK and transport failures", () => {
    expect(kind(new SdkError(SdkErrorCode.RequestTimeout, "timed out"))).toBe("timeout");
    expect(kind(new SdkError(SdkErrorCode.ConnectionClosed, "closed"))).toBe("network");
    expect(kind(new SdkError(SdkErrorCode.NotConnected, "not connected"))).toBe("network");
    expect(kind(new TypeError("fetch failed", { cause: Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" }) }))).toBe("network");
    expect(kind(new Error("something odd"))).toBe("other");
  });
});

describe("a server that keeps dying", () => {
  let conn: McpConnection | undefined;
  afterEach(() => conn?.close());

  it("fails with its stderr kept, retries with growing delays, and close() stops retrying", async () => {
    conn = new McpConnection(
      {
        name: "dies",
        transport: "stdio",
        command: process.execPath,
        args: ["-e", "process.stderr.write('boom: no config\\n'); process.exit(2)"],
        env: {},
        enabled: true,
      },
      { backoff: { initialMs: 100, maxMs: 400, jitter: 0 } },
    );
    const attempts: number[] = [];
    conn.subscribe((e) => {
      if (e.type === "state" && e.status.state === "connecting") attempts.push(Date.now());
    });
    await expect(conn.connect()).rejects.toThrow(/failed to connect/);
    const s = await conn.waitFor((st) => st.failures >= 4, 10_000);
    expect(s.state).toBe("failed");
    expect(s.error).toMatch(/exited with code 2|closed/);
    expect(s.stderrTail).toContain("boom: no config");
    expect(s.nextRetryAt).toBeDefined();
    expect(conn.tools()).toEqual([]);
    // Each wait is at least its backoff: 100, 200, then 400 ms (the cap). Only lower bounds: the
    // time an attempt itself takes varies with the machine's load.
    const gaps = attempts.slice(1).map((t, i) => t - attempts[i]);
    expect(gaps[0]).toBeGreaterThanOrEqual(95);
    expect(gaps[1]).toBeGreaterThanOrEqual(195);
    expect(gaps[2]).toBeGreaterThanOrEqual(395);
    await conn.close();
    expect(conn.status().state).toBe("disconnected");
    const n = attempts.length;
    await new Promise((r) => setTimeout(r, 700));
    expect(attempts.length).toBe(n);
  });

  it("reports a command that cannot be started", async () => {
    conn = new McpConnection(
      { name: "nope", transport: "stdio", command: "/nonexistent/mcp-server", args: [], env: {}, enabled: true },
      { backoff: { initialMs: 5_000 } },
    );
    await expect(conn.connect()).rejects.toThrow(/ENOENT/);
    expect(conn.status()).toMatchObject({ state: "failed", failures: 1 });
  });
});
