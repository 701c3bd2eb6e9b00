import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import {
  Client,
  LOG_LEVEL_META_KEY,
  StreamableHTTPClientTransport,
  type ClientCapabilities,
  type Prompt,
  type Resource,
  type Tool,
} from "@modelcontextprotocol/client";
import { toToolOutput } from "@/lib/mcp/mapping";
import { META } from "@/lib/mcp-server/mapping";
import { closeMcpEndpoint, handleMcpRequest, type McpStudio } from "@/lib/mcp-server/server";
import { decodeCursor, encodeCursor } from "@/lib/mcp-server/paging";
import type { ToolSourceProvider } from "@/lib/registry/registry";
import { McpManager } from "@/lib/mcp/source";
import { McpDirectory } from "@/lib/mcp/directory";
import { pendingInputs } from "@/lib/execution/pending-input";
import { RunStore } from "@/lib/runs/store";
import { resourceFollows } from "@/lib/servers/follow";
import type { RegisteredTool } from "@/lib/tools/define";
import type { Principal } from "@/lib/auth/principal";
import { text } from "@/lib/tools/output";
import { createTestDatabase, type TestDatabase } from "./helpers/db";
import { EXAMPLE_SERVER, eventually, everythingServerPath, modernRequest } from "./helpers/mcp";
import { buildMcpStudio } from "./helpers/mcp-studio";
import { RuntimeConfigSchema } from "@/lib/config/schema";

// /api/mcp as a gateway (issue 13, item 4): tools.listChanged and its notifications, the bounded
// wait for configured servers on the first tools/list, cursor paging, upstream `_meta` and error
// structuredContent passed on. A real registry and run store on PostgreSQL, the real v2 client;
// the client's transport `fetch` calls handleMcpRequest (no network).

const URL_ = new URL("http://127.0.0.1:3000/api/mcp");
const MODERN = "2026-07-28";

let db: TestDatabase;
let runs: RunStore;
const studios: McpStudio[] = [];

/** A tool source whose list the test changes, and that signals its changes as the MCP source does. */
class MutableSource implements ToolSourceProvider {
  readonly id: string;
  private tools: RegisteredTool[] = [];
  private listeners = new Set<() => void>();
  constructor(id: string) {
    this.id = id;
  }
  list(): RegisteredTool[] {
    return this.tools;
  }
  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
  set(tools: RegisteredTool[]): void {
    this.tools = tools;
    for (const l of this.listeners) l();
  }
}

const tool = (name: string, invoke: RegisteredTool["invoke"] = async () => ({ content: [text(name)] })): RegisteredTool => ({
  spec: { name, description: `Tool ${name}.`, inputSchema: { type: "object" }, source: { kind: "mcp", id: "mcp:up", server: "up" } },
  invoke,
});

function makeStudio(extra: ToolSourceProvider, mcp?: McpStudio["mcp"]): McpStudio {
  const { studio } = buildMcpStudio(db, { sources: [extra], mcp });
  studios.push(studio);
  return studio;
}

beforeAll(async () => {
  db = await createTestDatabase();
  runs = new RunStore(db.prisma);
});
afterEach(async () => {
  await Promise.all(studios.splice(0).map((s) => closeMcpEndpoint(s)));
  delete process.env.STUDIO_MCP_LIST_WAIT_MS;
  delete process.env.STUDIO_MCP_PAGE_SIZE;
});
afterAll(async () => {
  await db?.drop();
});

/** What a test hears of list changes: each list as the client re-listed it after a list_changed. */
interface ListHandlers {
  prompts?(prompts: Prompt[]): void;
  resources?(resources: Resource[]): void;
}

async function connect(
  studio: McpStudio,
  era: "modern" | "legacy",
  onTools?: (tools: Tool[]) => void,
  capabilities?: ClientCapabilities,
  lists: ListHandlers = {},
): Promise<Client> {
  const handler = <T>(on: (items: T[]) => void) => ({ debounceMs: 0, onChanged: (_err: Error | null, items: T[] | null) => void (items && on(items)) });
  const listChanged = {
    ...(onTools ? { tools: handler(onTools) } : {}),
    ...(lists.prompts ? { prompts: handler(lists.prompts) } : {}),
    ...(lists.resources ? { resources: handler(lists.resources) } : {}),
  };
  const client = new Client(
    { name: `gateway-${era}`, version: "1.0.0" },
    {
      ...(capabilities ? { capabilities } : {}),
      ...(era === "modern" ? { versionNegotiation: { mode: { pin: MODERN } } } : {}),
      ...(Object.keys(listChanged).length ? { listChanged } : {}),
    },
  );
  const transport = new StreamableHTTPClientTransport(URL_, {
    fetch: (url, init) => handleMcpRequest(new Request(url, init), { studio, actor: "gateway-tester" }),
  });
  await client.connect(transport);
  return client;
}

/** A raw JSON-RPC POST as a 2026-07-28 client sends it (its last message, for a stream). */
async function rawRpc<R>(studio: McpStudio, request: Request, principal?: Principal): Promise<{ result?: R; error?: { code: number; message: string } }> {
  const res = await handleMcpRequest(request, { studio }, principal);
  const textBody = await res.text();
  return res.headers.get("content-type")?.includes("text/event-stream")
    ? JSON.parse(
        textBody
          .split("\n")
          .filter((l) => l.startsWith("data: "))
          .pop()!
          .slice(6),
      )
    : JSON.parse(textBody);
}

