import { describe, expect, it } from "vitest";
import { compileSchema, schemaDialect, SchemaCompileError, validate } from "./validate";

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
