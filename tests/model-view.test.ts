// lib/model-view (issue 31 item 1): each target's definition of a fixture tool that has what
// providers take differently, and of every built-in tool. OpenAI strict definitions are checked
// against the documented strict-mode rules by a checker written from the docs, independent of the
// rewrite; the lint per target against the fixture, each rule with its documented source; token
// counts against o200k_base's own encoding of the serialized definition.
import Ajv2020 from "ajv/dist/2020";
import { getEncoding } from "js-tiktoken";
import { describe, expect, it } from "vitest";
import { createBuiltinSource } from "@/lib/builtin-tools";
import { RuntimeConfigSchema } from "@/lib/config/schema";
import { HttpError } from "@/lib/http/http";
import {
  buildDefinition,
  buildDefinitions,
  mapNames,
  registryNames,
  selectTools,
  TARGETS,
  type BuiltDefinition,
  type LintItem,
  type Target,
} from "@/lib/model-view";
import { GEMINI_KEYWORDS, GEMINI_SCHEMA_DOC } from "@/lib/model-view/gemini";
import { ANTHROPIC_NAME, GEMINI_NAME, MCP_NAME, OPENAI_NAME } from "@/lib/model-view/names";
import { parseDefinitionQuery } from "@/lib/model-view/query";
import { ANTHROPIC_STRICT, OPENAI_STRICT } from "@/lib/model-view/strict";
import type { OutboxStore } from "@/lib/outbox/store";
import type { JsonSchema, ToolSpec } from "@/lib/tools/spec";
import { FIXTURE, FIXTURE_WITHOUT_MAP, LONG_DOTTED_NAME } from "./fixtures/model-view-tool";
import { checkOpenAiStrict, schemaKeys } from "./helpers/model-view";

const o200k = getEncoding("o200k_base");
const config = RuntimeConfigSchema.parse({});
const builtinSource = createBuiltinSource({ outbox: {} as OutboxStore, config: () => config, listTools: async () => [] });
const BUILTIN: ToolSpec[] = (builtinSource.list() as { spec: ToolSpec }[]).map((t) => t.spec);

const paramsOf = (d: BuiltDefinition): JsonSchema => {
  const def = d.definition as Record<string, JsonSchema & { parameters?: JsonSchema }>;
  return (
    d.for === "openai-chat" ? def.function!.parameters : d.for === "anthropic" ? def.input_schema : d.for === "mcp" ? def.inputSchema : def.parameters
  ) as JsonSchema;
};
const nameOf = (d: BuiltDefinition): string => (d.for === "openai-chat" ? (d.definition.function as { name: string }).name : (d.definition.name as string));
const find = (lint: LintItem[], pointer: string, keyword: string) => lint.find((l) => l.pointer === pointer && l.keyword === keyword);

/** Resolves a JSON pointer ("" is the root) in `doc`; undefined when it leads nowhere. */
function at(doc: unknown, pointer: string): unknown {
  if (pointer === "") return doc;
  let cur: unknown = doc;
  for (const raw of pointer.slice(1).split("/")) {
    const k = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    if (cur === null || typeof cur !== "object" || !(k in cur)) return undefined;
    cur = (cur as Record<string, unknown>)[k];
  }
  return cur;
}

