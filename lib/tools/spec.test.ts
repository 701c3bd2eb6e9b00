import { describe, expect, it } from "vitest";
import { annotationHint, displayName } from "./spec";
import { ToolError, toToolError } from "./errors";
import { canonicalJson, specHash } from "./hash";

describe("tool model", () => {
  it("display name is title, else annotations.title, else name", () => {
    expect(displayName({ name: "n", title: "T", annotations: { title: "A" } })).toBe("T");
    expect(displayName({ name: "n", annotations: { title: "A" } })).toBe("A");
    expect(displayName({ name: "n" })).toBe("n");
  });

  it("applies the MCP defaults to absent annotations", () => {
    expect(annotationHint({}, "readOnlyHint")).toBe(false);
    expect(annotationHint({}, "destructiveHint")).toBe(true);
    expect(annotationHint({}, "idempotentHint")).toBe(false);
    expect(annotationHint({}, "openWorldHint")).toBe(true);
    expect(annotationHint({ annotations: { openWorldHint: false } }, "openWorldHint")).toBe(false);
  });

  it("unexpected errors keep their text operator-only", () => {
    const e = toToolError(new Error("db password is hunter2"));
    expect(e.kind).toBe("other");
    expect(e.message).not.toContain("hunter2");
    expect(e.detail).toContain("hunter2");
    const own = new ToolError("rate_limited", "slow down");
    expect(toToolError(own)).toBe(own);
  });

  it("hashes specs independent of key order", () => {
    expect(canonicalJson({ b: 1, a: { d: 2, c: 3 } })).toBe('{"a":{"c":3,"d":2},"b":1}');
    expect(specHash({ a: 1, b: 2 })).toBe(specHash({ b: 2, a: 1 }));
  });
});
