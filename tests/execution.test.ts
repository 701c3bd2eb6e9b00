import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { executeTool, UnknownToolError, isUnknownToolError } from "@/lib/execution/execute";
import { cancelRun } from "@/lib/execution/active-runs";
import { Registry } from "@/lib/registry/registry";
import { RunStore } from "@/lib/runs/store";
import { defineTool } from "@/lib/tools/define";
import { ToolError } from "@/lib/tools/errors";
import { structured, text } from "@/lib/tools/output";
import { createTestDatabase, type TestDatabase } from "./helpers/db";

// Real tools, a real registry and a real PostgreSQL database: the whole run path.
const echo = defineTool({
  name: "echo",
  description: "echo",
  inputSchema: {
    type: "object",
    properties: { msg: { type: "string" }, n: { type: "integer", minimum: 0 } },
    required: ["msg"],
    additionalProperties: false,
  } as const,
  outputSchema: { type: "object", properties: { msg: { type: "string" } }, required: ["msg"] },
  run: async ({ msg }) => structured({ msg }),
});
const liar = defineTool({
  name: "liar",
  description: "declares an output schema it does not keep",
  inputSchema: { type: "object" } as const,
  outputSchema: { type: "object", properties: { count: { type: "integer" } }, required: ["count"] },
  run: async () => structured({ count: "many" }),
});
const wait = defineTool({
  name: "wait",
  description: "waits for its signal, reporting progress",
  inputSchema: { type: "object" } as const,
  run: (_a, ctx) =>
    new Promise((resolve, reject) => {
      ctx.progress({ progress: 1, total: 2, message: "waiting" });
      ctx.signal.addEventListener("abort", () => reject(ctx.signal.reason));
      setTimeout(() => resolve({ content: [text("done")] }), 20_000);
    }),
});
const stubborn = defineTool({
  name: "stubborn",
  description: "ignores its signal",
  inputSchema: { type: "object" } as const,
  run: () => new Promise((resolve) => setTimeout(() => resolve({ content: [text("late")] }), 5_000)),
});
const broken = defineTool({
  name: "broken",
  description: "throws",
  inputSchema: { type: "object" } as const,
  run: async () => {
    throw new Error("secret connection string postgres://u:p@h");
  },
});
const limited = defineTool({
  name: "limited",
  description: "rate limited",
  inputSchema: { type: "object" } as const,
  run: async () => {
    throw new ToolError("rate_limited", "Too many calls; retry in 10 s.", { detail: "bucket=42" });
  },
});
const mcpError = defineTool({
  name: "mcp_error",
  description: "returns isError",
  inputSchema: { type: "object" } as const,
  run: async () => ({ content: [text("upstream said no")], isError: true }),
});

let db: TestDatabase;
let deps: { registry: Registry; runs: RunStore };
const base = { origin: "api" as const, actor: "tester" };

beforeAll(async () => {
  db = await createTestDatabase();
  const registry = new Registry();
  registry.addSource({ id: "builtin", list: () => [echo, liar, wait, stubborn, broken, limited, mcpError] });
  deps = { registry, runs: new RunStore(db.prisma) };
});
afterAll(async () => db?.drop());

