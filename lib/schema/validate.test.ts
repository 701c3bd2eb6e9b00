import { describe, expect, it } from "vitest";
import { compileSchema, describeFieldErrors, ERROR_LIMITS, SCHEMA_LIMITS, schemaDialect, SchemaCompileError, validate } from "./validate";

describe("validate", () => {
  it("uses 2020-12 by default (prefixItems is enforced)", () => {
    const schema = { type: "array", prefixItems: [{ type: "string" }, { type: "integer" }] };
    expect(schemaDialect(schema)).toBe("2020-12");
    expect(validate(schema, ["a", 1]).valid).toBe(true);
    expect(validate(schema, ["a", "b"]).valid).toBe(false);
  });

  it("honours a declared draft-07 schema", () => {
    const schema = { $schema: "http://json-schema.org/draft-07/schema#", type: "array", items: [{ type: "string" }], additionalItems: false };
    expect(schemaDialect(schema)).toBe("draft-07");
    expect(validate(schema, ["a"]).valid).toBe(true);
    expect(validate(schema, ["a", "b"]).valid).toBe(false);
  });

  it("names the field and what was expected", () => {
    const schema = {
      type: "object",
      properties: { a: { type: "integer" }, nested: { type: "object", properties: { mail: { type: "string", format: "email" } } }, kind: { enum: ["x", "y"] } },
      required: ["a", "b"],
      additionalProperties: false,
    };
    const r = validate(schema, { a: "1", nested: { mail: "nope" }, kind: "z", extra: 1 });
    expect(r.valid).toBe(false);
    if (r.valid) return;
    expect(r.errors).toEqual(
      expect.arrayContaining([
        { path: "/a", message: "must be integer" },
        { path: "/b", message: "is required" },
        { path: "/nested/mail", message: 'must match format "email"' },
        { path: "/kind", message: 'must be one of "x", "y"' },
        { path: "/extra", message: "is not an allowed property" },
      ]),
    );
  });

  it("accepts vendor keywords and resolves local $ref", () => {
    const schema = { type: "object", "x-mcp-header": "X", $defs: { n: { type: "number" } }, properties: { v: { $ref: "#/$defs/n" } } };
    expect(validate(schema, { v: 1 }).valid).toBe(true);
    expect(validate(schema, { v: "1" }).valid).toBe(false);
  });

  it("reports a broken schema as SchemaCompileError", () => {
    expect(() => compileSchema({ type: "object", properties: { a: { $ref: "#/$defs/missing" } } })).toThrow(SchemaCompileError);
  });

  it("two schemas with the same $id do not clash", () => {
    expect(validate({ $id: "urn:same", type: "string" }, "a").valid).toBe(true);
    expect(validate({ $id: "urn:same", type: "integer" }, 1).valid).toBe(true);
  });
});

/** The message of the SchemaCompileError that compiling the schema throws. */
function compileError(schema: Record<string, unknown>): string {
  try {
    compileSchema(schema);
  } catch (err) {
    expect(err).toBeInstanceOf(SchemaCompileError);
    return (err as Error).message;
  }
  return expect.unreachable("the schema compiled");
}

describe("patterns run on a linear-time engine", () => {
  it("a catastrophic pattern returns at once (it would stall JavaScript's RegExp)", () => {
    const schema = { type: "string", pattern: "^(a+)+$" };
    expect(validate(schema, `${"a".repeat(40)}!`)).toEqual({ valid: false, errors: [{ path: "", message: 'must match pattern "^(a+)+$"' }] });
    expect(validate(schema, "a".repeat(40))).toEqual({ valid: true });
  });

  it("so does a catastrophic patternProperties key, in every dialect", () => {
    for (const $schema of [undefined, "https://json-schema.org/draft/2019-09/schema", "http://json-schema.org/draft-07/schema#"]) {
      const schema = { $schema, type: "object", patternProperties: { "^(a|aa)+$": { type: "integer" } }, additionalProperties: false };
      expect(validate(schema, { [`${"a".repeat(50)}!`]: 1 })).toEqual({
        valid: false,
        errors: [{ path: `/${"a".repeat(50)}!`, message: "is not an allowed property" }],
      });
      expect(validate(schema, { aaaa: "x" })).toEqual({ valid: false, errors: [{ path: "/aaaa", message: "must be integer" }] });
      expect(validate(schema, { aaaa: 1 }).valid).toBe(true);
    }
  });

  it("compiles without testing patterns against property names", () => {
    const schema = { type: "object", properties: { [`${"a".repeat(40)}!`]: {} }, patternProperties: { "^(a+)+$": { type: "string" } } };
    expect(validate(schema, {}).valid).toBe(true);
  });

  it("keeps ordinary patterns as they were: anchors, classes, Unicode", () => {
    const cases: [string, string, boolean][] = [
      ["^[A-Z]{2}-\\d{4}$", "AB-1234", true],
      ["^[A-Z]{2}-\\d{4}$", "ab-1234", false],
      ["\\d", "order 66", true], // unanchored, as JSON Schema says
      ["^\\p{L}+$", "Straße", true],
      ["^\\p{Lu}", "straße", false],
      ["^[^\\s@]+@[^\\s@]+$", "a@b", true],
      ["^[^\\s@]+@[^\\s@]+$", "a b@c", false],
      ["^.{1,3}$", "😀😀😀", true],
      ["^\\u00e9t\\u00e9$", "été", true],
      ["^\\s*$", "\u00a0\u3000", true],
      ["^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\\.)+[a-z]{2,}$", "tool.example.com", true],
    ];
    for (const [pattern, value, valid] of cases) expect([pattern, value, validate({ type: "string", pattern }, value).valid]).toEqual([pattern, value, valid]);
    expect(validate({ type: "string", format: "regex" }, "^(a+)+$").valid).toBe(true);
    expect(validate({ type: "string", format: "regex" }, "(").valid).toBe(false);
  });

  it("refuses a pattern RE2 cannot run with a clear SchemaCompileError, and again from memory", () => {
    const schema = { type: "object", properties: { word: { type: "string", pattern: "^(\\w+) \\1$" } } };
    const message = compileError(schema);
    expect(message).toMatch(/^Unsupported pattern "\^\(\\\\w\+\) \\\\1\$": it uses a backreference \(\\1\), which needs a backtracking engine/);
    expect(compileError(schema)).toBe(message);
    expect(compileError({ type: "string", pattern: "^a(?=b)" })).toMatch(/lookahead/);
    expect(compileError({ type: "object", patternProperties: { "(?<!x)y": {} } })).toMatch(/^Unsupported pattern "\(\?<!x\)y": it uses a lookbehind/);
    expect(compileError({ $schema: "http://json-schema.org/draft-07/schema#", type: "string", pattern: "(a)\\1" })).toMatch(/backreference/);
  });

  it("refuses a schema whose patterns compile to too much in all", () => {
    const properties = Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`p${i}`, { type: "string", pattern: `^[a-z]{0,1000}${i}$` }]));
    expect(compileError({ type: "object", properties })).toMatch(/^Schema too complex: its patterns compile to more than 100,000 instructions in all\.$/);
  });
});

