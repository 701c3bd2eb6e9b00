import { describe, expect, it } from "vitest";
import { SchemaCompileError } from "./errors";
import { checkSchemaLimits, SCHEMA_LIMITS, schemaJson } from "./limits";

const nested = (levels: number) => {
  let s: Record<string, unknown> = { type: "string" };
  for (let i = 1; i < levels; i++) s = { items: s };
  return s;
};

describe("schemaJson", () => {
  it("is the JSON text of a schema within the size limit", () => {
    expect(schemaJson({ type: "string" })).toBe('{"type":"string"}');
  });

  it("refuses an oversized schema, saying how big it is", () => {
    const big = { type: "string", description: "x".repeat(SCHEMA_LIMITS.maxJsonChars) };
    expect(() => schemaJson(big)).toThrow(SchemaCompileError);
    expect(() => schemaJson(big)).toThrow(/^Schema too large: 1,000,034 characters of JSON; the limit is 1,000,000\.$/);
  });

  it("refuses what is not JSON, or nests beyond what JSON.stringify can walk", () => {
    expect(() => schemaJson({ default: 1n })).toThrow(/cannot be serialised as JSON/);
    expect(() => schemaJson(undefined)).toThrow(/not a JSON value/);
    expect(() => schemaJson(nested(200_000))).toThrow(/^Schema nested too deeply/);
  });
});

describe("checkSchemaLimits", () => {
  it("accepts a schema at the depth limit and refuses one level more", () => {
    expect(() => checkSchemaLimits(nested(SCHEMA_LIMITS.maxDepth))).not.toThrow();
    expect(() => checkSchemaLimits(nested(SCHEMA_LIMITS.maxDepth + 1))).toThrow(/^Schema nested too deeply: more than 256 levels of objects and arrays\.$/);
    // arrays count too
    let a: unknown = { type: "string" };
    for (let i = 0; i < SCHEMA_LIMITS.maxDepth; i++) a = [a];
    expect(() => checkSchemaLimits({ anyOf: a })).toThrow(/nested too deeply/);
  });

  it("counts pattern keywords and patternProperties keys", () => {
    const props = (n: number, key = (i: number) => `^p${i}$`) =>
      Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, { type: "string", pattern: key(i) }]));
    expect(() => checkSchemaLimits({ properties: props(SCHEMA_LIMITS.maxPatterns) })).not.toThrow();
    expect(() => checkSchemaLimits({ properties: props(SCHEMA_LIMITS.maxPatterns), pattern: "x" })).toThrow(/^Schema has too many patterns: more than 1,000/);
    const pp = Object.fromEntries(Array.from({ length: SCHEMA_LIMITS.maxPatterns + 1 }, (_, i) => [`^x${i}$`, {}]));
    expect(() => checkSchemaLimits({ patternProperties: pp })).toThrow(/too many patterns/);
    // a property named "pattern" (an object) is not a pattern
    expect(() => checkSchemaLimits({ properties: { pattern: { type: "string" } }, patternProperties: [] })).not.toThrow();
  });

  it("refuses an overlong pattern, naming it", () => {
    const long = `^${"a".repeat(SCHEMA_LIMITS.maxPatternLength)}$`;
    expect(() => checkSchemaLimits({ pattern: long })).toThrow(/^Pattern too long: 10,002 characters; the limit is 10,000 \(pattern "\^aaaa/);
    expect(() => checkSchemaLimits({ patternProperties: { [long]: {} } })).toThrow(/Pattern too long/);
  });
});