const rawList = (studio: McpStudio, params: Record<string, unknown> = {}) =>
  rawRpc<{ tools: Tool[]; nextCursor?: string }>(studio, modernRequest(URL_, "tools/list", params));

function waitFor<T>(what: string, get: () => T | undefined, ms = 5_000): Promise<T> {
  const until = Date.now() + ms;
  return new Promise((resolve, reject) => {
    const tick = () => {
      const v = get();
      if (v !== undefined) return resolve(v);
      if (Date.now() > until) return reject(new Error(`timed out waiting for ${what}`));
      setTimeout(tick, 20);
    };
    tick();
  });
}

/**
 * The repo's example server with the conformance suite's fixtures as configured server "ex"
 * (`namespaced`: its tools as `ex__<tool>`, else under their own names), connected before the
 * enclosing describe block's tests and closed after them.
 */
function exampleServer(namespaced: boolean): McpManager {
  const manager = new McpManager({ clientInfo: { name: "tool-studio", version: "0.1.0" } });
  beforeAll(async () => {
    await manager.sync([
      { name: "ex", transport: "stdio", command: process.execPath, args: [EXAMPLE_SERVER, "--conformance"], env: {}, enabled: true, namespace: namespaced },
    ]);
    await manager.settled(15_000);
  }, 30_000);
  afterAll(() => manager.close());
  return manager;
}

describe("tools.listChanged", () => {
  for (const era of ["modern", "legacy"] as const) {
    it(`is advertised, and a ${era === "modern" ? "2026-07-28 client (subscriptions/listen)" : "2025-era client (its session's stream)"} hears of added and removed tools`, async () => {
      const up = new MutableSource("test-up");
      const studio = makeStudio(up);
      let seen: Tool[] | undefined;
      const client = await connect(studio, era, (tools) => (seen = tools));
      try {
        expect(client.getServerCapabilities()?.tools?.listChanged).toBe(true);
        const before = (await client.listTools()).tools.map((t) => t.name);
        expect(before).not.toContain("up__new");
        // Let the client's listen subscription / GET stream open before the change.
        await new Promise((r) => setTimeout(r, 300));
        up.set([tool("up__new")]);
        const after = await waitFor("a list_changed refresh with up__new", () => (seen?.some((t) => t.name === "up__new") ? seen : undefined));
        expect(after.length).toBe(before.length + 1);
        seen = undefined;
        up.set([]);
        const removed = await waitFor("a list_changed refresh without up__new", () => (seen && !seen.some((t) => t.name === "up__new") ? seen : undefined));
        expect(removed.map((t) => t.name).sort()).toEqual([...before].sort());
      } finally {
        await client.close();
      }
    });
  }

  it("a signal that changes nothing sends nothing", async () => {
    const up = new MutableSource("test-up");
    const studio = makeStudio(up);
    up.set([tool("up__same")]);
    let calls = 0;
    const client = await connect(studio, "legacy", () => calls++);
    try {
      await client.listTools();
      await new Promise((r) => setTimeout(r, 300));
      const same = up.list();
      up.set([...same]); // another array, the same tools
      await new Promise((r) => setTimeout(r, 500));
      expect(calls).toBe(0);
    } finally {
      await client.close();
    }
  });
});

describe("the first tools/list after a start", () => {
  it("waits for the configured servers to connect, so their tools are in it", async () => {
    const up = new MutableSource("test-up");
    let settledCalls = 0;
    const studio = makeStudio(up, {
      settled: async () => {
        settledCalls++;
        await new Promise((r) => setTimeout(r, 400));
        up.set([tool("up__late")]);
      },
    });
    const started = Date.now();
    const first = await rawList(studio);
    expect(first.result!.tools.map((t) => t.name)).toContain("up__late");
    expect(Date.now() - started).toBeGreaterThanOrEqual(350);
    // Waited for once: later lists answer at once.
    await rawList(studio);
    expect(settledCalls).toBe(1);
  });

  it("waits within a bound (STUDIO_MCP_LIST_WAIT_MS) for servers that never settle", async () => {
    process.env.STUDIO_MCP_LIST_WAIT_MS = "300";
    const up = new MutableSource("test-up");
    let bound: number | undefined;
    const studio = makeStudio(up, {
      // As McpManager.settled: resolves at the latest after its timeout.
      settled: (timeoutMs = 10_000) => {
        bound = timeoutMs;
        return new Promise((r) => setTimeout(r, timeoutMs));
      },
    });
    const started = Date.now();
    const res = await rawList(studio);
    expect(res.result!.tools.length).toBeGreaterThan(0);
    expect(bound).toBe(300);
    expect(Date.now() - started).toBeLessThan(3_000);
  });
});

