import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { afterEach, describe, expect, it } from "vitest";
import { describeExit, StdioServerProcess } from "./process";

/** A stdio transport running `node -e script`, watched; resolves `closed` once the SDK reports the process gone. */
function start(script: string) {
  const transport = new StdioClientTransport({ command: process.execPath, args: ["-e", script], stderr: "pipe" });
  const watched = new StdioServerProcess(transport);
  const closed = new Promise<void>((resolve) => (transport.onclose = resolve));
  return { transport, watched, closed, started: transport.start() };
}

describe("the stdio server process (public APIs only)", () => {
  const transports: StdioClientTransport[] = [];
  afterEach(async () => {
    await Promise.all(transports.splice(0).map((t) => t.close().catch(() => {})));
  });

  it("knows the pid while the process runs and its exit code once it ended", async () => {
    const t = start("setTimeout(() => process.exit(3), 300)");
    transports.push(t.transport);
    await t.started;
    expect(t.watched.pid).toBeGreaterThan(0);
    expect(t.watched.pid).toBe(t.transport.pid);
    expect(t.watched.exit).toBeUndefined();
    await t.closed;
    expect(t.watched.exit).toEqual({ code: 3, signal: null });
    expect(t.watched.exitDescription).toBe("exited with code 3");
    expect(t.watched.pid).toBeUndefined();
  });

  it("knows the signal that killed it", async () => {
    const t = start("setInterval(() => {}, 1000)");
    transports.push(t.transport);
    await t.started;
    process.kill(t.watched.pid!, "SIGKILL");
    await t.closed;
    expect(t.watched.exitDescription).toBe("was killed by SIGKILL");
    expect(t.watched.pid).toBeUndefined();
  });

  it("tells processes started in the same tick apart", async () => {
    const a = start("setTimeout(() => process.exit(4), 200)");
    const b = start("setTimeout(() => process.exit(5), 200)");
    transports.push(a.transport, b.transport);
    await Promise.all([a.started, b.started]);
    expect(a.watched.pid).toBe(a.transport.pid);
    expect(b.watched.pid).toBe(b.transport.pid);
    expect(a.watched.pid).not.toBe(b.watched.pid);
    await Promise.all([a.closed, b.closed]);
    expect(a.watched.exitDescription).toBe("exited with code 4");
    expect(b.watched.exitDescription).toBe("exited with code 5");
  });

  it("reports a command that cannot be started without a pid or an exit", async () => {
    const transport = new StdioClientTransport({ command: "/nonexistent/mcp-server", stderr: "pipe" });
    transport.onerror = () => {};
    const watched = new StdioServerProcess(transport);
    await expect(transport.start()).rejects.toThrow(/ENOENT/);
    expect(watched.pid).toBeUndefined();
    expect(watched.exit).toBeUndefined();
  });

  it("describes an exit", () => {
    expect(describeExit({ code: 1, signal: null })).toBe("exited with code 1");
    expect(describeExit({ code: null, signal: "SIGTERM" })).toBe("was killed by SIGTERM");
  });
});