describe("executeTool", () => {
  it("runs, validates the output and captures the run", async () => {
    const run = await executeTool(deps, { ...base, tool: "echo", arguments: { msg: "hi" } });
    expect(run).toMatchObject({ tool: "echo", status: "success", outputValid: true, error: null, origin: "api", actor: "tester", source: "builtin" });
    expect(run.output?.structuredContent).toEqual({ msg: "hi" });
    expect(run.durationMs).toBeGreaterThanOrEqual(0);
    expect(run.specHash).toMatch(/^[0-9a-f]{64}$/);
    expect(await deps.runs.get(run.id)).toEqual(run);
  });

  it("rejects invalid arguments without running, naming each field, and captures them", async () => {
    const run = await executeTool(deps, { ...base, tool: "echo", arguments: { n: -1, extra: true } });
    expect(run.status).toBe("rejected");
    expect(run.error?.kind).toBe("invalid_args");
    expect(run.error?.details).toEqual(
      expect.arrayContaining([
        { path: "/msg", message: "is required" },
        { path: "/n", message: "must be >= 0" },
        { path: "/extra", message: "is not an allowed property" },
      ]),
    );
    expect(run.output).toBeNull();
    expect((await deps.runs.get(run.id))?.status).toBe("rejected");
  });

  it("rejects arguments that could not be stored as sent, keeping the storable copy it was given", async () => {
    const run = await executeTool(deps, {
      ...base,
      tool: "echo",
      arguments: { msg: "nul \\u0000 here" },
      inputProblems: [{ path: "/msg", message: "contains U+0000 (NUL), which cannot be stored" }],
    });
    expect(run).toMatchObject({ status: "rejected", arguments: { msg: "nul \\u0000 here" }, error: { kind: "invalid_args", details: [{ path: "/msg" }] } });
    expect(run.error?.message).toMatch(/altered for storage/);
  });

  it("an unknown tool is told apart from other tool errors, across bundle copies too", async () => {
    const err = await executeTool(deps, { ...base, tool: "no_such_tool", arguments: {} }).catch((e: unknown) => e);
    expect(isUnknownToolError(err)).toBe(true);
    expect(isUnknownToolError(Object.assign(new Error("x"), { name: "ToolError", kind: "not_found" }))).toBe(false);
  });

  it("rejects arguments that are not an object", async () => {
    const run = await executeTool(deps, { ...base, tool: "echo", arguments: [1, 2] });
    expect(run.status).toBe("rejected");
    expect(run.error?.message).toMatch(/JSON object/);
  });

  it("records an output that violates the outputSchema", async () => {
    const run = await executeTool(deps, { ...base, tool: "liar", arguments: {} });
    expect(run.status).toBe("success");
    expect(run.outputValid).toBe(false);
    expect(run.outputErrors).toEqual([{ path: "/count", message: "must be integer" }]);
  });

  it("times out a tool that watches its signal, and one that does not", async () => {
    const progress: unknown[] = [];
    const run = await executeTool(deps, { ...base, tool: "wait", arguments: {}, timeoutMs: 150, onProgress: (p) => progress.push(p) });
    expect(run).toMatchObject({ status: "timeout", error: { kind: "timeout" }, timeoutMs: 150 });
    expect(progress).toEqual([{ progress: 1, total: 2, message: "waiting" }]);
    const run2 = await executeTool(deps, { ...base, tool: "stubborn", arguments: {}, timeoutMs: 100 });
    expect(run2.status).toBe("timeout");
    expect(run2.durationMs).toBeLessThan(4_000);
  });

  it("cancels a run in flight by id, and through the caller's signal", async () => {
    let id = "";
    const pending = executeTool(deps, { ...base, tool: "wait", arguments: {}, onStart: (runId) => (id = runId) });
    while (!id) await new Promise((r) => setTimeout(r, 5));
    expect((await deps.runs.get(id))?.status).toBe("running");
    expect(cancelRun(id)).toBe(true);
    expect(await pending).toMatchObject({ status: "cancelled", error: { kind: "cancelled" } });
    expect(cancelRun(id)).toBe(false);

    const caller = new AbortController();
    const pending2 = executeTool(deps, { ...base, tool: "wait", arguments: {}, signal: caller.signal });
    setTimeout(() => caller.abort(), 50);
    expect((await pending2).status).toBe("cancelled");
  });

  it("keeps an unexpected error's text operator-only", async () => {
    const run = await executeTool(deps, { ...base, tool: "broken", arguments: {} });
    expect(run.status).toBe("error");
    expect(run.error?.kind).toBe("other");
    expect(JSON.stringify(run)).not.toContain("secret connection string");
    expect(await deps.runs.getErrorDetail(run.id)).toContain("secret connection string");
  });

  it("keeps a tool's own error kind and message", async () => {
    const run = await executeTool(deps, { ...base, tool: "limited", arguments: {} });
    expect(run).toMatchObject({ status: "error", error: { kind: "rate_limited", message: "Too many calls; retry in 10 s." } });
    expect(await deps.runs.getErrorDetail(run.id)).toBe("bucket=42");
  });

  it("treats isError results as status error, keeping their content", async () => {
    const run = await executeTool(deps, { ...base, tool: "mcp_error", arguments: {} });
    expect(run.status).toBe("error");
    expect(run.error?.message).toBe("upstream said no");
    expect(run.output?.content).toEqual([{ type: "text", text: "upstream said no" }]);
  });

  it("links a replay to its original", async () => {
    const first = await executeTool(deps, { ...base, tool: "echo", arguments: { msg: "a" } });
    const again = await executeTool(deps, { ...base, tool: "echo", arguments: first.arguments, replayOf: first.id });
    expect(again.replayOf).toBe(first.id);
  });

  it("throws not_found for an unknown tool and captures nothing", async () => {
    const before = await db.prisma.run.count();
    await expect(executeTool(deps, { ...base, tool: "nope", arguments: {} })).rejects.toBeInstanceOf(UnknownToolError);
    expect(await db.prisma.run.count()).toBe(before);
  });
});

describe("RunStore.list", () => {
  it("pages newest first with a keyset cursor and filters by tool and status", async () => {
    const all: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await deps.runs.list({ limit: 3, cursor });
      all.push(...page.runs.map((r) => r.startedAt + r.id));
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    expect(all.length).toBe(await db.prisma.run.count());
    expect([...all].sort().reverse()).toEqual(all);
    expect(new Set(all).size).toBe(all.length);

    const echoes = await deps.runs.list({ tool: "echo", status: "success" });
    expect(echoes.runs.length).toBeGreaterThan(0);
    expect(echoes.runs.every((r) => r.tool === "echo" && r.status === "success")).toBe(true);
  });

  it("rejects a forged cursor", async () => {
    await expect(deps.runs.list({ cursor: "bm90LWEtY3Vyc29y" })).rejects.toThrow(/cursor/);
  });

  it("marks runs left running by a dead process as interrupted", async () => {
    const id = crypto.randomUUID();
    await deps.runs.start({ id, toolName: "echo", toolSource: "builtin", toolSpecHash: "x", arguments: {}, startedAt: new Date(), actor: "a", origin: "api" });
    expect(await deps.runs.markInterrupted()).toBeGreaterThanOrEqual(1);
    expect((await deps.runs.list({ status: "interrupted" })).runs.map((r) => r.id)).toContain(id);
    expect(await db.prisma.run.count({ where: { status: "running" } })).toBe(0);
  });
});

describe("outputs the database cannot store", () => {
  it("end the run as an error instead of leaving it running", async () => {
    const proto = defineTool({
      name: "proto",
      description: "returns a __proto__ key",
      inputSchema: { type: "object" } as const,
      run: async () => ({ content: [text("x")], structuredContent: JSON.parse('{"__proto__": null, "a": 1}') }),
    });
    deps.registry.addSource({ id: "proto", list: () => [proto] });
    const run = await executeTool(deps, { ...base, tool: "proto", arguments: {} });
    expect(["success", "error"]).toContain(run.status);
    expect((await deps.runs.get(run.id))?.status).not.toBe("running");
  });
});