describe("OpenAI strict mode", () => {
  for (const target of ["openai-chat", "openai-responses"] as const) {
    it(`${target}: the fixture's map (patternProperties) cannot be strict, and says so`, () => {
      const d = buildDefinition(FIXTURE, target, { strict: true });
      expect(d.strict).toBe(false);
      expect(d.strictReason).toMatch(/\/properties\/labels: keys matched by a pattern/);
      // Sent as declared, not half-rewritten, and with strict: false said outright.
      expect(paramsOf(d)).toEqual(FIXTURE.inputSchema);
      expect(target === "openai-chat" ? (d.definition.function as { strict: unknown }).strict : d.definition.strict).toBe(false);
    });

    it(`${target}: the fixture without its map obeys every documented strict rule`, () => {
      const d = buildDefinition(FIXTURE_WITHOUT_MAP, target, { strict: true });
      expect(d.strict, d.strictReason).toBe(true);
      expect(checkOpenAiStrict(nameOf(d), paramsOf(d))).toEqual([]);
      const p = paramsOf(d) as { properties: Record<string, JsonSchema>; required: string[] };
      // Optional properties are required and nullable; a required one is not made nullable.
      expect(p.properties.limit!.type).toEqual(["integer", "null"]);
      expect(p.properties.tree).toEqual({ anyOf: [{ $ref: "#/$defs/node" }, { type: "null" }] });
      expect(p.properties.query!.type).toBe("string");
      // oneOf as anyOf, the tuple as an array of its members' union with its length, const kept.
      expect(p.properties.target!.anyOf).toHaveLength(2);
      expect(p.properties.point).toMatchObject({
        type: ["array", "null"],
        items: { anyOf: [{ type: "number" }, { type: "string" }] },
        minItems: 3,
        maxItems: 3,
      });
      expect(p.properties.version).toEqual({ const: "v2" });
      // Unsupported keywords are in the description, not in the schema.
      expect(p.properties.query!.description).toBe("What to look for. (Not enforced: minLength: 2; maxLength: 200)");
      expect(p.properties.filter!.description).toContain('if: {"properties":{"kind":{"const":"company"}}}');
      // The strict schema is valid JSON Schema and takes arguments shaped as the original's, absent ones as null.
      const ajv = new Ajv2020({ strict: false, validateFormats: false });
      const ok = ajv.validate(p, {
        query: "ab",
        target: { id: "x" },
        tree: { label: "a", children: [{ label: "b", children: null }] },
        filter: null,
        point: [1, 2, "z"],
        version: "v2",
        note: null,
        limit: 5,
        homepage: null,
      });
      expect(ok, JSON.stringify(ajv.errors)).toBe(true);
      expect(ajv.validate(p, { query: "ab", target: { id: "x" }, version: "v2" })).toBe(false);
    });

    it(`${target}: every built-in tool is strict and obeys the rules, or says why not`, () => {
      for (const d of buildDefinitions(BUILTIN, target, { strict: true })) {
        expect(nameOf(d)).toMatch(OPENAI_NAME.pattern);
        if (d.strict) expect(checkOpenAiStrict(nameOf(d), paramsOf(d)), d.name).toEqual([]);
        else expect(d.strictReason, d.name).toMatch(/: /);
      }
      // Most built-ins are plain objects of typed fields: strict works for them.
      expect(buildDefinitions(BUILTIN, target, { strict: true }).filter((d) => d.strict).length).toBeGreaterThanOrEqual(BUILTIN.length / 2);
    });
  }

  it("the checker itself catches what strict mode refuses", () => {
    expect(checkOpenAiStrict("a.b", { type: "object", properties: { a: { type: "string", minLength: 1 } }, required: [] })).toEqual([
      "name a.b does not match ^[a-zA-Z0-9_-]{1,64}$",
      "(root): object not closed with additionalProperties: false",
      "(root): properties a not in required",
      "/properties/a: unsupported keyword minLength",
    ]);
    expect(checkOpenAiStrict("x", { anyOf: [{ type: "object", properties: {}, required: [], additionalProperties: false }] })).toContain(
      "(root): the root must be an object, not anyOf",
    );
  });

  it("limits of the documented schema size end strict mode with the reason", () => {
    const props = Object.fromEntries(Array.from({ length: 1001 }, (_, i) => [`p${i}`, { type: "string", enum: ["a"] }]));
    const d = buildDefinition({ ...FIXTURE, name: "wide", inputSchema: { type: "object", properties: props, required: Object.keys(props) } }, "openai-chat", {
      strict: true,
    });
    expect(d.strict).toBe(false);
    expect(d.strictReason).toContain("1001 enum values in all (the limit is 1000)");
    let deep: JsonSchema = { type: "string" };
    for (let i = 0; i < 11; i++) deep = { type: "object", properties: { x: deep }, required: ["x"] };
    expect(buildDefinition({ ...FIXTURE, name: "deep", inputSchema: deep }, "openai-chat", { strict: true }).strictReason).toContain(
      "11 levels of nested objects (the limit is 10)",
    );
  });

  it("inlines a $ref that has keywords beside it, keeps a recursive one bare", () => {
    const schema = {
      type: "object",
      properties: { home: { $ref: "#/$defs/addr", description: "Home address." }, tree: { $ref: "#/$defs/node", description: "A tree." } },
      required: ["home", "tree"],
      $defs: {
        addr: { type: "object", description: "An address.", properties: { city: { type: "string" } }, required: ["city"] },
        node: { type: "object", properties: { kids: { type: "array", items: { $ref: "#/$defs/node" } } }, required: ["kids"] },
      },
    };
    const d = buildDefinition({ ...FIXTURE, name: "refs", inputSchema: schema }, "openai-chat", { strict: true });
    expect(d.strict, d.strictReason).toBe(true);
    expect(checkOpenAiStrict("refs", paramsOf(d))).toEqual([]);
    const p = paramsOf(d) as { properties: Record<string, JsonSchema> };
    expect(p.properties.home).toEqual({
      type: "object",
      description: "Home address. An address.",
      properties: { city: { type: "string" } },
      required: ["city"],
      additionalProperties: false,
    });
    expect(p.properties.tree).toEqual({ $ref: "#/$defs/node" });
    expect(find(d.lint, "/properties/tree", "$ref")).toMatchObject({ severity: "changed", fix: "dropped beside it: description" });
  });

  it("values of any type and free-form objects cannot be strict", () => {
    const d = buildDefinition(
      { ...FIXTURE, name: "anyv", inputSchema: { type: "object", properties: { v: {}, o: { type: "object" } }, required: ["v", "o"] } },
      "openai-responses",
      { strict: true },
    );
    expect(d.strict).toBe(false);
    expect(d.strictReason).toContain("/properties/v: a value of any type");
    expect(d.strictReason).toContain("/properties/o: an object with any keys");
  });
});

