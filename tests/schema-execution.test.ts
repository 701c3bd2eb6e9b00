import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { executeTool } from "@/lib/execution/execute";
import { Registry } from "@/lib/registry/registry";
import { RunStore } from "@/lib/runs/store";
import type { RegisteredTool } from "@/lib/tools/define";
import { structured } from "@/lib/tools/output";
import type { JsonSchema } from "@/lib/tools/spec";
import { createTestDatabase, type TestDatabase } from "./helpers/db";

// Hostile schemas, as an MCP server could declare them, through the whole run path.
function tool(name: string, inputSchema: JsonSchema, outputSchema?: JsonSchema, output: Record<string, unknown> = {}): RegisteredTool {
  return {
    spec: { name, description: name, inputSchema, ...(outputSchema ? { outputSchema } : {}), source: { kind: "builtin", id: "builtin" } },
    invoke: async () => structured(output),
  };
}

const tools = [
  tool("redos", { type: "object", properties: { s: { type: "string", pattern: "^(a+)+$" } }, patternProperties: { "^(b|bb)+$": { type: "integer" } } }),
  tool("backref", { type: "object", properties: { s: { type: "string", pattern: "^(\\w+) \\1$" } } }),
  tool(
    "deep",
    (() => {
      let s: JsonSchema = { type: "string" };
      for (let i = 0; i < 300; i++) s = { type: "object", properties: { k: s } };
      return s;
    })(),
  ),
  tool("bad_output", { type: "object" }, { type: "object", properties: { s: { type: "string", pattern: "a(?=b)" } } }, { s: "ab" }),
];

let db: TestDatabase;
let deps: { registry: Registry; runs: RunStore };
const base = { origin: "api" as const, actor: "tester" };

beforeAll(async () => {
  db = await createTestDatabase();
  const registry = new Registry();
  registry.addSource({ id: "builtin", list: () => tools });
  deps = { registry, runs: new RunStore(db.prisma) };
});
afterAll(async () => db?.drop());

describe("hostile tool schemas", () => {
  it("a catastrophic pattern rejects a hostile argument without stalling", async () => {
    const run = await executeTool(deps, { ...base, tool: "redos", arguments: { s: `${"a".repeat(40)}!`, [`${"b".repeat(40)}!`]: "x", bbbb: "x" } });
    expect(run.status).toBe("rejected");
    expect(run.error?.kind).toBe("invalid_args");
    expect(run.error?.details).toEqual([
      { path: "/s", message: 'must match pattern "^(a+)+$"' },
      { path: "/bbbb", message: "must be integer" },
    ]);
    expect((await executeTool(deps, { ...base, tool: "redos", arguments: { s: "aaaa", bb: 1 } })).status).toBe("success");
  });

  it("a pattern RE2 cannot run, or an overdeep schema, is the tool's fault (provider), with the reason for the operator", async () => {
    const run = await executeTool(deps, { ...base, tool: "backref", arguments: { s: "a a" } });
    expect(run.status).toBe("rejected");
    expect(run.error).toMatchObject({ kind: "provider", message: "The tool's input schema is not a valid JSON Schema." });
    expect(await deps.runs.getErrorDetail(run.id)).toMatch(/^Unsupported pattern "\^\(\\\\w\+\) \\\\1\$": it uses a backreference/);
    const deep = await executeTool(deps, { ...base, tool: "deep", arguments: {} });
    expect(deep.error?.kind).toBe("provider");
    expect(await deps.runs.getErrorDetail(deep.id)).toMatch(/^Schema nested too deeply/);
  });

  it("an output schema RE2 cannot run marks the output as not validated, saying why", async () => {
    const run = await executeTool(deps, { ...base, tool: "bad_output", arguments: {} });
    expect(run.status).toBe("success");
    expect(run.outputValid).toBe(false);
    expect(run.outputErrors).toEqual([{ path: "", message: expect.stringMatching(/^Unsupported pattern "a\(\?=b\)": it uses a lookahead assertion/) }]);
  });
});
