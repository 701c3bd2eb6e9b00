import { describe, expect, it } from "vitest";
import { compareWithDeclared } from "@/lib/inference/compare";
import { statsOf } from "@/lib/inference/stats";

const diff = (declared: Record<string, unknown>, samples: unknown[]) =>
  compareWithDeclared(declared, statsOf(samples))
    .map((d) => `${d.kind} ${d.path}`)
    .sort();

describe("observed vs declared", () => {
  it("reports nothing when they agree", () => {
    const declared = { type: "object", properties: { a: { type: "number" }, b: { type: ["string", "null"] } }, required: ["a"] };
    expect(diff(declared, [{ a: 1 }, { a: 1.5, b: null }, { a: 2, b: "x" }])).toEqual([]);
  });

  it("finds each kind of difference", () => {
    const declared = {
      type: "object",
      properties: { id: { type: "integer" }, name: { type: "string" }, gone: { type: "boolean" } },
      required: ["id", "name"],
      additionalProperties: false,
    };
    const d = compareWithDeclared(
      declared,
      statsOf([
        { id: 1.5, extra: 1 },
        { id: 2, name: "x", extra: 2 },
      ]),
    );
    expect(d.map((x) => `${x.kind} ${x.path}`).sort()).toEqual([
      "missing_in_observed /gone",
      "required_mismatch /name",
      "type_mismatch /id",
      "undeclared /extra",
    ]);
    expect(d.find((x) => x.kind === "undeclared")?.message).toMatch(/additionalProperties: false/);
    expect(d.find((x) => x.kind === "type_mismatch")).toMatchObject({ declared: ["integer"], observed: ["integer", "number"] });
  });

  it("says when an optional field is always present", () => {
    expect(diff({ type: "object", properties: { a: { type: "integer" } } }, [{ a: 1 }, { a: 2 }])).toEqual(["required_mismatch /a"]);
  });

  it("follows $ref, anyOf (nullable), allOf and array items", () => {
    const declared = {
      $defs: { item: { type: "object", properties: { sku: { type: "string" } }, required: ["sku"] } },
      type: "object",
      allOf: [{ properties: { total: { anyOf: [{ type: "number" }, { type: "null" }] } }, required: ["total"] }],
      properties: { items: { type: "array", items: { $ref: "#/$defs/item" } } },
      required: ["items"],
    };
    expect(
      diff(declared, [
        { items: [{ sku: "a" }], total: null },
        { items: [], total: 3 },
      ]),
    ).toEqual([]);
    expect(diff(declared, [{ items: [{ sku: 1, qty: 2 }], total: "3" }])).toEqual([
      "type_mismatch /items/*/sku",
      "type_mismatch /total",
      "undeclared /items/*/qty",
    ]);
  });

  it("keys matched by patternProperties or an additionalProperties schema are declared", () => {
    const declared = { type: "object", patternProperties: { "^x-": { type: "string" } }, additionalProperties: { type: "integer" } };
    expect(diff(declared, [{ "x-a": "s", n: 1 }])).toEqual([]);
    expect(diff(declared, [{ "x-a": 1, n: "s" }])).toEqual(["type_mismatch /n", "type_mismatch /x-a"]);
  });

  it("an open schema ({}) below a property adds no noise", () => {
    expect(diff({ type: "object", properties: { result: {} }, required: ["result"] }, [{ result: { deep: [1, { x: 2 }] } }])).toEqual([]);
  });

  it("keys with / ~ and * keep their escaped paths", () => {
    const declared = { type: "object", properties: { "a/b": { type: "string" }, "*": { type: "string" } } };
    expect(diff(declared, [{ "a/b": 1, "*": 2, "~": 3 }])).toEqual(
      ["required_mismatch /a~1b", "required_mismatch /~2", "type_mismatch /a~1b", "type_mismatch /~2", "undeclared /~0"].sort(),
    );
  });
});
