import { describe, expect, it } from "vitest";
import { ToolError } from "@/lib/tools/errors";
import { slowCountTool } from "@/lib/builtin-tools/slow-count";
import { call, strictAjv, testContext } from "@/tests/helpers/builtin-tools";

describe("slow_count", () => {
  it("counts and reports progress at every step", async () => {
    const ctx = testContext();
    const out = await call(slowCountTool, { steps: 4, delayMs: 0 }, ctx);
    expect(out.structuredContent).toEqual({ counted: 4 });
    expect(ctx.updates).toEqual([1, 2, 3, 4].map((i) => ({ progress: i, total: 4, message: `Counted ${i} of 4` })));
    expect(strictAjv().compile(slowCountTool.spec.outputSchema!)(out.structuredContent)).toBe(true);
  });

  it("waits delayMs per step", async () => {
    const started = Date.now();
    await call(slowCountTool, { steps: 3, delayMs: 40 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(110);
  });

  it("uses its defaults (10 steps)", async () => {
    const ctx = testContext();
    const run = slowCountTool.invoke({ delayMs: 0 }, ctx);
    expect(await run).toMatchObject({ structuredContent: { counted: 10 } });
    expect(ctx.updates).toHaveLength(10);
  });

  it("stops promptly on cancel, mid-wait", async () => {
    const ctx = testContext();
    const started = Date.now();
    setTimeout(() => ctx.controller.abort(), 60);
    const err = await call(slowCountTool, { steps: 100, delayMs: 10_000 }, ctx).catch((e) => e);
    expect(err).toBeInstanceOf(ToolError);
    expect(err.kind).toBe("cancelled");
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(ctx.updates).toHaveLength(0);
  });

  it("rethrows a ToolError abort reason (e.g. a timeout)", async () => {
    const ctx = testContext();
    const running = call(slowCountTool, { steps: 100, delayMs: 30 }, ctx).catch((e) => e);
    // Once it has counted a step (not after a fixed time: a busy machine may not have run one yet).
    while (ctx.updates.length === 0) await new Promise((r) => setTimeout(r, 5));
    ctx.controller.abort(new ToolError("timeout", "Timed out after 100 ms"));
    const err = await running;
    expect(err.kind).toBe("timeout");
    expect(err.message).toBe("Timed out after 100 ms");
    expect(ctx.updates.length).toBeGreaterThan(0);
    expect(ctx.updates.length).toBeLessThan(100);
  });

  it("does not start when already aborted", async () => {
    const ctx = testContext();
    ctx.controller.abort();
    const err = await call(slowCountTool, { steps: 2, delayMs: 0 }, ctx).catch((e) => e);
    expect(err.kind).toBe("cancelled");
    expect(ctx.updates).toHaveLength(0);
  });

  it("bounds its inputs", () => {
    const validate = strictAjv().compile(slowCountTool.spec.inputSchema);
    expect(validate({ steps: 0 })).toBe(false);
    expect(validate({ steps: 101 })).toBe(false);
    expect(validate({ delayMs: 10_001 })).toBe(false);
    expect(validate({ steps: 100, delayMs: 10_000 })).toBe(true);
    expect(slowCountTool.spec.timeoutMs).toBeGreaterThan(0);
  });
});
