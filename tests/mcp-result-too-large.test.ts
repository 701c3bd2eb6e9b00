import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { executeTool } from "@/lib/execution/execute";
import { McpConnection } from "@/lib/mcp/connection";
import { Registry } from "@/lib/registry/registry";
import { RunStore } from "@/lib/runs/store";
import { createTestDatabase, type TestDatabase } from "./helpers/db";
import { eventually, REPO_ROOT } from "./helpers/mcp";

// Issue 37, item 6: a result over about 10 MB closed a stdio server's connection ("Connection
// closed") and restarted it, so the next calls failed too. A real stdio server (the v2 SDK's,
// written here) answers `big` with ~12 MB: that run ends `result_too_large`, the connection stays,
// and the next call to the same process succeeds.

const SERVER = `
import { Server } from "@modelcontextprotocol/server";
import { serveStdio } from "@modelcontextprotocol/server/stdio";
const tools = [
  { name: "big", description: "about 12 MB of text", inputSchema: { type: "object", properties: {} } },
  { name: "small", description: "a little text", inputSchema: { type: "object", properties: {} } },
];
serveStdio(() => {
  const server = new Server({ name: "big-results", version: "1.0.0" }, { capabilities: { tools: {} } });
  server.setRequestHandler("tools/list", () => ({ tools }));
  server.setRequestHandler("tools/call", (request) =>
    request.params.name === "big"
      ? { content: [{ type: "text", text: "x".repeat(12 * 1024 * 1024) }] }
      : { content: [{ type: "text", text: "pid " + process.pid }] },
  );
  return server;
});
`;

let db: TestDatabase;
let dir: string;
let conn: McpConnection;

beforeAll(async () => {
  db = await createTestDatabase();
  // Inside the repo, so the server resolves the SDK from node_modules.
  dir = fs.mkdtempSync(path.join(REPO_ROOT, "tests", ".big-results-"));
  fs.writeFileSync(path.join(dir, "server.mjs"), SERVER);
  conn = new McpConnection(
    { name: "big", transport: "stdio", command: process.execPath, args: [path.join(dir, "server.mjs")], env: {}, enabled: true },
    { backoff: { initialMs: 200, maxMs: 2_000 } },
  );
  await conn.connect();
  await eventually(() => conn.tools().length === 2);
});
afterAll(async () => {
  await conn?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
  await db?.drop();
});

describe("a result over the limit", () => {
  it("fails its run with result_too_large; the connection and its process live on, the next call succeeds", async () => {
    const registry = new Registry();
    registry.addSource({ id: "mcp:big", list: () => conn.tools() });
    const runs = new RunStore(db.prisma);
    const pid = conn.status().pid;
    expect(pid).toBeGreaterThan(0);

    const big = await executeTool({ registry, runs }, { tool: "big__big", arguments: {}, origin: "api", actor: "t@example.com", timeoutMs: 30_000 });
    expect(big).toMatchObject({
      status: "error",
      error: { kind: "result_too_large", message: expect.stringMatching(/over the studio's limit of 8388608 \(STUDIO_MCP_MAX_RESULT_BYTES\)/) },
    });
    expect((await runs.get(big.id))?.error?.kind).toBe("result_too_large");

    expect(conn.status()).toMatchObject({ state: "connected", pid });
    const small = await executeTool({ registry, runs }, { tool: "big__small", arguments: {}, origin: "api", actor: "t@example.com", timeoutMs: 10_000 });
    expect(small).toMatchObject({ status: "success", output: { content: [{ type: "text", text: `pid ${pid}` }] } });
    expect(conn.status()).toMatchObject({ state: "connected", pid });
  });
});
