import { readFileSync } from "node:fs";
import path from "node:path";
import { parse } from "jsonc-parser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createBuiltinSource } from "@/lib/builtin-tools";
import { RuntimeConfigSchema, type RuntimeConfig } from "@/lib/config/schema";
import { DomainService } from "@/lib/domains/service";
import { executeTool } from "@/lib/execution/execute";
import { OutboxStore } from "@/lib/outbox/store";
import { Registry } from "@/lib/registry/registry";
import { RunStore } from "@/lib/runs/store";
import { createRuntimeSource } from "@/lib/runtime-tools";
import { validate } from "@/lib/schema/validate";
import { createTestDatabase, type TestDatabase } from "./helpers/db";

// Tools defined in the runtime config, run through the real registry, execution and database.
const example = parse(readFileSync(path.resolve(__dirname, "../config/studio.example.jsonc"), "utf8"), [], { allowTrailingComma: true }) as Record<
  string,
  unknown
>;
let config: RuntimeConfig = RuntimeConfigSchema.parse(example);

let db: TestDatabase;
let deps: { registry: Registry; runs: RunStore; domains: DomainService };
const base = { origin: "api" as const, actor: "tester" };

beforeAll(async () => {
  db = await createTestDatabase();
  const registry = new Registry();
  registry.addSource(createBuiltinSource({ outbox: new OutboxStore(db.prisma), config: () => config, listTools: () => registry.list() }));
  registry.addSource(createRuntimeSource(() => config));
  const domains = new DomainService({ config: () => config, tools: async () => (await registry.snapshot()).tools });
  deps = { registry, runs: new RunStore(db.prisma), domains };
});
afterAll(async () => db?.drop());

const withTools = (tools: unknown[]) => RuntimeConfigSchema.parse({ ...example, tools });

describe("runtime tools", () => {
  it("lists a config tool with its spec and the runtime source", async () => {
    const spec = (await deps.registry.get("order_total"))!.spec;
    expect(spec).toMatchObject({
      name: "order_total",
      title: "Order total",
      source: { kind: "runtime", id: "runtime" },
      inputSchema: { type: "object", required: ["items"] },
      outputSchema: { type: "object", required: ["total", "count"] },
      annotations: { readOnlyHint: true },
      invocationTriggers: ["order total", "sum the order"],
    });
    expect((await deps.registry.get("greet_peer"))!.spec.paramDomains).toEqual({ peer: "peer_targets" });
  });

  it("runs the expression over the arguments; the result matches the output schema", async () => {
    const args = {
      items: [
        { sku: "a", qty: 2, price: 1.5 },
        { sku: "b", qty: 1, price: 7 },
      ],
    };
    const run = await executeTool(deps, { ...base, tool: "order_total", arguments: args });
    expect(run.status).toBe("success");
    expect(run.output?.structuredContent).toEqual({ total: 10, count: 2 });
    expect(run.outputValid).toBe(true);
    expect(validate((await deps.registry.get("order_total"))!.spec.outputSchema!, run.output?.structuredContent)).toEqual({ valid: true });
    expect(run.output?.content[0]).toEqual({ type: "text", text: JSON.stringify({ total: 10, count: 2 }, null, 2) });
    expect((await deps.runs.get(run.id))?.source).toBe("runtime");
  });

  it("checks option domains of runtime tools at run time", async () => {
    const ok = await executeTool(deps, { ...base, tool: "greet_peer", arguments: { peer: "@marta", mood: "formal" } });
    expect(ok.status).toBe("success");
    expect(ok.output?.structuredContent).toEqual({ to: "@marta", greeting: "Good day, marta!" });
    const bad = await executeTool(deps, { ...base, tool: "greet_peer", arguments: { peer: "@nobody" } });
    expect(bad.status).toBe("rejected");
    expect(bad.error?.details?.[0]?.path).toBe("/peer");
  });

  it("rejects invalid arguments without running the expression", async () => {
    const run = await executeTool(deps, { ...base, tool: "order_total", arguments: { items: [{ sku: "a", qty: 1.5, price: 1 }] } });
    expect(run.status).toBe("rejected");
    expect(run.error?.kind).toBe("invalid_args");
    expect(run.error?.details?.[0]?.path).toBe("/items/0/qty");
  });

  it("a JSONata runtime error is an error run of kind provider, with the message and position", async () => {
    config = withTools([
      { name: "bad_math", description: "adds a string", inputSchema: { type: "object", properties: { s: { type: "string" } } }, expression: "s + 1" },
      { name: "nothing", description: "matches nothing", inputSchema: { type: "object" }, expression: "missing.field" },
    ]);
    const run = await executeTool(deps, { ...base, tool: "bad_math", arguments: { s: "x" } });
    expect(run.status).toBe("error");
    expect(run.error?.kind).toBe("provider");
    expect(run.error?.message).toMatch(/JSONata error T2001 at position \d+.*: /);
    const none = await executeTool(deps, { ...base, tool: "nothing", arguments: {} });
    expect(none.status).toBe("success");
    // The run store keeps a null structured content as "none" (a DB null), so ask the tool itself too.
    const direct = await (await deps.registry.get("nothing"))!.invoke(
      {},
      { signal: new AbortController().signal, progress: () => {}, runId: "r", actor: "tester" },
    );
    expect(direct.structuredContent).toBeNull();
    expect(none.output?.content[0]).toMatchObject({ type: "text", text: expect.stringMatching(/^null\n\n.*matched nothing/) });
  });

  it("follows the live config: edits add, change and remove tools", async () => {
    config = withTools([
      {
        name: "double",
        description: "doubles n",
        inputSchema: { type: "object", properties: { n: { type: "number" } }, required: ["n"] },
        expression: '{"v": n * 2}',
      },
    ]);
    const names = async () => (await deps.registry.list()).filter((t) => t.source.kind === "runtime").map((t) => t.name);
    expect(await names()).toEqual(["double"]);
    expect((await executeTool(deps, { ...base, tool: "double", arguments: { n: 4 } })).output?.structuredContent).toEqual({ v: 8 });
    config = withTools([{ name: "double", description: "triples n now", inputSchema: { type: "object" }, expression: '{"v": n * 3}' }]);
    expect((await executeTool(deps, { ...base, tool: "double", arguments: { n: 4 } })).output?.structuredContent).toEqual({ v: 12 });
    config = withTools([]);
    expect(await names()).toEqual([]);
    expect(await deps.registry.get("double")).toBeUndefined();
  });

  it("a name taken by a built-in tool is kept by the built-in and reported as a collision", async () => {
    config = withTools([{ name: "add", description: "shadow", inputSchema: { type: "object" }, expression: "1" }]);
    const { tools, collisions } = await deps.registry.snapshot();
    expect(tools.find((t) => t.spec.name === "add")?.spec.source.kind).toBe("builtin");
    expect(collisions).toContainEqual({ name: "add", keptFrom: "builtin", droppedFrom: "runtime" });
  });
});

