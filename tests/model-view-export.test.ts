// Specs out of the studio (issue 31 item 5): lib/model-view/export.ts makes one file per target
// of the registry or of the set the tool list's filters choose, byte-stable for an unchanged set.
import { getEncoding } from "js-tiktoken";
import { describe, expect, it } from "vitest";
import { createBuiltinSource } from "@/lib/builtin-tools";
import { RuntimeConfigSchema } from "@/lib/config/schema";
import { buildDefinition, definitionsFileName, registryNames, STRICT_TARGETS, TARGETS } from "@/lib/model-view";
import { definitionsFile, serializeDefinitionsFile } from "@/lib/model-view/export";
import type { OutboxStore } from "@/lib/outbox/store";
import { HINT_FILTERS, toolFilter } from "@/lib/tools/list-query";
import type { ToolSpec } from "@/lib/tools/spec";
import { FIXTURE, LONG_DOTTED_NAME } from "./fixtures/model-view-tool";

const o200k = getEncoding("o200k_base");
const config = RuntimeConfigSchema.parse({});
const builtinSource = createBuiltinSource({ outbox: {} as OutboxStore, config: () => config, listTools: async () => [] });
const BUILTIN: ToolSpec[] = (builtinSource.list() as { spec: ToolSpec }[]).map((t) => t.spec);
// Out of name order on purpose: the file sorts.
const REGISTRY: ToolSpec[] = [FIXTURE, ...[...BUILTIN].reverse()];

describe("a target's definitions file", () => {
  it("holds every tool of the registry as the target is sent it, sorted by name", () => {
    for (const target of TARGETS) {
      const f = definitionsFile(REGISTRY, target);
      const names = [...REGISTRY.map((s) => s.name)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      expect(f.total).toBe(REGISTRY.length);
      expect(f.for).toBe(target);
      expect(f.filter).toEqual({});
      const mapping = registryNames(REGISTRY, target);
      const bySent = new Map(REGISTRY.map((s) => [s.name, buildDefinition(s, target, { names: mapping }).definition]));
      expect(f.definitions).toEqual(names.map((n) => bySent.get(n)));
    }
  });

  it("writes the same bytes for the same tool set, whatever order the registry lists it in", () => {
    for (const target of TARGETS) {
      const a = serializeDefinitionsFile(definitionsFile(REGISTRY, target, { strict: true }));
      const b = serializeDefinitionsFile(definitionsFile([...REGISTRY].reverse(), target, { strict: true }));
      expect(b).toBe(a);
      expect(a.endsWith("}\n")).toBe(true);
      // No time stamp or host to make a diff of nothing: these keys and no others.
      expect(Object.keys(JSON.parse(a))).toEqual([
        "$comment",
        "for",
        "strict",
        "filter",
        "total",
        "tokens",
        "definitions",
        "nameMappings",
        "notStrict",
        "lint",
      ]);
    }
  });

  it("counts the definitions as one tools array in o200k_base", () => {
    const f = definitionsFile(REGISTRY, "openai-chat");
    expect(f.tokens).toEqual({ count: o200k.encode(JSON.stringify(f.definitions), [], []).length, tokenizer: "o200k_base", approximate: false });
    expect(definitionsFile(REGISTRY, "anthropic").tokens).toMatchObject({ approximate: true, tokenizer: "o200k_base" });
  });

  it("is strict only where the target has a strict mode, and names the file after it", () => {
    for (const target of TARGETS) {
      const f = definitionsFile(REGISTRY, target, { strict: true });
      const has = STRICT_TARGETS.includes(target);
      expect(f.strict).toBe(has);
      expect(definitionsFileName(target, true)).toBe(has ? `${target}.strict.json` : `${target}.json`);
      expect(definitionsFileName(target, false)).toBe(`${target}.json`);
    }
    const strict = definitionsFile(REGISTRY, "openai-chat", { strict: true });
    const add = strict.definitions.find((d) => (d.function as { name: string }).name === "add")!;
    expect(add).toMatchObject({ function: { strict: true, parameters: { additionalProperties: false } } });
    expect(strict.$comment).toContain("in strict mode");
  });

  it("lists the refused names it maps and every finding, with the tool it belongs to", () => {
    const f = definitionsFile(REGISTRY, "openai-chat");
    expect(f.nameMappings).toHaveLength(1);
    expect(f.nameMappings[0]!.name).toBe(LONG_DOTTED_NAME);
    expect(f.nameMappings[0]!.providerName).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
    expect(f.lint.some((l) => l.tool === LONG_DOTTED_NAME && l.keyword === "name" && l.severity === "rejected")).toBe(true);
    const own = buildDefinition(FIXTURE, "openai-chat", { names: registryNames(REGISTRY, "openai-chat") }).lint;
    expect(f.lint.filter((l) => l.tool === FIXTURE.name)).toEqual(own.map((l) => ({ tool: FIXTURE.name, ...l })));
    // The mcp target refuses no name: nothing mapped.
    expect(definitionsFile(REGISTRY, "mcp").nameMappings).toEqual([]);
  });

  it("holds the set the tool list's filters choose, and says which filters", () => {
    const q = { q: "", source: "all", hints: ["read-only"] };
    const f = definitionsFile(REGISTRY, "mcp", { filter: { hints: q.hints } });
    const matches = toolFilter(q);
    const expected = REGISTRY.filter((s) => matches(s))
      .map((s) => s.name)
      .sort();
    expect(expected.length).toBeGreaterThan(0);
    expect(expected.length).toBeLessThan(REGISTRY.length);
    expect(f.definitions.map((d) => d.name)).toEqual(expected);
    expect(f.filter).toEqual({ hints: ["read-only"] });

    const runtime = definitionsFile(REGISTRY, "openai-chat", { filter: { source: "runtime" } });
    expect(runtime.total).toBe(1);
    // The refused name of the one tool exported stays mapped as in the whole registry.
    expect(runtime.nameMappings).toEqual(definitionsFile(REGISTRY, "openai-chat").nameMappings);
    expect(definitionsFile(REGISTRY, "gemini", { filter: { q: "no tool says this" } })).toMatchObject({ total: 0, definitions: [], lint: [] });
  });
});

describe("the tool list's filters", () => {
  it("search name, title, annotation title and description, case-insensitively", () => {
    const t = { name: "t", title: "Title", annotations: { title: "Annotated" }, description: "Says WHAT it does", source: { id: "s" } };
    for (const q of ["T", "title", "annotated", "what it"]) expect(toolFilter({ q, source: "all", hints: [] })(t)).toBe(true);
    expect(toolFilter({ q: "missing", source: "all", hints: [] })(t)).toBe(false);
    expect(toolFilter({ q: "", source: "other", hints: [] })(t)).toBe(false);
  });

  it("take each annotation hint with MCP's defaults when the tool says nothing", () => {
    const bare = { name: "bare", source: { id: "s" } };
    const hold = (id: string, t: object) => toolFilter({ q: "", source: "all", hints: [id] })({ ...bare, ...t });
    // Defaults (MCP): not read-only, destructive, not idempotent, open world.
    expect(HINT_FILTERS.map((f) => [f.id, hold(f.id, {})])).toEqual([
      ["read-only", false],
      ["writes", true],
      ["destructive", true],
      ["idempotent", false],
      ["closed world", false],
    ]);
    expect(hold("read-only", { annotations: { readOnlyHint: true } })).toBe(true);
    expect(hold("destructive", { annotations: { readOnlyHint: true, destructiveHint: true } })).toBe(false);
    expect(hold("closed world", { annotations: { openWorldHint: false } })).toBe(true);
  });
});