describe("paging", () => {
  it("pages a large registry with an opaque cursor; a client following nextCursor sees every tool once", async () => {
    const up = new MutableSource("test-up");
    up.set(Array.from({ length: 250 }, (_, i) => tool(`up__t${String(i).padStart(3, "0")}`)));
    const studio = makeStudio(up);
    const all = (await studio.registry.list()).map((s) => s.name);
    expect(all.length).toBeGreaterThan(250);

    const names: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const res = await rawList(studio, cursor ? { cursor } : {});
      expect(res.error).toBeUndefined();
      expect(res.result!.tools.length).toBeLessThanOrEqual(100);
      names.push(...res.result!.tools.map((t) => t.name));
      cursor = res.result!.nextCursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(Math.ceil(all.length / 100));
    expect(names).toEqual(all);

    // The SDK client follows the cursors too (2025-era and 2026-07-28).
    for (const era of ["modern", "legacy"] as const) {
      const client = await connect(studio, era);
      try {
        const listed = (await client.listTools()).tools.map((t) => t.name);
        expect(new Set(listed)).toEqual(new Set(all));
      } finally {
        await client.close();
      }
    }
  });

  it("the page size follows STUDIO_MCP_PAGE_SIZE; a small registry is one page without nextCursor", async () => {
    const studio = makeStudio(new MutableSource("test-up"));
    const all = await studio.registry.list();
    const one = await rawList(studio);
    expect(one.result!.tools.length).toBe(all.length);
    expect(one.result!.nextCursor).toBeUndefined();
    process.env.STUDIO_MCP_PAGE_SIZE = "2";
    const first = await rawList(studio);
    expect(first.result!.tools.map((t) => t.name)).toEqual(all.slice(0, 2).map((s) => s.name));
    expect(decodeCursor(first.result!.nextCursor!)).toBe(2);
  });

  it("an invalid cursor is the JSON-RPC error -32602, not the whole list", async () => {
    const studio = makeStudio(new MutableSource("test-up"));
    for (const cursor of ["nope", "", "!!!", Buffer.from("ts1:-1").toString("base64url"), Buffer.from("ts1:abc").toString("base64url"), "x".repeat(500)]) {
      const res = await rawList(studio, { cursor });
      expect(res.result, `cursor ${JSON.stringify(cursor)}`).toBeUndefined();
      expect(res.error?.code).toBe(-32602);
      expect(res.error?.message).toMatch(/Invalid cursor/);
    }
    // A valid cursor past the end (the list shrank between pages) is an empty last page.
    const past = await rawList(studio, { cursor: encodeCursor(10_000) });
    expect(past.result!.tools).toEqual([]);
    expect(past.result!.nextCursor).toBeUndefined();
  });
});

describe("results passed on", () => {
  it("an upstream result's _meta reaches the client, with the studio's keys added", async () => {
    const up = new MutableSource("test-up");
    up.set([
      tool("up__meta", async () =>
        toToolOutput({ content: [{ type: "text", text: "ok" }], _meta: { "com.example/trace": "abc", "com.example/cost": 3 } }, "up"),
      ),
    ]);
    const studio = makeStudio(up);
    for (const era of ["modern", "legacy"] as const) {
      const client = await connect(studio, era);
      try {
        const res = await client.callTool({ name: "up__meta", arguments: {} });
        expect(res._meta).toMatchObject({ "com.example/trace": "abc", "com.example/cost": 3, [META.runStatus]: "success" });
        expect(typeof res._meta?.[META.runId]).toBe("string");
      } finally {
        await client.close();
      }
    }
  });

  it("an upstream isError result keeps its structuredContent and _meta", async () => {
    const up = new MutableSource("test-up");
    up.set([
      tool("up__fails", async () =>
        toToolOutput(
          {
            content: [{ type: "text", text: "quota exceeded" }],
            structuredContent: { code: "QUOTA", retryAfter: 30 },
            isError: true,
            _meta: { "com.example/trace": "err-1" },
          },
          "up",
        ),
      ),
    ]);
    const studio = makeStudio(up);
    for (const era of ["modern", "legacy"] as const) {
      const client = await connect(studio, era);
      try {
        const res = await client.callTool({ name: "up__fails", arguments: {} });
        expect(res.isError).toBe(true);
        expect(res.structuredContent).toEqual({ code: "QUOTA", retryAfter: 30 });
        expect(res._meta).toMatchObject({ "com.example/trace": "err-1", [META.runStatus]: "error" });
        const run = await runs.get(String(res._meta?.[META.runId]));
        expect(run?.output?.structuredContent).toEqual({ code: "QUOTA", retryAfter: 30 });
      } finally {
        await client.close();
      }
    }
  });
});