describe("Anthropic strict tool use", () => {
  it("refuses the fixture's recursion and map, keeps optional properties optional where it can be strict", () => {
    const d = buildDefinition(FIXTURE, "anthropic", { strict: true });
    expect(d.strict).toBe(false);
    expect(d.strictReason).toContain('/properties/tree: a recursive reference "#/$defs/node"');
    expect(d.definition.strict).toBe(false);
    const flat = {
      ...FIXTURE,
      name: "flat",
      inputSchema: { type: "object", properties: { a: { type: "string" }, n: { type: "integer", minimum: 1 } }, required: ["a"] },
    };
    const s = buildDefinition(flat, "anthropic", { strict: true });
    expect(s.strict).toBe(true);
    expect(s.definition).toEqual({
      name: "flat",
      description: FIXTURE.description,
      input_schema: {
        type: "object",
        properties: { a: { type: "string" }, n: { type: "integer", description: "(Not enforced: minimum: 1)" } },
        required: ["a"],
        additionalProperties: false,
      },
      strict: true,
    });
  });
});

describe("lint per target against the fixture, each rule with its documented source", () => {
  const lintOf = (target: Target, strict = false) => buildDefinition(FIXTURE, target, { strict }).lint;

  it("every finding points into the tool's schema (or at its name) and cites a documentation URL", () => {
    for (const target of TARGETS) {
      for (const strict of [false, true]) {
        for (const l of lintOf(target, strict)) {
          expect(l.doc, `${target} ${l.keyword}`).toMatch(
            /^https:\/\/(platform\.openai\.com|docs\.anthropic\.com|ai\.google\.dev|modelcontextprotocol\.io|docs\.rs)\//,
          );
          expect(["rejected", "dropped", "changed"]).toContain(l.severity);
          expect(l.message.length).toBeGreaterThan(0);
          expect(l.message).not.toContain("\n");
          if (l.pointer !== "#name") expect(at(FIXTURE.inputSchema, l.pointer), `${target} ${l.pointer}`).toBeDefined();
        }
      }
    }
  });

  it("mcp: a 100-character dotted name is a valid MCP name; 129 characters are not", () => {
    expect(LONG_DOTTED_NAME).toHaveLength(100);
    expect(LONG_DOTTED_NAME).toContain(".");
    expect(lintOf("mcp")).toEqual([]);
    const long = buildDefinition({ ...FIXTURE, name: "a".repeat(129) }, "mcp");
    expect(long.lint).toEqual([expect.objectContaining({ severity: "rejected", pointer: "#name", keyword: "name", doc: MCP_NAME.doc })]);
  });

  it("openai: the name is refused and mapped; strict mode's rules each cite the structured-outputs page", () => {
    for (const target of ["openai-chat", "openai-responses"] as const) {
      const plain = lintOf(target);
      expect(plain).toEqual([expect.objectContaining({ severity: "rejected", pointer: "#name", keyword: "name", doc: OPENAI_NAME.doc })]);
      const strict = lintOf(target, true);
      const doc = OPENAI_STRICT.doc;
      expect(find(strict, "/properties/labels", "patternProperties")).toMatchObject({ severity: "rejected", doc, fix: "strict mode off for this tool" });
      expect(find(strict, "/properties/query", "minLength")).toMatchObject({ severity: "rejected", doc, fix: "moved into the description (not enforced)" });
      expect(find(strict, "/properties/filter", "if")).toMatchObject({ severity: "rejected", doc });
      expect(find(strict, "/properties/limit", "default")).toMatchObject({ severity: "rejected", doc });
      expect(find(strict, "/properties/homepage/anyOf/0", "format")).toMatchObject({ severity: "rejected", doc });
      expect(find(strict, "/properties/target", "oneOf")).toMatchObject({ severity: "changed", doc });
      expect(find(strict, "/properties/point", "prefixItems")).toMatchObject({ severity: "changed", doc });
      expect(find(strict, "/properties/limit", "required")).toMatchObject({ severity: "changed", doc });
      expect(find(strict, "/properties/filter", "additionalProperties")).toMatchObject({ severity: "changed", doc });
      expect(find(strict, "", "$schema")).toMatchObject({ severity: "changed", doc, fix: "removed" });
      // Supported keywords are not findings.
      expect(find(strict, "/properties/limit", "minimum")).toBeUndefined();
      expect(find(strict, "/properties/version", "const")).toBeUndefined();
    }
  });

  it("openai: what the API refuses in parameters sent as declared (a root that is not one object, arrays without items), strict or not", () => {
    const tool = (inputSchema: JsonSchema): ToolSpec => ({ ...FIXTURE, name: "refused_shapes", inputSchema });
    const arrays = tool({
      type: "object",
      properties: {
        tags: { type: "array" },
        either: { anyOf: [{ type: ["array", "null"] }, { type: "string" }] },
        ok: { type: "array", items: { type: "string" } },
        tree: { $ref: "#/$defs/list" },
      },
      $defs: { list: { type: "array" } },
    });
    const variants = tool({ type: "object", oneOf: [{ properties: { id: { type: "string" } } }, { properties: { email: { type: "string" } } }] });
    const untyped = tool({ properties: { q: { type: "string" } } });
    for (const target of ["openai-chat", "openai-responses"] as const) {
      const doc = "https://platform.openai.com/docs/guides/function-calling";
      const plain = buildDefinition(arrays, target).lint;
      // Each array without items where it is written (the $defs entry once, not where it is referenced); one with items is fine.
      expect(
        plain
          .filter((l) => l.keyword === "items")
          .map((l) => l.pointer)
          .sort(),
      ).toEqual(["/$defs/list", "/properties/either/anyOf/0", "/properties/tags"]);
      for (const l of plain) expect(l).toMatchObject({ severity: "rejected", doc, message: expect.stringContaining("array schema missing items") });
      expect(find(buildDefinition(variants, target).lint, "", "oneOf")).toMatchObject({
        severity: "rejected",
        doc,
        message: expect.stringContaining("at the top level"),
      });
      expect(find(buildDefinition(untyped, target).lint, "", "type")).toMatchObject({
        severity: "rejected",
        doc,
        message: expect.stringContaining("type is missing"),
      });
      // Strict mode cannot express an array of anything, so the tool goes as declared and the API's rule still holds.
      const strict = buildDefinition(arrays, target, { strict: true });
      expect(strict.strict).toBe(false);
      expect(strict.lint.filter((l) => l.doc === doc && l.keyword === "items")).toHaveLength(3);
      // A strict rewrite that succeeds closes the root as an object: nothing of this rule is left to refuse.
      const closed = buildDefinition(untyped, target, { strict: true });
      expect(closed.strict).toBe(true);
      expect(closed.lint.filter((l) => l.doc === doc)).toEqual([]);
      // Every built-in tool passes these rules as declared.
      for (const b of buildDefinitions(BUILTIN, target))
        expect(
          b.lint.filter((l) => l.doc === doc),
          b.name,
        ).toEqual([]);
    }
  });

  it("anthropic: the name rule, and strict tool use's limits from the structured-outputs page", () => {
    expect(lintOf("anthropic")).toEqual([expect.objectContaining({ severity: "rejected", pointer: "#name", doc: ANTHROPIC_NAME.doc })]);
    const strict = lintOf("anthropic", true);
    const doc = ANTHROPIC_STRICT.doc;
    expect(find(strict, "/properties/tree", "$ref")).toMatchObject({ severity: "rejected", doc, fix: "strict mode off for this tool" });
    expect(find(strict, "/properties/limit", "minimum")).toMatchObject({ severity: "rejected", doc, fix: "moved into the description (not enforced)" });
    expect(find(strict, "/properties/query", "minLength")).toMatchObject({ severity: "rejected", doc });
    expect(find(strict, "/properties/filter", "additionalProperties")).toMatchObject({ severity: "changed", doc });
    // Optional properties stay optional (no required/null rewrite), default and format uri are supported.
    expect(strict.filter((l) => l.keyword === "required")).toEqual([]);
    expect(find(strict, "/properties/limit", "default")).toBeUndefined();
    expect(find(strict, "/properties/homepage/anyOf/0", "format")).toBeUndefined();
  });

  it("gemini: what its OpenAPI-subset Schema refuses, ignores and what the conversion rewrote", () => {
    const lint = lintOf("gemini");
    const doc = GEMINI_SCHEMA_DOC;
    expect(find(lint, "#name", "name")).toMatchObject({ severity: "rejected", doc: GEMINI_NAME.doc });
    expect(find(lint, "/properties/labels", "patternProperties")).toMatchObject({ severity: "rejected", doc });
    expect(find(lint, "/properties/labels", "additionalProperties")).toMatchObject({ severity: "dropped", doc });
    expect(find(lint, "/properties/filter", "if")).toMatchObject({ severity: "rejected", doc });
    expect(find(lint, "/properties/target/oneOf/0/properties/id", "format")).toMatchObject({ severity: "rejected", doc });
    expect(find(lint, "/properties/tree", "$ref")).toMatchObject({ severity: "changed", fix: "the referenced schema inlined" });
    expect(find(lint, "/$defs/node/properties/children/items", "$ref")).toMatchObject({
      severity: "changed",
      fix: "cut here to an object, described in words",
    });
    expect(find(lint, "/properties/version", "const")).toMatchObject({ severity: "changed", doc });
    expect(find(lint, "/properties/note", "type")).toMatchObject({ severity: "changed", fix: "one type, with nullable" });
    expect(find(lint, "/properties/point", "prefixItems")).toMatchObject({ severity: "changed", doc });
    expect(find(lint, "", "$schema")).toMatchObject({ severity: "rejected", fix: "removed" });
  });

  it("rig: nothing to report (Rig passes name and schema on)", () => {
    expect(lintOf("rig")).toEqual([]);
    expect(buildDefinition(FIXTURE, "rig").definition).toEqual({ name: FIXTURE.name, description: FIXTURE.description, parameters: FIXTURE.inputSchema });
  });
});

