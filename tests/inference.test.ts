import os from "node:os";
import path from "node:path";
import { mkdtemp, rm } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { builtinSource } from "@/lib/builtin-tools";
import { createPrisma } from "@/lib/db/client";
import type { PrismaClient } from "@/lib/db/generated/client";
import { executeTool, type ExecuteDeps, type ExecuteRequest } from "@/lib/execution/execute";
import { genSamples } from "@/tests/helpers/inference-generate";
import { deriveSchema } from "@/lib/inference/schema";
import { outputSample, ShapeStore } from "@/lib/inference/store";
import { Registry } from "@/lib/registry/registry";
import { RunStore } from "@/lib/runs/store";
import type { Run } from "@/lib/runs/types";
import { validate } from "@/lib/schema/validate";
import { defineTool } from "@/lib/tools/define";
import { structured, text } from "@/lib/tools/output";
import { createTestDatabase, type TestDatabase } from "./helpers/db";

// Real executeTool runs (built-in tools and test tools) captured in a real PostgreSQL database,
// observed by ShapeStore exactly as lib/studio/studio.ts wires it, 32 at a time.

// No "__proto__" keys here: Prisma 7 cannot write them in a Json column (RunStore.finish throws).
const VARIED = genSamples(2026, 400, 3)
  .map((v) => JSON.parse(JSON.stringify(v).replaceAll('"__proto__"', '"__proto"')) as unknown)
  .map((v) => (typeof v === "object" && v !== null && !Array.isArray(v) ? v : { value: v }));

/** No outputSchema; structured content of many shapes. */
const shapeshifter = defineTool({
  name: "shapeshifter",
  description: "returns varied structured content",
  inputSchema: { type: "object", properties: { i: { type: "integer", minimum: 0 } }, required: ["i"] } as const,
  run: async ({ i }) => {
    await new Promise((r) => setTimeout(r, i % 7)); // finish out of order
    return structured(VARIED[i % VARIED.length]);
  },
});
/** No structured content: one text block holding JSON (sometimes not JSON, sometimes an error). */
const texty = defineTool({
  name: "texty",
  description: "answers in JSON text",
  inputSchema: { type: "object", properties: { i: { type: "integer" } }, required: ["i"] } as const,
  run: async ({ i }) => {
    if (i % 10 === 9) return { content: [text("upstream error")], isError: true };
    if (i % 5 === 4) return { content: [text("plain words, not JSON")] };
    return { content: [text(JSON.stringify({ id: `r${i}`, at: new Date(Date.UTC(2026, 0, 1 + i)).toISOString(), score: i % 3 ? i / 2 : null }))] };
  },
});
/** Declares an outputSchema it does not keep. */
const liar = defineTool({
  name: "liar",
  description: "declares { count: integer } and sometimes returns a string or extra fields",
  inputSchema: { type: "object", properties: { i: { type: "integer" } } } as const,
  outputSchema: {
    type: "object",
    properties: { count: { type: "integer" }, label: { type: "string" }, never: { type: "boolean" } },
    required: ["count", "label"],
  },
  run: async ({ i = 0 }) => structured(i % 4 === 0 ? { count: "many", extra: true } : { count: i, label: `n${i}` }),
});

let db: TestDatabase;
let registry: Registry;
let runs: RunStore;
let shapes: ShapeStore;
let deps: ExecuteDeps;
const base = { origin: "api" as const, actor: "tester" };

beforeAll(async () => {
  db = await createTestDatabase();
  registry = new Registry();
  registry.addSource(builtinSource);
  registry.addSource({ id: "test", list: () => [shapeshifter, texty, liar] });
  runs = new RunStore(db.prisma);
  shapes = new ShapeStore(db.prisma, { flushDelayMs: 5, maxQueue: 16 });
  deps = { registry, runs, observers: [shapes.observer()] };
});
afterAll(async () => db?.drop());

/** Runs the requests 32 at a time. */
async function runAll(requests: Omit<ExecuteRequest, "origin" | "actor">[], d: ExecuteDeps = deps, concurrency = 32): Promise<Run[]> {
  const out: Run[] = [];
  for (let i = 0; i < requests.length; i += concurrency) {
    out.push(...(await Promise.all(requests.slice(i, i + concurrency).map((r) => executeTool(d, { ...base, ...r })))));
  }
  return out;
}

