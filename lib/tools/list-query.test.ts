import { describe, expect, it } from "vitest";
import { parseToolListQuery, toolListHref } from "./list-query";

describe("tool list query", () => {
  it("is plain / when nothing is filtered", () => {
    expect(toolListHref({ q: "", source: "all", hints: [] })).toBe("/");
    expect(toolListHref({ q: "   ", source: "all", hints: [] })).toBe("/");
  });
  it("holds the search text, the source and each hint", () => {
    expect(toolListHref({ q: "event", source: "builtin", hints: ["read-only", "closed world"] })).toBe(
      "/?q=event&source=builtin&hint=read-only&hint=closed+world",
    );
  });
  it("reads back what it wrote", () => {
    const state = { q: "a b", source: "srv", hints: ["writes", "idempotent"] };
    expect(parseToolListQuery(new URLSearchParams(toolListHref(state).slice(2)))).toEqual(state);
  });
  it("defaults a missing or empty source to all and drops repeated hints", () => {
    expect(parseToolListQuery(new URLSearchParams("source=&hint=writes&hint=writes&hint="))).toEqual({ q: "", source: "all", hints: ["writes"] });
  });
});