describe("Gemini function declarations", () => {
  it("use only the fields of Gemini's Schema, one type each, no references", () => {
    for (const spec of [FIXTURE, ...BUILTIN]) {
      const d = buildDefinition(spec, "gemini");
      expect(nameOf(d)).toMatch(GEMINI_NAME.pattern);
      const p = d.definition.parameters;
      if (p === undefined) continue;
      for (const k of schemaKeys(p)) expect(GEMINI_KEYWORDS.has(k), `${spec.name}: ${k}`).toBe(true);
      expect(JSON.stringify(p)).not.toContain('"type":[');
    }
  });

  it("leave parameters out for a tool without any", () => {
    expect(buildDefinition({ ...FIXTURE, name: "none", inputSchema: { type: "object", properties: {} } }, "gemini").definition).toEqual({
      name: "none",
      description: FIXTURE.description,
    });
  });
});

describe("names", () => {
  it("maps refused names reversibly and without collisions, whatever the order", () => {
    const names = ["a.b", "a_b", "a-b", "x".repeat(70), "x".repeat(69) + ".", "ok", "a b", LONG_DOTTED_NAME];
    for (const rule of [OPENAI_NAME, GEMINI_NAME]) {
      const m = mapNames(names, rule);
      expect(m.has("ok")).toBe(false);
      expect(m.has("a_b")).toBe(false);
      const sent = names.map((n) => m.get(n) ?? n);
      expect(new Set(sent).size).toBe(names.length);
      for (const s of sent) expect(s).toMatch(rule.pattern);
      // Reversible: provider name -> MCP name from the list.
      const back = new Map([...m].map(([k, v]) => [v, k]));
      for (const [i, s] of sent.entries()) expect(back.get(s) ?? s).toBe(names[i]);
      expect(mapNames([...names].reverse(), rule)).toEqual(m);
    }
    // Gemini takes dots: a.b keeps its name there.
    expect(mapNames(["a.b"], GEMINI_NAME).size).toBe(0);
    expect(mapNames(["a.b", "a_b"], OPENAI_NAME).get("a.b")).toMatch(/^a_b_[0-9a-f]{8}$/);
  });

  it("a definition built for the registry uses the registry's mapping and lists it", () => {
    const specs = [FIXTURE, { ...FIXTURE, name: "a.b" }, { ...FIXTURE, name: "a_b" }];
    const built = buildDefinitions(specs, "anthropic");
    expect(new Set(built.map(nameOf)).size).toBe(3);
    expect(built[0]!.nameMapping).toEqual({ name: FIXTURE.name, providerName: registryNames(specs, "anthropic").get(FIXTURE.name) });
    // a.b cannot become a_b: that name is another tool's.
    expect(built[1]!.nameMapping?.providerName).toMatch(/^a_b_[0-9a-f]{8}$/);
    expect(nameOf(built[1]!)).toBe(built[1]!.nameMapping?.providerName);
    expect(built[2]!.nameMapping).toBeUndefined();
    expect(nameOf(built[2]!)).toBe("a_b");
  });
});

