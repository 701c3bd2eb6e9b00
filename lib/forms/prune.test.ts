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
