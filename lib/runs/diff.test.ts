import { describe, expect, it } from "vitest";
import { diffJson } from "./diff";

describe("diffJson", () => {
  it("lists added, removed and changed paths", () => {
    expect(diffJson({ a: 1, b: { c: [1, 2] }, d: "x" }, { a: 2, b: { c: [1] }, e: null })).toEqual([
      { path: "/a", kind: "changed", left: 1, right: 2 },
      { path: "/b/c/1", kind: "removed", left: 2 },
      { path: "/d", kind: "removed", left: "x" },
      { path: "/e", kind: "added", right: null },
    ]);
  });
  it("finds nothing between equal values, and compares roots", () => {
    expect(diffJson({ x: [{}] }, { x: [{}] })).toEqual([]);
    expect(diffJson(1, "1")).toEqual([{ path: "", kind: "changed", left: 1, right: "1" }]);
  });
});
