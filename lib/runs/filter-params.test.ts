import { describe, expect, it } from "vitest";
import { FILTER_KEYS, queryEntries, runsHref } from "./filter-params";

describe("runsHref", () => {
  it("is plain /runs when no filter is set", () => {
    expect(runsHref({})).toBe("/runs");
    expect(runsHref({ tool: "", status: "", q: " " })).toBe("/runs");
  });
  it("holds only the filters that are set, in a fixed order", () => {
    expect(runsHref({ q: "2222", status: "", tool: "add", origin: undefined })).toBe("/runs?tool=add&q=2222");
  });
  it("drops what is not a filter (a page cursor starts over)", () => {
    const values = { tool: "add", cursor: "abc" } as Record<string, string>;
    expect(runsHref(values)).toBe("/runs?tool=add");
  });
  it("round-trips through queryEntries for every key", () => {
    const values = Object.fromEntries(FILTER_KEYS.map((k) => [k, `${k}-value`]));
    const href = runsHref(values);
    expect(queryEntries(new URLSearchParams(href.split("?")[1]))).toEqual(values);
  });
});