describe("option domains in the listed input schemas (MCP has no completion reference for a tool argument)", () => {
  it("a domain parameter lists its current choices, resolved from the live config at each tools/list; the run-time check still applies", async () => {
    let config = RuntimeConfigSchema.parse({
      defaultAgent: "ops",
      agents: [{ alias: "ops", channels: ["slack.ops", "telegram.alerts"], groups: ["oncall"] }],
      channels: [
        { type: "slack", alias: "ops", peers: ["research", "@marta"], description: "Ops room" },
        { type: "telegram", alias: "alerts", peers: ["@li"], enabled: false },
      ],
      groups: [{ name: "oncall", members: ["@marta", "@li"] }],
      lists: { priorities: ["p1", "p2"] },
    });
    const { studio } = buildMcpStudio(db, { config: () => config });
    studios.push(studio);
    for (const era of ["modern", "legacy"] as const) {
      let refreshed: Tool[] | undefined;
      const client = await connect(studio, era, (t) => (refreshed = t));
      try {
        const byName = async () =>
          new Map((await client.listTools()).tools.map((t) => [t.name, t.inputSchema as { properties: Record<string, Record<string, unknown>> }]));
        let tools = await byName();
        const send = tools.get("send_message")!.properties;
        // Labelled choices as oneOf {const, title, description}; the disabled channel left out.
        expect(send.channel).toMatchObject({ type: "string", oneOf: [{ const: "slack.ops", description: "Ops room" }] });
        // Depends on the sibling channel: every channel's peers (the run-time check narrows them).
        expect((send.target!.oneOf as { const: string }[]).map((o) => o.const)).toEqual(["research", "@li", "@marta"]);
        const notify = tools.get("notify_group")!.properties;
        expect(notify.priority).toMatchObject({ type: "string", enum: era === "modern" ? ["p1", "p2"] : ["urgent-modern", "p1", "p2"] });
        expect(tools.get("notify_group")).toBeDefined();
        // A parameter without a domain is as declared.
        expect(send.text!.enum).toBeUndefined();

        await new Promise((r) => setTimeout(r, 300));
        config = RuntimeConfigSchema.parse({ ...config, lists: { priorities: [`urgent-${era}`, "p1", "p2"] } });
        tools = await byName();
        expect(tools.get("notify_group")!.properties.priority!.enum).toEqual([`urgent-${era}`, "p1", "p2"]);
        // Connected clients hear of it (the endpoint looks every 2 s while someone listens).
        const priorities = (list: Tool[] | undefined) =>
          (list?.find((t) => t.name === "notify_group")?.inputSchema.properties as Record<string, { enum?: string[] }> | undefined)?.priority?.enum;
        await waitFor("a list_changed after the config edit", () => (priorities(refreshed)?.includes(`urgent-${era}`) ? true : undefined), 6_000);

        const bad = await client.callTool({ name: "send_message", arguments: { channel: "telegram.alerts", target: "@li", text: "x" } });
        expect(bad.isError).toBe(true);
        expect(JSON.stringify(bad.content)).toMatch(/telegram\.alerts.*is disabled/);
      } finally {
        await client.close();
      }
    }
  });

  it("a domain without choices (no agent configured) or an unknown list leaves the schema as declared", async () => {
    const studio = makeStudio(new MutableSource("test-up"));
    const client = await connect(studio, "modern");
    try {
      const tools = new Map((await client.listTools()).tools.map((t) => [t.name, t]));
      const declared = new Map((await studio.registry.list()).map((s) => [s.name, s.inputSchema]));
      for (const name of ["send_message", "notify_group", "clear_outbox"]) expect(tools.get(name)!.inputSchema, name).toEqual(declared.get(name));
      expect(tools.get("send_message")!._meta?.[META.paramDomains]).toEqual({ channel: "channel_refs", target: "peer_targets" });
    } finally {
      await client.close();
    }
  });
});

describe("resumable streams (2025-era sessions)", () => {
  /** Reads SSE events from a stream until `until` says stop (or it ends). */
  async function readEvents(body: ReadableStream<Uint8Array>, until: (e: { id?: string; retry?: number; data?: unknown }) => boolean) {
    const reader = body.getReader();
    const decoder = new TextDecoder();
    const events: { id?: string; retry?: number; data?: unknown }[] = [];
    let buffer = "";
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      let end: number;
      while ((end = buffer.indexOf("\n\n")) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const e: { id?: string; retry?: number; data?: unknown } = {};
        for (const line of block.split("\n")) {
          if (line.startsWith("id: ")) e.id = line.slice(4);
          else if (line.startsWith("retry: ")) e.retry = Number(line.slice(7));
          else if (line.startsWith("data: ") && line.length > 6) e.data = JSON.parse(line.slice(6));
        }
        if (e.id === undefined && e.data === undefined) continue; // keep-alive comments
        events.push(e);
        if (until(e)) {
          await reader.cancel(); // hang up
          return events;
        }
      }
    }
    return events;
  }

  const post = (studio: McpStudio, body: unknown, session?: string) =>
    handleMcpRequest(
      new Request(URL_, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          "mcp-protocol-version": "2025-11-25",
          ...(session ? { "mcp-session-id": session } : {}),
        },
        body: JSON.stringify(body),
      }),
      { studio, actor: "gateway-tester" },
    );

  it("every event has an id, streams open with retry, and a call's stream lost midway is resumed with Last-Event-ID up to its result", async () => {
    const studio = makeStudio(new MutableSource("test-up"));
    const init = await post(studio, {
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "resumer", version: "1" } },
    });
    const session = init.headers.get("mcp-session-id")!;
    expect(session).toBeTruthy();
    await init.body?.cancel();
    expect((await post(studio, { jsonrpc: "2.0", method: "notifications/initialized" }, session)).status).toBe(202);

    const call = await post(
      studio,
      { jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "slow_count", arguments: { steps: 5, delayMs: 80 }, _meta: { progressToken: "p" } } },
      session,
    );
    expect(call.headers.get("content-type")).toMatch(/text\/event-stream/);
    // Read the priming event and the first progress, then hang up.
    const first = await readEvents(call.body!, (e) => (e.data as { method?: string } | undefined)?.method === "notifications/progress");
    expect(first[0]).toMatchObject({ retry: 1000 });
    expect(first.every((e) => typeof e.id === "string" && e.id.length > 0)).toBe(true);
    const lastId = first.at(-1)!.id!;

    const resumed = await handleMcpRequest(
      new Request(URL_, {
        method: "GET",
        headers: { accept: "text/event-stream", "mcp-session-id": session, "mcp-protocol-version": "2025-11-25", "last-event-id": lastId },
      }),
      { studio },
    );
    expect(resumed.status).toBe(200);
    const rest = await readEvents(resumed.body!, (e) => (e.data as { id?: number } | undefined)?.id === 7);
    const progress = rest.flatMap((e) =>
      (e.data as { method?: string; params?: { progress: number } }).method === "notifications/progress"
        ? [(e.data as { params: { progress: number } }).params.progress]
        : [],
    );
    const seenFirst = (first.at(-1)!.data as { params: { progress: number } }).params.progress;
    // Nothing sent before Last-Event-ID again, nothing lost after it.
    expect(progress).toEqual(Array.from({ length: 5 - seenFirst }, (_, i) => seenFirst + i + 1));
    expect(rest.at(-1)!.data).toMatchObject({ id: 7, result: { structuredContent: { counted: 5 } } });
  });

  it("an unknown Last-Event-ID is refused with 400", async () => {
    const studio = makeStudio(new MutableSource("test-up"));
    const init = await post(studio, {
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "resumer", version: "1" } },
    });
    const session = init.headers.get("mcp-session-id")!;
    await init.body?.cancel();
    const res = await handleMcpRequest(
      new Request(URL_, {
        method: "GET",
        headers: { accept: "text/event-stream", "mcp-session-id": session, "mcp-protocol-version": "2025-11-25", "last-event-id": "not an event id" },
      }),
      { studio },
    );
    expect(res.status).toBe(400);
  });
});

