import { describe, expect, it } from "vitest";
import { escapeSegment, fragmentSegments, pointerSegments, toPointer, unescapeSegment } from "./pointer";

describe("JSON Pointer (RFC 6901)", () => {
  it("escapes ~ before / and unescapes in the other order, so ~01 is the key ~1", () => {
    expect(escapeSegment("a/b~c")).toBe("a~1b~0c");
    expect(unescapeSegment("~01")).toBe("~1");
    for (const k of ["", "plain", "~", "/", "~1", "a~/b", "é/ü"]) expect(unescapeSegment(escapeSegment(k))).toBe(k);
  });

  it("builds and reads pointers, the root being the empty pointer", () => {
    expect(toPointer([])).toBe("");
    expect(toPointer(["a/b", 0, "~"])).toBe("/a~1b/0/~0");
    expect(pointerSegments("")).toEqual([]);
    expect(pointerSegments("/a~1b/0/~0")).toEqual(["a/b", "0", "~"]);
    expect(pointerSegments("/")).toEqual([""]);
  });

  it("reads local $ref fragments percent-decoded, and never throws on a bad escape from an untrusted schema", () => {
    expect(fragmentSegments("#")).toEqual([]);
    expect(fragmentSegments("#/$defs/a%20b/properties/x~1y")).toEqual(["$defs", "a b", "properties", "x/y"]);
    expect(fragmentSegments("#/$defs/100%")).toEqual(["$defs", "100%"]);
    expect(fragmentSegments("#/$defs/%E0%A4%A")).toEqual(["$defs", "%E0%A4%A"]);
    expect(fragmentSegments("other.json#/a")).toBeNull();
    expect(fragmentSegments("#anchor")).toBeNull();
  });
});
