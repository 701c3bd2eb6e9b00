import { afterAll, beforeAll, expect, it } from "vitest";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { closeMcpEndpoint, handleMcpRequest, type McpStudio } from "@/lib/mcp-server/server";
import type { RunStore } from "@/lib/runs/store";
import { createTestDatabase, type TestDatabase } from "./helpers/db";
import { serveFetch, type FetchServer } from "./helpers/mcp-http";
import { buildMcpStudio } from "./helpers/mcp-studio";

// handleMcpRequest behind a real HTTP server and socket (a minimal node:http adapter, not
// Next): streamed SSE answers arrive as they are written, and a client that hangs up cancels
// the run through the response stream alone — the adapter gives the Request no AbortSignal.

let db: TestDatabase;
let runs: RunStore;
let studio: McpStudio;
let server: FetchServer;
let url: URL;

beforeAll(async () => {
  db = await createTestDatabase();
  ({ studio, runs } = buildMcpStudio(db));

  server = await serveFetch((request) => handleMcpRequest(request, { studio, actor: "http-tester" }));
  url = server.url;
});

afterAll(async () => {
  if (studio) await closeMcpEndpoint(studio);
  await server?.close();
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
      .poll(async () => (await runs.list({ tool: "slow_count", limit: 50 })).runs.filter((r) => r.clientName === name).map((r) => r.status), {
        timeout: 10_000,
      })
      .toEqual(["cancelled", "success"]);
    const all = (await runs.list({ limit: 50 })).runs.filter((r) => r.clientName === name);
    expect(all.every((r) => r.origin === "mcp" && r.actor === "http-tester")).toBe(true);
    await client.close();
  });
}