async function countRuns(prisma: PrismaClient, tool: string) {
  const rows = await prisma.run.findMany({ where: { toolName: tool }, select: { status: true, structuredContent: true, content: true } });
  const executed = rows.filter((r) => ["success", "error", "timeout", "cancelled"].includes(r.status)).length;
  const outputs = rows.filter((r) => outputSample(r.status, r.structuredContent, r.content) !== undefined).length;
  return { executed, outputs, success: rows.filter((r) => r.status === "success").length };
}

async function capturedOutputs(tool: string): Promise<unknown[]> {
  const rows = await db.prisma.run.findMany({ where: { toolName: tool, status: "success" }, select: { structuredContent: true, content: true, status: true } });
  return rows.map((r) => outputSample(r.status, r.structuredContent, r.content)).filter((v) => v !== undefined);
}

describe("ShapeStore with real runs", () => {
  it("counts every run exactly once under 32 concurrent runs, and every output validates", async () => {
    const requests: Omit<ExecuteRequest, "origin" | "actor">[] = [];
    for (let i = 0; i < 160; i++) requests.push({ tool: "shapeshifter", arguments: { i } });
    for (let i = 0; i < 64; i++) requests.push({ tool: "json_query", arguments: { data: VARIED[i], expression: i % 2 ? "$" : "$keys($)" } });
    for (let i = 0; i < 48; i++) requests.push({ tool: "add", arguments: { a: i, b: -i * 3 } });
    for (let i = 0; i < 8; i++) requests.push({ tool: "add", arguments: { a: "x" } }); // rejected
    for (let i = 0; i < 16; i++) requests.push({ tool: "fail", arguments: { kind: "provider" } }); // error
    for (let i = 0; i < 40; i++) requests.push({ tool: "texty", arguments: { i } });
    for (let i = 0; i < 24; i++) requests.push({ tool: "liar", arguments: { i } });
    // interleave the tools, so each wave of 32 mixes them
    requests.sort((a, b) => ((a.arguments as { i?: number }).i ?? 0) - ((b.arguments as { i?: number }).i ?? 0));
    const captured = await runAll(requests);
    expect(captured).toHaveLength(requests.length);
    await shapes.flush();
    expect(shapes.pending()).toBe(0);

    for (const tool of ["shapeshifter", "json_query", "add", "fail", "texty", "liar"]) {
      const want = await countRuns(db.prisma, tool);
      const got = await shapes.get(tool);
      expect({ tool, output: got.output?.samples ?? 0, arguments: got.arguments?.samples ?? 0 }).toEqual({
        tool,
        output: want.outputs,
        arguments: want.executed,
      });
      const row = await db.prisma.shapeStats.findMany({ where: { toolName: tool } });
      for (const r of row) expect(r.samples).toBe((r.stats as { samples: number }).samples);
    }
    expect((await countRuns(db.prisma, "shapeshifter")).outputs).toBe(160);
    expect((await shapes.get("add")).arguments?.samples).toBe(48); // the 8 rejected are not counted
    expect((await shapes.get("fail")).output).toBeNull();
    expect((await countRuns(db.prisma, "texty")).outputs).toBe(32); // JSON text only, successes only (40 - 4 errors - 4 plain texts)

    for (const tool of ["shapeshifter", "json_query", "add", "texty", "liar"]) {
      const { output } = await shapes.get(tool);
      const outputs = await capturedOutputs(tool);
      expect(outputs.length).toBeGreaterThan(0);
      for (const v of outputs) {
        const r = validate(output!.schema, v);
        expect(r.valid ? null : { tool, v, errors: r.errors }).toBeNull();
      }
      const args = await db.prisma.run.findMany({ where: { toolName: tool, status: { not: "rejected" } }, select: { arguments: true } });
      const { arguments: a } = await shapes.get(tool);
      for (const { arguments: v } of args) expect(validate(a!.schema, v).valid).toBe(true);
    }
  });

  it("infers what a text-only tool returns", async () => {
    const { output } = await shapes.get("texty");
    expect(output?.schema).toMatchObject({
      type: "object",
      required: ["at", "id", "score"],
      properties: { id: { type: "string" }, at: { type: "string", format: "date-time" }, score: { type: ["number", "null"] } },
    });
    expect(output?.fields.map((f) => f.path)).toEqual(["", "/at", "/id", "/score"]);
  });

  it("compares with a declared outputSchema and lists the runs that violated it", async () => {
    const tool = (await registry.get("liar"))!.spec;
    const got = await shapes.get("liar", { outputSchema: tool.outputSchema, inputSchema: tool.inputSchema });
    expect(got.declared).toEqual(tool.outputSchema);
    const diffs = Object.fromEntries(got.differences!.map((d) => [`${d.kind} ${d.path}`, d]));
    expect(Object.keys(diffs).sort()).toEqual(["missing_in_observed /never", "required_mismatch /label", "type_mismatch /count", "undeclared /extra"]);
    expect(diffs["type_mismatch /count"]).toMatchObject({ declared: ["integer"], observed: ["string", "integer"] });
    expect(diffs["required_mismatch /label"]).toMatchObject({ declared: { required: true }, observed: { required: false, present: 18, of: 24 } });
    expect(got.violations).toHaveLength(6);
    expect(got.violations![0]).toMatchObject({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      outputErrors: expect.arrayContaining([{ path: "/count", message: "must be integer" }]),
    });
    const bad = await db.prisma.run.count({ where: { toolName: "liar", outputValid: false } });
    expect(bad).toBe(6);
    // arguments against the inputSchema: i is always sent but optional in the declaration
    expect(got.arguments?.differences).toEqual([expect.objectContaining({ path: "/i", kind: "required_mismatch" })]);

    const add = (await registry.get("add"))!.spec;
    const sum = await shapes.get("add", { outputSchema: add.outputSchema });
    expect(sum.differences).toEqual([]);
    expect(sum.violations).toEqual([]);
  });

  it("observe only queues: the run does not wait for the database", async () => {
    const slow = new ShapeStore(db.prisma, { flushDelayMs: 60_000 });
    const observer = slow.observer();
    const run = await executeTool({ registry, runs }, { ...base, tool: "add", arguments: { a: 1, b: 2 } });
    expect(observer.onRunCaptured(run, (await registry.get("add"))!.spec)).toBeUndefined();
    expect(slow.pending()).toBe(2);
    await slow.flush();
    expect(slow.pending()).toBe(0);
  });

  it("two stores (two processes) writing the same rows at once lose nothing", async () => {
    const a = new ShapeStore(db.prisma, { flushDelayMs: 1, maxQueue: 4 });
    const b = new ShapeStore(db.prisma, { flushDelayMs: 1, maxQueue: 4 });
    const da = { registry, runs, observers: [a.observer()] };
    const dbb = { registry, runs, observers: [b.observer()] };
    const before = (await shapes.stats("shapeshifter", "output"))!.samples;
    await Promise.all(
      Array.from({ length: 4 }, (_, w) =>
        runAll(
          Array.from({ length: 32 }, (_, i) => ({ tool: "shapeshifter", arguments: { i: w * 32 + i } })),
          w % 2 ? da : dbb,
        ),
      ),
    );
    await Promise.all([a.flush(), b.flush()]);
    expect((await shapes.stats("shapeshifter", "output"))!.samples).toBe(before + 128);
    expect((await countRuns(db.prisma, "shapeshifter")).outputs).toBe(before + 128);
  });

  it("a rebuild in one process while another holds queued samples counts every run exactly once", async () => {
    // Two stores stand for two processes: A captures and queues; B rebuilds the tool meanwhile.
    const a = new ShapeStore(db.prisma, { flushDelayMs: 60_000, maxQueue: 10_000 });
    const b = new ShapeStore(db.prisma, { flushDelayMs: 60_000, maxQueue: 10_000 });
    const da = { registry, runs, observers: [a.observer()] };
    await runAll(
      Array.from({ length: 40 }, (_, i) => ({ tool: "shapeshifter", arguments: { i } })),
      da,
    );
    expect(a.pending()).toBeGreaterThan(0); // still queued in A
    const want = await countRuns(db.prisma, "shapeshifter");
    expect((await b.rebuild("shapeshifter")).output).toBe(want.outputs); // B reads A's runs too
    await a.flush(); // A's samples are of runs B counted: nothing is added
    expect((await shapes.stats("shapeshifter", "output"))!.samples).toBe(want.outputs);
    expect((await shapes.stats("shapeshifter", "arguments"))!.samples).toBe(want.executed);

    // At the same time: A captures and flushes while B rebuilds, again and again.
    await Promise.all([
      runAll(
        Array.from({ length: 64 }, (_, i) => ({ tool: "shapeshifter", arguments: { i } })),
        da,
        8,
      ).then(() => a.flush()),
      (async () => {
        for (let i = 0; i < 4; i++) await b.rebuild("shapeshifter");
      })(),
    ]);
    await a.flush();
    const after = await countRuns(db.prisma, "shapeshifter");
    expect(after.outputs).toBe(want.outputs + 64);
    expect((await shapes.stats("shapeshifter", "output"))!.samples).toBe(after.outputs);
    expect((await shapes.stats("shapeshifter", "arguments"))!.samples).toBe(after.executed);
    const uncounted = await db.prisma.run.count({
      where: { toolName: "shapeshifter", status: { in: ["success", "error", "timeout", "cancelled"] }, shapeCounted: false },
    });
    expect(uncounted).toBe(0);
  });

  it("the sweep counts runs whose samples died with their process, once, and leaves fresh ones to their process", async () => {
    const dead = new ShapeStore(db.prisma, { flushDelayMs: 60_000, maxQueue: 10_000 }); // never flushes: "dies"
    const before = (await shapes.stats("shapeshifter", "output"))!.samples;
    await runAll(
      Array.from({ length: 12 }, (_, i) => ({ tool: "shapeshifter", arguments: { i } })),
      { registry, runs, observers: [dead.observer()] },
    );
    expect(dead.pending()).toBeGreaterThan(0);
    const survivor = new ShapeStore(db.prisma, { flushDelayMs: 1, maxQueue: 16 });
    // Within the grace period the runs are their own process's to write: not touched.
    expect(await survivor.sweep({ windowMs: 3_600_000, graceMs: 60_000 })).toBe(0);
    // Past it (grace 0 here) they are counted, once: a second sweep finds nothing.
    expect(await survivor.sweep({ windowMs: 3_600_000, graceMs: 0 })).toBe(12);
    expect(await survivor.sweep({ windowMs: 3_600_000, graceMs: 0 })).toBe(0);
    expect((await shapes.stats("shapeshifter", "output"))!.samples).toBe(before + 12);
    // The "dead" process coming back and flushing adds nothing.
    await dead.flush();
    expect((await shapes.stats("shapeshifter", "output"))!.samples).toBe(before + 12);
  });

  it("a failed write keeps its samples and the next flush writes them", async () => {
    let fail = true;
    const flaky = new Proxy(db.prisma, {
      get(target, key) {
        if (key === "$transaction" && fail) {
          fail = false;
          return () => Promise.reject(new Error("database went away"));
        }
        const v = Reflect.get(target, key, target);
        return typeof v === "function" ? v.bind(target) : v;
      },
    });
    const store = new ShapeStore(flaky, { flushDelayMs: 60_000, log: () => {} });
    const before = (await shapes.stats("add", "output"))!.samples;
    const captured = await runAll(
      Array.from({ length: 5 }, (_, i) => ({ tool: "add", arguments: { a: i, b: 1 } })),
      { registry, runs, observers: [store.observer()] },
    );
    expect(captured.every((r) => r.status === "success")).toBe(true);
    await expect(store.flush()).rejects.toThrow(/went away/);
    expect(store.pending()).toBe(10);
    await store.flush();
    expect(store.pending()).toBe(0);
    expect((await shapes.stats("add", "output"))!.samples).toBe(before + 5);
  });

  it("rebuild recomputes the same shape from the runs table, and get() rebuilds missing stats", async () => {
    await shapes.flush();
    const before = await shapes.get("shapeshifter");
    const counted = await shapes.rebuild("shapeshifter");
    const want = await countRuns(db.prisma, "shapeshifter");
    expect(counted).toEqual({ output: want.outputs, arguments: want.executed });
    const after = await shapes.get("shapeshifter");
    expect(after.output?.schema).toEqual(before.output?.schema);
    expect(after.output?.samples).toBe(before.output?.samples);

    // stats lost (e.g. history from before inference): the next read rebuilds them
    await db.prisma.shapeStats.deleteMany({ where: { toolName: "texty" } });
    const fresh = new ShapeStore(db.prisma);
    const texty = await fresh.get("texty");
    expect(texty.output?.samples).toBe(32);
    expect(texty.arguments?.samples).toBe((await countRuns(db.prisma, "texty")).executed);
    expect(texty.output?.schema).toEqual(deriveSchema((await shapes.stats("texty", "output"))!.stats));
    // lost again, in the same process: rebuilt again (not once per process)
    await db.prisma.shapeStats.deleteMany({ where: { toolName: "texty" } });
    expect((await fresh.get("texty")).output?.samples).toBe(32);
    await db.prisma.shapeStats.deleteMany({ where: { toolName: "texty" } });
    expect((await fresh.get("texty")).output?.samples).toBe(32);

    // a rebuild racing with live runs counts each run once
    const racing = runAll(Array.from({ length: 64 }, (_, i) => ({ tool: "shapeshifter", arguments: { i } })));
    const rebuilt = shapes.rebuild("shapeshifter");
    await racing;
    await rebuilt;
    await shapes.flush();
    expect((await shapes.stats("shapeshifter", "output"))!.samples).toBe((await countRuns(db.prisma, "shapeshifter")).outputs);
  });

  it("history captured before inference is counted once, when the first live run creates the row", async () => {
    // runs made without the observer: as if captured before inference existed
    const old = await runAll(
      Array.from({ length: 40 }, (_, i) => ({ tool: "json_query", arguments: { data: { n: i, tag: i % 2 ? "a" : "b" }, expression: "$" } })),
      { registry, runs },
    );
    expect(old).toHaveLength(40);
    await db.prisma.shapeStats.deleteMany({ where: { toolName: "json_query" } });
    const fresh = new ShapeStore(db.prisma, { flushDelayMs: 1 });
    await runAll(
      Array.from({ length: 32 }, (_, i) => ({ tool: "json_query", arguments: { data: [i], expression: "$" } })),
      { registry, runs, observers: [fresh.observer()] },
    );
    await fresh.flush();
    const want = await countRuns(db.prisma, "json_query");
    const got = await fresh.stats("json_query", "output");
    expect(got?.samples).toBe(want.outputs);
    expect((await fresh.stats("json_query", "arguments"))?.samples).toBe(want.executed);

    // deleted while this store runs, then a live run creates the row: the earlier runs count too
    await db.prisma.shapeStats.deleteMany({ where: { toolName: "json_query" } });
    await runAll([{ tool: "json_query", arguments: { data: [1], expression: "$" } }], { registry, runs, observers: [fresh.observer()] });
    await fresh.flush();
    await new Promise((r) => setTimeout(r, 50));
    await fresh.flush();
    const now = await countRuns(db.prisma, "json_query");
    expect((await fresh.stats("json_query", "output"))?.samples).toBe(now.outputs);
  });

  it("unknown tools and tools never run have no shape", async () => {
    expect(await shapes.get("nope")).toEqual({ output: null, arguments: null, revisions: [] });
    const chart = (await registry.get("chart_png"))!.spec;
    const got = await shapes.get("chart_png", { outputSchema: chart.outputSchema });
    expect(got).toMatchObject({ output: null, arguments: null, differences: [], violations: [] });
  });
});

