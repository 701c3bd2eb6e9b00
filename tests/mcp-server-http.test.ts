import http from "node:http";
import type { AddressInfo } from "node:net";
import { Readable } from "node:stream";
import { afterAll, beforeAll, expect, it } from "vitest";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { createBuiltinSource } from "@/lib/builtin-tools";
import { RuntimeConfigSchema } from "@/lib/config/schema";
import { DomainService } from "@/lib/domains/service";
import { executeTool, type ExecuteRequest } from "@/lib/execution/execute";
import { closeMcpEndpoint, handleMcpRequest, type McpStudio } from "@/lib/mcp-server/server";
import { OutboxStore } from "@/lib/outbox/store";
import { Registry } from "@/lib/registry/registry";
import { RunStore } from "@/lib/runs/store";
import { createTestDatabase, type TestDatabase } from "./helpers/db";

// handleMcpRequest behind a real HTTP server and socket (a minimal node:http adapter, not
// Next): streamed SSE answers arrive as they are written, and a client that hangs up cancels
// the run through the response stream alone — the adapter gives the Request no AbortSignal.

let db: TestDatabase;
let runs: RunStore;
let studio: McpStudio;
let server: http.Server;
let url: URL;

beforeAll(async () => {
  db = await createTestDatabase();
  const outbox = new OutboxStore(db.prisma);
  const config = RuntimeConfigSchema.parse({});
  runs = new RunStore(db.prisma);
  const registry = new Registry();
  registry.addSource(createBuiltinSource({ outbox, config: () => config, listTools: () => registry.list() }));
  const domains = new DomainService({ config: () => config, tools: async () => (await registry.snapshot()).tools });
  studio = { registry, execute: (req: ExecuteRequest) => executeTool({ registry, runs, domains }, req) };

  server = http.createServer((req, res) => {
    serve(req, res).catch((err) => {
      console.error("[tool-studio] test server: an MCP request failed", err);
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/api/mcp`);
});

/** The route's work: Node request in, handleMcpRequest, the response streamed back. */
async function serve(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  const hasBody = req.method !== "GET" && req.method !== "HEAD" && req.method !== "DELETE";
  const request = new Request(`http://${req.headers.host}${req.url}`, {
    method: req.method,
    headers: Object.entries(req.headers).flatMap(([k, v]) => (v === undefined ? [] : (Array.isArray(v) ? v : [v]).map((x) => [k, x] as [string, string]))),
    ...(hasBody ? { body: Readable.toWeb(req) as ReadableStream, duplex: "half" } : {}),
  } as RequestInit);
  const response = await handleMcpRequest(request, { studio, actor: "http-tester" });
  res.writeHead(response.status, Object.fromEntries(response.headers));
  if (!response.body) {
    res.end();
    return;
  }
  const reader = response.body.getReader();
  res.on("close", () => void reader.cancel().catch(() => {}));
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      res.write(value);
    }
  } catch {
    // cancelled
  }
  res.end();
}

afterAll(async () => {
  if (studio) await closeMcpEndpoint(studio);
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  await db?.drop();
});

async function connect(name: string, era: "modern" | "legacy"): Promise<Client> {
  const client = new Client({ name, version: "1" }, era === "modern" ? { versionNegotiation: { mode: { pin: "2026-07-28" } } } : {});
  await client.connect(new StreamableHTTPClientTransport(url));
  return client;
}

for (const era of ["modern", "legacy"] as const) {
  it(`serves a ${era} client over HTTP: list, call with progress, and cancel by hanging up or notifying`, async () => {
    const name = `http-${era}`;
    const client = await connect(name, era);
    expect((await client.listTools()).tools.length).toBeGreaterThan(5);
    const added = await client.callTool({ name: "add", arguments: { a: 40, b: 2 } });
    expect(added.structuredContent).toEqual({ sum: 42 });

    const seen: number[] = [];
    const counted = await client.callTool({ name: "slow_count", arguments: { steps: 3, delayMs: 20 } }, { onprogress: (p) => seen.push(p.progress) });
    expect(counted.structuredContent).toEqual({ counted: 3 });
    expect(seen).toEqual([1, 2, 3]);

    const controller = new AbortController();
    const call = client.callTool(
      { name: "slow_count", arguments: { steps: 100, delayMs: 50 } },
      { signal: controller.signal, onprogress: (p) => p.progress === 2 && controller.abort("enough") },
    );
    await expect(call).rejects.toThrow();
    await expect
      .poll(async () => (await runs.list({ tool: "slow_count", limit: 50 })).runs.filter((r) => r.clientName === name).map((r) => r.status), { timeout: 10_000 })
      .toEqual(["cancelled", "success"]);
    const all = (await runs.list({ limit: 50 })).runs.filter((r) => r.clientName === name);
    expect(all.every((r) => r.origin === "mcp" && r.actor === "http-tester")).toBe(true);
    await client.close();
  });
}
