// Issue 13 item 5: a Streamable HTTP server that dies mid-call. The call's response stream breaks;
// the call must fail at once (not at the SDK's timeout, nor at the next health check, which is
// off here) and the connection must reconnect by itself once the server is back.
import { afterAll, describe, expect, it } from "vitest";
import { McpConnection } from "@/lib/mcp/connection";
import type { ProgressUpdate, ToolContext } from "@/lib/tools/define";
import { isToolError } from "@/lib/tools/errors";
import { freePort, startEverythingHttpServer, type ServerProcess } from "@/tests/helpers/mcp";

describe("server-everything over Streamable HTTP dies mid-call", () => {
  let server: ServerProcess | undefined;
  let conn: McpConnection | undefined;
  afterAll(async () => {
    await conn?.close();
    await server?.stop();
  });

  it("the call fails at once, the connection fails over to reconnecting and comes back when the server does", async () => {
    const port = await freePort();
    server = await startEverythingHttpServer(port);
    // No health check: only the broken stream can tell the connection the server is gone.
    conn = new McpConnection(
      { name: "everything", transport: "http", url: server.url, headers: {}, enabled: true },
      { healthCheckMs: 0, backoff: { initialMs: 200, maxMs: 500 } },
    );
    await conn.connect();

    const updates: ProgressUpdate[] = [];
    let firstProgress!: () => void;
    const progressed = new Promise<void>((r) => (firstProgress = r));
    const ctx: ToolContext = {
      signal: new AbortController().signal,
      runId: "r",
      actor: "test",
      timeoutMs: 60_000,
      progress: (u) => {
        updates.push(u);
        firstProgress();
      },
    };
    const tool = conn.tools().find((t) => t.spec.name === "everything__trigger-long-running-operation")!;
    const call = tool.invoke({ duration: 30, steps: 30 }, ctx);
    call.catch(() => {}); // awaited below
    await progressed;

    const killedAt = Date.now();
    server.child.kill("SIGKILL");
    const err = await call.then(
      () => null,
      (e: unknown) => e,
    );
    const took = Date.now() - killedAt;
    expect(isToolError(err) && err.kind).toBe("network");
    expect(took).toBeLessThan(1_000);
    expect(conn.status().state).not.toBe("connected");
    expect(conn.status().error).toMatch(/stream/);

    // The server comes back on the same address: the connection reconnects by itself.
    server = await startEverythingHttpServer(port);
    const s = await conn.waitFor((st) => st.state === "connected", 15_000);
    expect(s.failures).toBe(0);
    const echo = conn.tools().find((t) => t.spec.name === "everything__echo")!;
    expect((await echo.invoke({ message: "back" }, { ...ctx, progress: () => {} })).content).toEqual([{ type: "text", text: "Echo: back" }]);
  });
});