describe("ShapeStore on PGlite", () => {
  it("merges concurrent flushes with the row lock", async () => {
    const saved = process.env.DATABASE_URL;
    delete process.env.DATABASE_URL;
    const dir = await mkdtemp(path.join(os.tmpdir(), "inference-pglite-"));
    try {
      const lite = await createPrisma({ dataDir: dir });
      try {
        await lite.migrate();
        const store = new ShapeStore(lite.prisma, { flushDelayMs: 1, maxQueue: 4 });
        const other = new ShapeStore(lite.prisma, { flushDelayMs: 1, maxQueue: 4 });
        const r = new Registry();
        r.addSource({ id: "test", list: () => [shapeshifter] });
        const liteRuns = new RunStore(lite.prisma);
        // The tool's rows exist first: the flush that creates them also rebuilds from the runs
        // table (two stores stand for two processes here; see lib/inference/store.ts).
        await runAll([{ tool: "shapeshifter", arguments: { i: 399 } }], { registry: r, runs: liteRuns, observers: [store.observer()] });
        await store.flush();
        const reqs = Array.from({ length: 64 }, (_, i) => ({ tool: "shapeshifter", arguments: { i } }));
        await Promise.all([
          runAll(reqs.slice(0, 32), { registry: r, runs: liteRuns, observers: [store.observer()] }),
          runAll(reqs.slice(32), { registry: r, runs: liteRuns, observers: [other.observer()] }),
        ]);
        await Promise.all([store.flush(), other.flush()]);
        const got = await store.get("shapeshifter");
        expect(got.output?.samples).toBe(65);
        for (const v of VARIED.slice(0, 64)) expect(validate(got.output!.schema, v).valid).toBe(true);
      } finally {
        await lite.close();
      }
    } finally {
      if (saved !== undefined) process.env.DATABASE_URL = saved;
      await rm(dir, { recursive: true, force: true });
    }
  });
});