describe("prompts and resources of the configured servers", () => {
  const manager = exampleServer(true);

  for (const era of ["modern", "legacy"] as const) {
    it(`are re-offered to a ${era === "modern" ? "2026-07-28" : "2025-era"} client: prompts named like tools, resources by their URI, completions routed`, async () => {
      const studio = makeStudio(manager.source(), manager);
      const client = await connect(studio, era);
      try {
        expect(client.getServerCapabilities()).toMatchObject({ prompts: {}, resources: { subscribe: true }, completions: {} });
        const prompts = (await client.listPrompts()).prompts.map((p) => p.name);
        expect(prompts).toEqual([
          "ex__test_simple_prompt",
          "ex__test_prompt_with_arguments",
          "ex__test_prompt_with_embedded_resource",
          "ex__test_prompt_with_image",
        ]);
        const got = await client.getPrompt({ name: "ex__test_prompt_with_arguments", arguments: { arg1: "one", arg2: "two" } });
        expect(JSON.stringify(got.messages)).toMatch(/arg1='one', arg2='two'/);
        await expect(client.getPrompt({ name: "test_simple_prompt" })).rejects.toMatchObject({ code: -32602 });
        await expect(client.getPrompt({ name: "other__test_simple_prompt" })).rejects.toMatchObject({ code: -32602 });

        const resources = (await client.listResources()).resources.map((r) => r.uri);
        expect(resources).toEqual(expect.arrayContaining(["example://notes/changelog.md", "test://static-text", "test://static-binary"]));
        expect((await client.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate)).toEqual(["test://template/{id}/data"]);
        const read = await client.readResource({ uri: "test://template/42/data" });
        expect(read.contents[0]).toMatchObject({ uri: "test://template/42/data", mimeType: "application/json" });
        expect(JSON.stringify(read.contents)).toMatch(/42/);
        // Resource not found: -32602 with data.uri (2026-07-28; the SDK sends it to 2025-era clients too).
        await expect(client.readResource({ uri: "test://nowhere" })).rejects.toMatchObject({ code: -32602, data: { uri: "test://nowhere" } });
        // resources/subscribe is 2025-era (2026-07-28 subscribes through subscriptions/listen).
        if (era === "legacy") expect(await client.subscribeResource({ uri: "test://watched-resource" })).toEqual({});

        const completed = await client.complete({
          ref: { type: "ref/prompt", name: "ex__test_prompt_with_arguments" },
          argument: { name: "arg1", value: "par" },
        });
        expect(completed.completion.values).toEqual(["paris", "park", "party"]);
      } finally {
        await client.close();
      }
    });
  }

  it("a server with resources but no resources/templates/list offers no templates, and that is no failure", async () => {
    const plain = new McpManager({ clientInfo: { name: "tool-studio", version: "0.1.0" } });
    const warn = vi.spyOn(console, "warn");
    try {
      // Without --conformance the example server lists resources and has no templates method.
      await plain.sync([{ name: "plain", transport: "stdio", command: process.execPath, args: [EXAMPLE_SERVER], env: {}, enabled: true, namespace: true }]);
      await plain.settled(15_000);
      const client = await connect(makeStudio(plain.source(), plain), "modern");
      try {
        expect((await client.listResources()).resources.map((r) => r.uri)).toContain("example://notes/changelog.md");
        expect((await client.listResourceTemplates()).resourceTemplates).toEqual([]);
      } finally {
        await client.close();
      }
      expect(warn.mock.calls.map((c) => String(c[0])).filter((m) => m.includes("listing from MCP server"))).toEqual([]);
    } finally {
      warn.mockRestore();
      await plain.close();
    }
  }, 30_000);

  for (const era of ["modern", "legacy"] as const) {
    it(`a ${era === "modern" ? "2026-07-28" : "2025-era"} client hears when a server's prompts or resources change (list_changed relayed)`, async () => {
      const studio = makeStudio(manager.source(), manager);
      let prompts: Prompt[] | undefined;
      let resources: Resource[] | undefined;
      const client = await connect(studio, era, undefined, undefined, { prompts: (p) => (prompts = p), resources: (r) => (resources = r) });
      try {
        expect(client.getServerCapabilities()).toMatchObject({ prompts: { listChanged: true }, resources: { listChanged: true } });
        await client.listPrompts();
        await new Promise((r) => setTimeout(r, 300));
        await client.callTool({ name: "ex__add_prompt", arguments: { name: `added_${era}` } });
        const p = await waitFor("a prompts/list_changed refresh", () => (prompts?.some((x) => x.name === `ex__added_${era}`) ? prompts : undefined));
        expect(p.map((x) => x.name)).toContain("ex__test_simple_prompt");
        await client.callTool({ name: "ex__add_resource", arguments: { name: era } });
        await waitFor("a resources/list_changed refresh", () => (resources?.some((x) => x.uri === `test://added/${era}`) ? resources : undefined));
      } finally {
        await client.close();
      }
    });
  }

  it("a server added or removed changes the prompts and resources, and connected clients hear of it", async () => {
    const own = new McpManager({ clientInfo: { name: "tool-studio", version: "0.1.0" } });
    try {
      await own.sync([]);
      const studio = makeStudio(own.source(), own);
      let prompts: Prompt[] | undefined;
      let resources: Resource[] | undefined;
      const client = await connect(studio, "legacy", undefined, undefined, { prompts: (p) => (prompts = p), resources: (r) => (resources = r) });
      try {
        expect((await client.listPrompts()).prompts).toEqual([]);
        await new Promise((r) => setTimeout(r, 300));
        await own.sync([{ name: "late", transport: "stdio", command: process.execPath, args: [EXAMPLE_SERVER, "--conformance"], env: {}, enabled: true }]);
        await waitFor("prompts of the added server", () => (prompts?.some((x) => x.name === "late__test_simple_prompt") ? true : undefined), 15_000);
        await waitFor("resources of the added server", () => (resources?.some((x) => x.uri === "test://static-text") ? true : undefined), 15_000);
        await own.sync([]);
        await waitFor("no prompts once it is removed", () => (prompts?.length === 0 ? true : undefined));
        await waitFor("no resources once it is removed", () => (resources?.length === 0 ? true : undefined));
      } finally {
        await client.close();
      }
    } finally {
      await own.close();
    }
  }, 30_000);

  it("are not offered where the process holds no connections (a web instance with STUDIO_WORKER=off): asked anyway, -32601 says why and where they are", async () => {
    const directory = new McpDirectory(db.prisma, { servers: () => [], notifier: null });
    await directory.start();
    try {
      const studio = makeStudio(directory.source(), directory);
      const client = await connect(studio, "legacy");
      try {
        expect(client.getServerCapabilities()?.prompts).toBeUndefined();
        expect(client.getServerCapabilities()?.resources).toBeUndefined();
        expect(client.getServerCapabilities()?.completions).toBeUndefined();
      } finally {
        await client.close();
      }
      for (const [method, params] of [
        ["prompts/list", {}],
        ["prompts/get", { name: "ex__test_simple_prompt" }],
        ["resources/list", {}],
        ["resources/read", { uri: "test://static-text" }],
        ["resources/templates/list", {}],
        ["completion/complete", { ref: { type: "ref/prompt", name: "p" }, argument: { name: "a", value: "" } }],
      ] as const) {
        const res = await rawRpc(studio, modernRequest(URL_, method, params, "uri" in params ? { "mcp-name": params.uri } : {}));
        expect(res.error, method).toMatchObject({ code: -32601, message: expect.stringMatching(/STUDIO_WORKER=off/) });
        expect(res.error!.message).toContain(method);
      }
      // Tools are listed there as everywhere.
      expect((await rawList(studio)).result!.tools.length).toBeGreaterThan(0);
    } finally {
      await directory.close();
    }
  });
});

