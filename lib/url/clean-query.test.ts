import { describe, expect, it } from "vitest";
import { cleanQuery } from "./clean-query";

describe("cleanQuery", () => {
  it("leaves out empty, blank, null and undefined values", () => {
    expect(cleanQuery({ tool: "", status: undefined, origin: null, q: "  " })).toBe("");
    expect(cleanQuery({ tool: "add", status: "", q: "x y" })).toBe("?tool=add&q=x+y");
  });
  it("keeps the given order and repeats a key for a list", () => {
    expect(
      cleanQuery([
        ["b", "2"],
        ["a", ["1", "", "3"]],
      ]),
    ).toBe("?b=2&a=1&a=3");
  });
  it("encodes what needs encoding", () => {
    expect(cleanQuery({ q: "a&b=c/é" })).toBe("?q=a%26b%3Dc%2F%C3%A9");
  });
});
