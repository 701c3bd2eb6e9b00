import { afterAll, beforeAll, expect, it } from "vitest";
import { executionFixture, type ExecutionFixture } from "@/tests/helpers/execution";
import { defineTool } from "../tools/define";
import { structured, text } from "../tools/output";
import { executeTool } from "./run-now";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
let seenProgress: unknown = null;
const slow = defineTool({
  name: "slow",
  description: "reports progress, then answers with its own _meta",
  inputSchema: { type: "object" } as const,
  run: async (_args, ctx) => {
    ctx.progress({ progress: 1, total: 2, message: "half" });
    await sleep(400);
    seenProgress = (await f.runs.get(ctx.runId))?.progress ?? null;
    return { ...structured({ ok: true }), _meta: { "example.com/trace": "t-1" } };
  },
});
const fails = defineTool({
  name: "fails",
  description: "",
  inputSchema: { type: "object" } as const,
  run: async () => ({ content: [text("no")], isError: true }),
});
let f: ExecutionFixture;
const told: string[] = [];
beforeAll(async () => {
  f = await executionFixture([slow, fails]);
  f.deps.observers = [{ name: "told", onRunCaptured: (run) => void told.push(run.id) }];
});
afterAll(() => f?.close());

it("runs now: the start is stored before the call, its progress on its row for any instance, the outcome with its entry", async () => {
  let started: string | null = null;
  const progress: number[] = [];
  const run = await executeTool(f.deps, {
    tool: "slow",
    arguments: {},
    origin: "api",
    actor: "ada",
    onStart: (id) => (started = id),
    onProgress: (p) => progress.push(p.progress),
  });
  expect(started).toBe(run.id);
  expect(progress).toEqual([1]);
  expect(seenProgress).toEqual({ progress: 1, total: 2, message: "half" });
  expect(run).toMatchObject({ status: "success", output: { structuredContent: { ok: true }, _meta: { "example.com/trace": "t-1" } } });
  // The result's _meta is handed to this caller only: not stored.
  const stored = await f.runs.get(run.id);
  expect(stored?.output).toEqual({ content: run.output!.content, structuredContent: { ok: true } });
  expect(await f.entriesOf(run.id)).toBe(1);
  expect(told).toEqual([run.id]);
});

it("a tool's error is an outcome like any other: stored, audited, told", async () => {
  const run = await executeTool(f.deps, { tool: "fails", arguments: {}, origin: "mcp", actor: "agent" });
  expect(run).toMatchObject({ status: "error", error: { kind: "other", message: "no" }, origin: "mcp" });
  expect(await f.entriesOf(run.id)).toBe(1);
  expect(told).toContain(run.id);
});