describe("limits on untrusted schemas", () => {
  it("refuses an oversized, overdeep or pattern-heavy schema before compiling it", () => {
    expect(compileError({ type: "string", description: "x".repeat(SCHEMA_LIMITS.maxJsonChars) })).toMatch(/^Schema too large/);
    let deep: Record<string, unknown> = { type: "string" };
    for (let i = 0; i < 300; i++) deep = { type: "object", properties: { k: deep } };
    expect(compileError(deep)).toMatch(/^Schema nested too deeply: more than 256 levels/);
    const many = Object.fromEntries(Array.from({ length: 1001 }, (_, i) => [`^k${i}$`, { type: "string" }]));
    expect(compileError({ type: "object", patternProperties: many })).toMatch(/^Schema has too many patterns/);
    expect(compileError({ type: "string", pattern: "a".repeat(10_001) })).toMatch(/^Pattern too long: 10,001 characters/);
  });

  it("still compiles a deep schema of the kind the studio infers (64 levels of objects)", () => {
    let s: Record<string, unknown> = { type: ["string", "null"], enum: ["a", null] };
    for (let i = 0; i < 64; i++) s = { type: "object", properties: { k: s }, required: ["k"] };
    let v: unknown = "a";
    for (let i = 0; i < 64; i++) v = { k: v };
    expect(validate(s, v)).toEqual({ valid: true });
  });
});

describe("error details are capped", () => {
  it("lists at most 50 field errors, the last saying how many more there were", () => {
    const r = validate(
      { type: "array", items: { type: "integer" } },
      Array.from({ length: 100 }, () => "x"),
    );
    expect(r.valid).toBe(false);
    if (r.valid) return;
    expect(r.errors).toHaveLength(ERROR_LIMITS.maxFieldErrors);
    expect(r.errors[0]).toEqual({ path: "/0", message: "must be integer" });
    expect(r.errors[48]).toEqual({ path: "/48", message: "must be integer" });
    expect(r.errors[49]).toEqual({ path: "", message: "and 51 more problems not listed" });
    expect(describeFieldErrors(r.errors)).toMatch(/^\/0 must be integer; .*; \/48 must be integer; \(arguments\) and 51 more problems not listed$/);
  });

  it("cuts long messages and paths", () => {
    const pattern = `^${"a".repeat(1000)}$`;
    const long = "k".repeat(2000);
    const enumValues = Array.from({ length: 1000 }, (_, i) => `value-${i}-${"v".repeat(50)}`);
    const schema = { type: "object", properties: { p: { type: "string", pattern }, e: { enum: enumValues } }, additionalProperties: false };
    const r = validate(schema, { p: "b", e: "nope", [long]: 1 });
    expect(r.valid).toBe(false);
    if (r.valid) return;
    const byPath = Object.fromEntries(r.errors.map((e) => [e.path.slice(0, 10), e]));
    expect(byPath["/p"].message).toHaveLength(ERROR_LIMITS.maxMessageChars);
    expect(byPath["/p"].message).toMatch(/^must match pattern "\^aaaa.*…$/);
    expect(byPath["/e"].message).toHaveLength(ERROR_LIMITS.maxMessageChars);
    expect(byPath["/e"].message).toMatch(/^must be one of "value-0-v+", "value-1-/);
    expect(byPath[`/${"k".repeat(9)}`].path).toHaveLength(ERROR_LIMITS.maxPathChars);
    const c = validate({ const: { big: "c".repeat(2000) } }, 1);
    expect(c.valid ? null : c.errors[0].message).toMatch(/^must be \{"big":"c+…$/);
  });

  it("describes at most 50 errors, each cut, without splitting a character", () => {
    const errors = Array.from({ length: 60 }, (_, i) => ({ path: `/f${i}`, message: `${"x".repeat(498)}😀 tail` }));
    const text = describeFieldErrors(errors);
    const parts = text.split("; ");
    expect(parts).toHaveLength(ERROR_LIMITS.maxFieldErrors);
    expect(parts[0]).toBe(`/f0 ${"x".repeat(498)}…`);
    expect(parts[49]).toBe("(arguments) and 11 more problems not listed");
    expect(describeFieldErrors([{ path: "", message: "must be an object" }])).toBe("(arguments) must be an object");
  });
});
