import { describe, expect, it } from "vitest";
import { pruneUnset } from "./prune";

describe("pruneUnset", () => {
  it("drops unset optional fields the form filled with placeholders", () => {
    expect(pruneUnset({ a: "", b: null, c: [], d: {}, e: undefined, f: 0, g: false, h: "x" })).toEqual({ f: 0, g: false, h: "x" });
  });
  it("prunes nested objects and drops those left empty", () => {
    expect(pruneUnset({ venue: { kind: "online", url: "" }, extra: { note: "" } })).toEqual({ venue: { kind: "online" } });
  });
  it("keeps array items in place, pruning objects inside them", () => {
    expect(pruneUnset({ people: [{ name: "A", email: "" }, { name: "B" }], nums: [0, 1, undefined] })).toEqual({
      people: [{ name: "A" }, { name: "B" }],
      nums: [0, 1],
    });
  });
});

describe("pruneUnset with the schema", () => {
  const schema = {
    type: "object",
    properties: {
      data: { title: "Data" },
      nested: { type: "object", properties: { raw: {} } },
      list: { type: "array", items: { type: "object", properties: { any: {} } } },
    },
  };
  it("keeps what was typed into an any-JSON field, empty values included", () => {
    expect(pruneUnset({ data: null, nested: { raw: {} }, list: [{ any: [] }] }, schema)).toEqual({ data: null, nested: { raw: {} }, list: [{ any: [] }] });
    expect(pruneUnset({ data: { a: "", b: [] } }, schema)).toEqual({ data: { a: "", b: [] } });
  });
  it("still drops an any-JSON field that is unset", () => {
    expect(pruneUnset({ data: undefined, extra: "" }, schema)).toEqual({});
  });
});
