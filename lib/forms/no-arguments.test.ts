import { describe, expect, it } from "vitest";
import { takesNoArguments } from "./no-arguments";

describe("takesNoArguments", () => {
  it("is true for an object schema without properties", () => {
    expect(takesNoArguments({ type: "object" })).toBe(true);
    expect(takesNoArguments({ type: "object", properties: {}, additionalProperties: false })).toBe(true);
  });
  it("is false when there is something to fill in", () => {
    expect(takesNoArguments({ type: "object", properties: { a: { type: "number" } } })).toBe(false);
    expect(takesNoArguments({ type: "object", additionalProperties: { type: "string" } })).toBe(false);
    expect(takesNoArguments({ type: "object", additionalProperties: true })).toBe(false);
    expect(takesNoArguments({ type: "object", patternProperties: { "^x-": {} } })).toBe(false);
    expect(takesNoArguments({ type: "object", oneOf: [{ properties: { a: {} } }] })).toBe(false);
    expect(takesNoArguments({ $ref: "#/$defs/args", $defs: { args: { type: "object" } } })).toBe(false);
  });
  it("is false for what is not a schema object", () => {
    expect(takesNoArguments(null)).toBe(false);
    expect(takesNoArguments(true)).toBe(false);
  });
});