describe("a configured server's log messages and progress during a call, forwarded to the /api/mcp client", () => {
  const manager = exampleServer(false);

  /** Calls the fixture that logs three info messages; the messages the client got. */
  async function logsOf(client: Client, meta?: Record<string, unknown>): Promise<{ level: string; logger?: string; data: unknown }[]> {
    const got: { level: string; logger?: string; data: unknown }[] = [];
    client.setNotificationHandler("notifications/message", (n) => void got.push(n.params));
    const res = await client.callTool({ name: "test_tool_with_logging", arguments: {}, ...(meta ? { _meta: meta } : {}) });
    expect(JSON.stringify(res.content)).toContain("Tool with logging executed successfully");
    await new Promise((r) => setTimeout(r, 100));
    return got;
  }

  const MESSAGES = ["Tool execution started", "Tool processing data", "Tool execution completed"];

  it("2025-era session: forwarded as notifications/message, respecting logging/setLevel", async () => {
    // The example server speaks 2026-07-28 to the studio and logs only from the level a request
    // names: the studio asks for them (io.modelcontextprotocol/logLevel) for a client that takes them.
    expect(manager.state("ex")?.protocolVersion).toBe("2026-07-28");
    const studio = makeStudio(manager.source(), manager);
    const client = await connect(studio, "legacy");
    try {
      expect(client.getServerCapabilities()?.logging).toEqual({});
      await client.setLoggingLevel("debug");
      const all = await logsOf(client);
      expect(all.map((m) => m.data)).toEqual(MESSAGES);
      expect(all.every((m) => m.level === "info" && m.logger === "example")).toBe(true);
      await client.setLoggingLevel("warning");
      expect(await logsOf(client)).toEqual([]);
    } finally {
      await client.close();
    }
  });

  it("2026-07-28 client: forwarded from the level its request names (io.modelcontextprotocol/logLevel), none without one", async () => {
    const studio = makeStudio(manager.source(), manager);
    const client = await connect(studio, "modern");
    try {
      expect((await logsOf(client, { [LOG_LEVEL_META_KEY]: "info" })).map((m) => m.data)).toEqual(MESSAGES);
      expect(await logsOf(client, { [LOG_LEVEL_META_KEY]: "error" })).toEqual([]);
      expect(await logsOf(client)).toEqual([]);
    } finally {
      await client.close();
    }
  });

  for (const era of ["modern", "legacy"] as const) {
    it(`progress of the server reaches a ${era === "modern" ? "2026-07-28" : "2025-era"} client that asked for it`, async () => {
      const studio = makeStudio(manager.source(), manager);
      const client = await connect(studio, era);
      try {
        const seen: { progress: number; total?: number; message?: string }[] = [];
        await client.callTool({ name: "test_tool_with_progress", arguments: {} }, { onprogress: (p) => void seen.push(p) });
        expect(seen.map((p) => p.progress)).toEqual([0, 50, 100]);
        expect(seen.at(-1)).toMatchObject({ total: 100, message: "100%" });
      } finally {
        await client.close();
      }
    });
  }
});

