import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { RunStart } from "../runs/columns";
import { defineTool, type RegisteredTool } from "../tools/define";
import { structured, text } from "../tools/output";
import { invoke } from "./invoke";

const startOf = (tool: RegisteredTool, args: Record<string, unknown> = {}): RunStart => ({
  id: randomUUID(),
  toolName: tool.spec.name,
  toolSource: "builtin",
  toolSpecHash: "h",
  arguments: args,
  startedAt: new Date(),
  actor: "ada",
  origin: "api",
});
const call = (tool: RegisteredTool, timeoutMs = 1000, live: Parameters<typeof invoke>[3] = { askable: false }, args = {}) =>
  invoke(tool, startOf(tool, args), timeoutMs, live);

const sum = defineTool({
  name: "sum",
  description: "adds",
  inputSchema: { type: "object" } as const,
  outputSchema: { type: "object", properties: { sum: { type: "integer" } }, required: ["sum"] },
  async run(args: Record<string, unknown>) {
    if (args.mode === "text") return { content: [text("no structure")] };
    if (args.mode === "float") return structured({ sum: 1.5 });
    return structured({ sum: 3 });
  },
});

describe("invoke: calling the tool", () => {
  it("a result is checked against the output schema: valid, invalid with its errors, or missing", async () => {
    expect(await call(sum)).toMatchObject({ status: "success", structuredContent: { sum: 3 }, outputValid: true, outputErrors: null });
    const invalid = await call(sum, 1000, { askable: false }, { mode: "float" });
    expect(invalid).toMatchObject({ status: "success", outputValid: false });
    expect(invalid.outputErrors![0]!.path).toBe("/sum");
    expect(await call(sum, 1000, { askable: false }, { mode: "text" })).toMatchObject({
      status: "success",
      outputValid: false,
      outputErrors: [{ path: "", message: expect.stringContaining("structured content is missing") }],
    });
  });

  it("a tool's own error, a malformed result and a throw are errors of their kind", async () => {
    const own = defineTool({
      name: "own",
      description: "",
      inputSchema: { type: "object" } as const,
      run: async () => ({ content: [text("nope")], isError: true }),
    });
    expect(await call(own)).toMatchObject({ status: "error", error: { kind: "other", message: "nope" } });
    const malformed = defineTool({ name: "bad", description: "", inputSchema: { type: "object" } as const, run: async () => ({ content: "x" }) as never });
    expect(await call(malformed)).toMatchObject({ status: "error", error: { kind: "provider", message: expect.stringContaining("malformed result") } });
    const thrower = defineTool({
      name: "thrower",
      description: "",
      inputSchema: { type: "object" } as const,
      run: async () => {
        throw new Error("boom at /secret/path");
      },
    });
    const thrown = await call(thrower);
    expect(thrown.status).toBe("error");
    expect(thrown.error!.message).not.toContain("/secret/path");
  });

  it("a tool that ignores its signal still ends at the timeout; the caller's abort ends it cancelled", async () => {
    const stuck = defineTool({ name: "stuck", description: "", inputSchema: { type: "object" } as const, run: () => new Promise(() => {}) });
    expect(await call(stuck, 50)).toMatchObject({ status: "timeout", error: { kind: "timeout", message: "The tool did not finish within 50 ms." } });
    const controller = new AbortController();
    const pending = call(stuck, 10_000, { askable: false, signal: controller.signal });
    controller.abort();
    expect(await pending).toMatchObject({ status: "cancelled", error: { kind: "cancelled" } });
  });

  it("progress reaches the caller while the run runs, never after it was aborted", async () => {
    const seen: number[] = [];
    const steps = defineTool({
      name: "steps",
      description: "",
      inputSchema: { type: "object" } as const,
      run: async (_args, ctx) => {
        ctx.progress({ progress: 1, total: 2 });
        await new Promise((r) => setTimeout(r, 80));
        ctx.progress({ progress: 2, total: 2 });
        return { content: [text("done")] };
      },
    });
    await call(steps, 1000, { askable: false, onProgress: (p) => seen.push(p.progress) });
    expect(seen).toEqual([1, 2]);
    seen.length = 0;
    expect(await call(steps, 30, { askable: false, onProgress: (p) => seen.push(p.progress) })).toMatchObject({ status: "timeout" });
    await new Promise((r) => setTimeout(r, 100));
    expect(seen).toEqual([1]);
  });
});