describe("runtime tools in the config schema", () => {
  const tool = { name: "t", description: "d", inputSchema: { type: "object" }, expression: "1" };
  const issues = (tools: unknown[]) => {
    const r = RuntimeConfigSchema.safeParse({ tools });
    expect(r.success).toBe(false);
    return r.error!.issues.map((i) => ({ path: i.path.join("."), message: i.message }));
  };

  it("defaults to no tools and accepts the example's", () => {
    expect(RuntimeConfigSchema.parse({}).tools).toEqual([]);
    expect(RuntimeConfigSchema.parse(example).tools.map((t) => t.name)).toEqual(["order_total", "greet_peer"]);
  });

  it("reports a JSONata syntax error at the tool's expression", () => {
    expect(issues([tool, { ...tool, name: "u", expression: "items[" }])).toEqual([
      { path: "tools.1.expression", message: expect.stringMatching(/^JSONata syntax error S\d+ at position \d+: /) },
    ]);
  });

  it("reports a schema that does not compile, and a non-object input schema", () => {
    expect(issues([{ ...tool, inputSchema: { type: "object", properties: { a: { type: "nope" } } } }])).toEqual([
      { path: "tools.0.inputSchema", message: expect.stringMatching(/^Invalid JSON Schema: /) },
    ]);
    expect(issues([{ ...tool, outputSchema: { type: 12 } }])).toEqual([
      { path: "tools.0.outputSchema", message: expect.stringMatching(/^Invalid JSON Schema: /) },
    ]);
    expect(issues([{ ...tool, inputSchema: { type: "string" } }])).toEqual([
      { path: "tools.0.inputSchema.type", message: expect.stringMatching(/must be "object"/) },
    ]);
  });

  it("reports duplicate names and invalid names", () => {
    expect(issues([tool, { ...tool, description: "again" }])).toEqual([{ path: "tools.1", message: 'duplicate tool name "t"' }]);
    expect(issues([{ ...tool, name: "a__b" }]).map((i) => i.path)).toEqual(["tools.0.name"]);
    expect(issues([{ ...tool, name: "a b" }]).map((i) => i.path)).toEqual(["tools.0.name"]);
  });
});