describe("a configured server's requests for input during a call, relayed to the /api/mcp client", () => {
  const manager = exampleServer(false);

  const textOf = (r: Awaited<ReturnType<Client["callTool"]>>) => JSON.stringify(r.content);
  const auditOf = async (runId: string) =>
    (await db.prisma.auditEntry.findMany({ where: { action: "run.input" } })).filter((e) => JSON.stringify(e.detail).includes(runId));

  for (const era of ["legacy", "modern"] as const)
    it(`a ${era === "modern" ? "2026-07-28 client (input_required, then its retry with inputResponses)" : "2025-era client (a request on the call)"} that declared elicitation answers it (accept): the server gets its answer unchanged, the run waited as input_required, the answer is audited (run.input)`, async () => {
      const studio = makeStudio(manager.source(), manager);
      const client = await connect(studio, era, undefined, { elicitation: {} });
      const seen: unknown[] = [];
      let waiting: string | undefined;
      client.setRequestHandler("elicitation/create", async (request) => {
        seen.push(request.params);
        const run = await db.prisma.run.findFirst({ where: { toolName: "test_elicitation", status: "running" }, orderBy: { startedAt: "desc" } });
        waiting = run && pendingInputs(run.id).length === 1 ? run.id : undefined;
        return { action: "accept", content: { username: "ada", email: "ada@example.com" } };
      });
      try {
        const result = await client.callTool({ name: "test_elicitation", arguments: { message: "Who are you?" } });
        expect(seen).toEqual([
          expect.objectContaining({ message: "Who are you?", requestedSchema: expect.objectContaining({ required: ["username", "email"] }) }),
        ]);
        expect(textOf(result)).toContain('User response: action=accept, content={\\"username\\":\\"ada\\",\\"email\\":\\"ada@example.com\\"}');
        expect(waiting, "the run waited for input while the client was asked").toBeDefined();
        const entries = await auditOf(waiting!);
        expect(entries).toHaveLength(1);
        expect(entries[0]).toMatchObject({
          actor: "gateway-tester",
          target: "test_elicitation",
          detail: expect.objectContaining({ kind: "elicitation", action: "accept", relayed: true, content: { username: "ada", email: "ada@example.com" } }),
        });
      } finally {
        await client.close();
      }
    });

  for (const era of ["legacy", "modern"] as const)
    it(`${era === "modern" ? "2026-07-28" : "2025-era"}: a decline goes back as a decline; sampling is relayed to a client that declared it`, async () => {
      const studio = makeStudio(manager.source(), manager);
      const client = await connect(studio, era, undefined, { elicitation: {}, sampling: {} });
      client.setRequestHandler("elicitation/create", async () => ({ action: "decline" }));
      client.setRequestHandler("sampling/createMessage", async (request) => ({
        role: "assistant",
        content: { type: "text", text: `echo: ${JSON.stringify(request.params.messages[0].content)}` },
        model: "test-model",
        stopReason: "endTurn",
      }));
      try {
        expect(textOf(await client.callTool({ name: "test_elicitation", arguments: { message: "m" } }))).toContain("User response: action=decline");
        const sampled = await client.callTool({ name: "test_sampling", arguments: { prompt: "Say hi" } });
        expect(textOf(sampled)).toContain("LLM response: echo:");
        expect(textOf(sampled)).toContain("Say hi");
        const entries = await db.prisma.auditEntry.findMany({ where: { action: "run.input", target: "test_sampling" } });
        expect(entries.at(-1)?.detail).toMatchObject({ kind: "sampling", action: "approve", model: "test-model", relayed: true });
      } finally {
        await client.close();
      }
    });

  describe("2026-07-28 round trips, raw", () => {
    type Step = {
      resultType?: string;
      inputRequests?: Record<string, { method: string; params: Record<string, unknown> }>;
      requestState?: string;
      content?: { text: string }[];
    };
    /** A tools/call of a 2026-07-28 client that declared elicitation, as it goes on the wire. */
    const person = (actor: string): Principal => ({ via: "token", role: "runner", userId: null, actor, name: actor, tokenId: null, tokenName: null });
    async function send(studio: McpStudio, params: Record<string, unknown>, actor = "raw-caller") {
      const body = {
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: {
          name: "test_elicitation",
          arguments: { message: "Name?" },
          ...params,
          _meta: {
            "io.modelcontextprotocol/protocolVersion": MODERN,
            "io.modelcontextprotocol/clientCapabilities": { elicitation: {} },
            "io.modelcontextprotocol/clientInfo": { name: "raw-client", version: "0" },
          },
        },
      };
      const request = new Request(URL_, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          "mcp-protocol-version": MODERN,
          "mcp-method": "tools/call",
          "mcp-name": "test_elicitation",
        },
        body: JSON.stringify(body),
      });
      return rawRpc<Step>(studio, request, person(actor));
    }

    it("input_required names the server's request; a bad answer, a stranger's retry and an unknown requestState are -32602 with the reason; the right answer completes the call", async () => {
      const studio = makeStudio(manager.source(), manager);
      const first = await send(studio, {});
      expect(first.result).toMatchObject({ resultType: "input_required", requestState: expect.any(String) });
      const [key, asked] = Object.entries(first.result!.inputRequests!)[0]!;
      expect(asked).toMatchObject({ method: "elicitation/create", params: { message: "Name?" } });
      const state = first.result!.requestState!;

      const unknown = await send(studio, { requestState: "not-a-flow", inputResponses: { [key]: { action: "decline" } } });
      expect(unknown.error?.code).toBe(-32602);
      expect(unknown.error?.message).toMatch(/names no call of this tool waiting for input here/);
      const stranger = await send(studio, { requestState: state, inputResponses: { [key]: { action: "decline" } } }, "someone-else");
      expect(stranger.error?.code).toBe(-32602);

      const notAnAnswer = await send(studio, { requestState: state, inputResponses: { [key]: { hello: 1 } } });
      expect(notAnAnswer.error).toMatchObject({ code: -32602, message: expect.stringMatching(/not an elicitation result/) });
      const missingField = await send(studio, { requestState: state, inputResponses: { [key]: { action: "accept", content: { username: "ada" } } } });
      expect(missingField.error).toMatchObject({ code: -32602, message: expect.stringMatching(/email/) });

      // A retry without the answer is asked again; then the answer completes the call.
      const again = await send(studio, { requestState: state });
      expect(again.result?.resultType).toBe("input_required");
      const key2 = Object.keys(again.result!.inputRequests!)[0]!;
      const done = await send(studio, {
        requestState: again.result!.requestState,
        inputResponses: { [key2]: { action: "accept", content: { username: "ada", email: "a@example.com" } } },
      });
      expect(done.error).toBeUndefined();
      expect(JSON.stringify(done.result?.content)).toContain("action=accept");
      // The flow has ended: its requestState names nothing now.
      expect((await send(studio, { requestState: state, inputResponses: {} })).error?.code).toBe(-32602);
    });
  });

  for (const era of ["legacy", "modern"] as const)
    it(`a ${era === "modern" ? "2026-07-28" : "2025-era"} client without the capability: the server's request is declined (sampling refused) at once, as before`, async () => {
      const studio = makeStudio(manager.source(), manager);
      const client = await connect(studio, era);
      try {
        const started = Date.now();
        expect(textOf(await client.callTool({ name: "test_elicitation", arguments: { message: "m" } }))).toContain("User response: action=decline");
        const sampled = await client.callTool({ name: "test_sampling", arguments: { prompt: "p" } });
        expect(sampled.isError).toBe(true);
        expect(Date.now() - started).toBeLessThan(5_000);
      } finally {
        await client.close();
      }
    });
});