describe("tokens", () => {
  it("equal o200k_base's encoding of JSON.stringify(definition) for the OpenAI targets; estimated, and said so, for the others", () => {
    for (const spec of [FIXTURE, FIXTURE_WITHOUT_MAP, ...BUILTIN]) {
      for (const target of TARGETS) {
        for (const strict of [false, true]) {
          const d = buildDefinition(spec, target, { strict });
          expect(d.tokens.count).toBe(o200k.encode(JSON.stringify(d.definition), [], []).length);
          expect(d.tokens.tokenizer).toBe("o200k_base");
          const openai = target === "openai-chat" || target === "openai-responses";
          expect(d.tokens.approximate).toBe(!openai);
          if (!openai) expect(d.tokens.method).toMatch(/o200k_base count of the same JSON/);
        }
      }
    }
  });

  it("count text that looks like a special token as text", () => {
    const d = buildDefinition({ ...FIXTURE, name: "special", description: "Ends with <|endoftext|> and <|im_start|>." }, "openai-chat");
    expect(d.tokens.count).toBe(o200k.encode(JSON.stringify(d.definition), [], []).length);
  });
});

describe("the cache and the selection", () => {
  it("answers the same definition for the same spec content, another for changed content", () => {
    const a = buildDefinition(FIXTURE, "gemini");
    expect(buildDefinition({ ...FIXTURE }, "gemini")).toBe(a);
    expect(buildDefinition({ ...FIXTURE, description: "other" }, "gemini")).not.toBe(a);
    expect(buildDefinition(FIXTURE, "gemini", { strict: true })).not.toBe(a);
  });

  it("selects by source and by text", () => {
    const specs = [...BUILTIN, FIXTURE];
    expect(selectTools(specs, { source: "runtime" })).toEqual([FIXTURE]);
    expect(selectTools(specs, { q: "SEARCHES contacts" })).toEqual([FIXTURE]);
    expect(selectTools(specs, {})).toHaveLength(specs.length);
  });
});

describe("the query of the definition routes", () => {
  const parse = (qs: string, allowed = ["for", "strict"]) => parseDefinitionQuery(new URLSearchParams(qs), allowed);
  const refusal = (qs: string) => {
    try {
      parse(qs);
    } catch (err) {
      return err as HttpError;
    }
    throw new Error("not refused");
  };

  it("takes a target and strict", () => {
    expect(parse("for=gemini")).toEqual({ for: "gemini", strict: false });
    expect(parse("for=openai-chat&strict=true")).toEqual({ for: "openai-chat", strict: true });
  });

  it("refuses a missing or unknown target naming the field and the accepted values", () => {
    for (const qs of ["", "for=gpt", "for=openai"]) {
      const e = refusal(qs);
      expect(e.status).toBe(400);
      expect(e.details?.[0]?.path).toBe("/for");
      expect(e.message).toContain("mcp, openai-chat, openai-responses, anthropic, gemini, rig");
    }
    expect(refusal("for=rig&strict=yes").details?.[0]?.path).toBe("/strict");
    expect(refusal("for=rig&extra=1").details?.[0]?.path).toBe("/extra");
    expect(refusal("for=rig&for=mcp").details?.[0]?.path).toBe("/for");
  });
});
