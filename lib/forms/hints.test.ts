import { describe, expect, it } from "vitest";
import { defaultHint, isAnyJsonSchema, itemLabel, parseJsonText } from "./hints";

describe("itemLabel", () => {
  it("numbers array items from 1 with their own title, else 'Item'", () => {
    expect(itemLabel(["tags", 0], "Tag")).toBe("Tag 1");
    expect(itemLabel(["attendees", 2], "Person")).toBe("Person 3");
    expect(itemLabel(["values", 1], undefined)).toBe("Item 2");
    expect(itemLabel(["values", 1], "  ")).toBe("Item 2");
  });
  it("leaves fields that are not array items alone", () => {
    expect(itemLabel(["venue", "city"], "City")).toBeNull();
    expect(itemLabel([], "x")).toBeNull();
  });
});

describe("defaultHint", () => {
  it("says what the tool uses when the field is unset", () => {
    expect(defaultHint({ default: "normal" })).toBe("default: normal");
    expect(defaultHint({ default: 60 })).toBe("default: 60");
    expect(defaultHint({ default: true })).toBe("default: on");
    expect(defaultHint({ default: false })).toBe("default: off");
    expect(defaultHint({ default: ["a"] })).toBe('default: ["a"]');
    expect(defaultHint({ default: null })).toBe("default: null");
  });
  it("is null without a default", () => {
    expect(defaultHint({ type: "string" })).toBeNull();
    expect(defaultHint(undefined)).toBeNull();
  });
});

describe("isAnyJsonSchema", () => {
  it("is true for schemas that only annotate", () => {
    expect(isAnyJsonSchema({})).toBe(true);
    expect(isAnyJsonSchema(true)).toBe(true);
    expect(isAnyJsonSchema({ title: "Data", description: "any", examples: [{}] })).toBe(true);
  });
  it("is false for schemas that constrain the value", () => {
    for (const s of [{ type: "string" }, { enum: [1] }, { const: 1 }, { oneOf: [] }, { $ref: "#/x" }, { properties: {} }, { items: {} }]) {
      expect(isAnyJsonSchema(s)).toBe(false);
    }
    expect(isAnyJsonSchema(undefined)).toBe(false);
    expect(isAnyJsonSchema(null)).toBe(false);
    expect(isAnyJsonSchema([])).toBe(false);
  });
});

describe("parseJsonText", () => {
  it("parses any JSON value, and empty text is unset", () => {
    expect(parseJsonText('{"a": [1]}')).toEqual({ ok: true, value: { a: [1] } });
    expect(parseJsonText("null")).toEqual({ ok: true, value: null });
    expect(parseJsonText("  ")).toEqual({ ok: true, value: undefined });
  });
  it("says why invalid JSON is invalid", () => {
    const r = parseJsonText("{oops");
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toMatch(/^Not valid JSON: /);
  });
});