describe("resource updates relayed to a 2025-era session (resources/subscribe on /api/mcp)", () => {
  let manager: McpManager;
  beforeAll(async () => {
    manager = new McpManager({ clientInfo: { name: "tool-studio", version: "0.1.0" } });
    await manager.sync([{ name: "ev", transport: "stdio", command: process.execPath, args: [everythingServerPath(), "stdio"], env: {}, enabled: true }]);
    await manager.settled(30_000);
  }, 40_000);
  afterAll(() => manager?.close());

  it("a subscribed client hears notifications/resources/updated from server-everything; unsubscribing ends them and releases the upstream subscription", async () => {
    const studio = makeStudio(manager.source(), manager);
    const client = await connect(studio, "legacy");
    const updates: string[] = [];
    client.setNotificationHandler("notifications/resources/updated", (n) => void updates.push(n.params.uri));
    const uri = "demo://resource/dynamic/text/1";
    try {
      expect(await client.subscribeResource({ uri })).toEqual({});
      expect(resourceFollows().subscriptions).toBe(1);
      // server-everything sends updates for its subscribed resources while this tool is on.
      await client.callTool({ name: "ev__toggle-subscriber-updates", arguments: {} });
      await eventually(() => updates.length > 0, 10_000);
      expect(updates[0]).toBe(uri);
      expect(await client.unsubscribeResource({ uri })).toEqual({});
      await eventually(() => resourceFollows().subscriptions === 0);
      await client.callTool({ name: "ev__toggle-subscriber-updates", arguments: {} });
    } finally {
      await client.close();
    }
  }, 30_000);

  it("a session that ends while subscribed releases its subscription", async () => {
    const studio = makeStudio(manager.source(), manager);
    const client = await connect(studio, "legacy");
    await client.subscribeResource({ uri: "demo://resource/dynamic/text/2" });
    expect(resourceFollows().subscriptions).toBe(1);
    await client.close();
    await closeMcpEndpoint(studio);
    await eventually(() => resourceFollows().subscriptions === 0);
  });
});
