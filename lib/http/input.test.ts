import { describe, expect, it } from "vitest";
import { INPUT_LIMITS, inspectJson, storableCopy, urlProblem } from "./input";

const deep = (n: number): unknown => (n === 0 ? "leaf" : { a: deep(n - 1) });

describe("inspectJson", () => {
  it("accepts ordinary JSON, emoji and all", () => {
    expect(inspectJson({ a: [1, "x", { b: null }], emoji: "😀", text: "ok" })).toEqual([]);
  });
  it("names the path of NUL, lone surrogates, __proto__ keys and bad keys", () => {
    const v = JSON.parse('{"a": {"b": "x\\u0000"}, "c": ["\\ud800"], "__proto__": {"p": 1}, "k\\u0000": 1}');
    // The path of a bad key is written escaped: it is stored with the rejected run, and must be storable itself.
    expect(
      inspectJson(v)
        .map((p) => p.path)
        .sort(),
    ).toEqual(["/__proto__", "/a/b", "/c/0", "/k\\u0000"].sort());
    expect(inspectJson(v).find((p) => p.path === "/a/b")?.message).toMatch(/U\+0000/);
  });
  it("names a bad key at any depth with a path that is itself storable and short", () => {
    for (const bad of ["\u0000", "\ud800", "\udfff", "a\udc00\ud800b", "\ud83d".repeat(300), "k".repeat(5000) + "\u0000"]) {
      for (const depth of [0, 1, 5, 63]) {
        let v: unknown = { [bad]: 1 };
        for (let i = 0; i < depth; i++) v = i % 2 ? [v] : { [`k${i}`]: v };
        const problems = inspectJson(v);
        expect(problems, `${JSON.stringify(bad).slice(0, 40)} at ${depth}`).toHaveLength(1);
        expect(problems[0]!.message).toMatch(/^key contains/);
        expect(inspectJson(problems), "the problem itself can be stored").toEqual([]);
        expect(problems[0]!.path.split("/").pop()!.length).toBeLessThanOrEqual(201);
      }
    }
  });
  it("stops at the depth, string length and key limits, however deep the value", () => {
    expect(inspectJson(deep(10_000))).toEqual([{ path: expect.stringMatching(/^(\/a){64}$/), message: `nests deeper than ${INPUT_LIMITS.maxDepth} levels` }]);
    expect(inspectJson({ s: "x".repeat(INPUT_LIMITS.maxStringLength + 1) })[0]?.message).toMatch(/longer than/);
    expect(inspectJson(Object.fromEntries(Array.from({ length: INPUT_LIMITS.maxKeys + 1 }, (_, i) => [`k${i}`, i])))[0]?.message).toMatch(/more than/);
  });
});

describe("storableCopy", () => {
  it("escapes what cannot be stored and keeps the rest as sent", () => {
    const v = JSON.parse('{"a": "x\\u0000y", "b": "\\udc00", "__proto__": 1, "n": 5}');
    const c = storableCopy(v) as Record<string, unknown>;
    expect(c).toEqual({ a: "x\\u0000y", b: "\\udc00", "[__proto__]": 1, n: 5 });
    expect(inspectJson(c)).toEqual([]);
    expect(JSON.stringify(storableCopy(deep(100)))).toContain("not stored");
    expect(storableCopy(["a\u0000", 1, ["\ud800"]])).toEqual(["a\\u0000", 1, ["\\ud800"]]);
  });
});

describe("urlProblem", () => {
  it("refuses bad percent-encoding, control characters and NUL, overlong names", () => {
    expect(urlProblem("/api/tools/%ff%fe", "")).toMatch(/percent-encoding/);
    expect(urlProblem("/api/tools/add%00", "")).toMatch(/control character/);
    expect(urlProblem("/api/runs", "?tool=a%00b")).toMatch(/U\+0000/);
    expect(urlProblem("/api/runs", "?q=%E0%A4%A")).toMatch(/percent-encoding/);
    expect(urlProblem(`/api/servers/${"a".repeat(501)}`, "")).toMatch(/longer than 500/);
    expect(urlProblem("/api/tools/add", "?q=caf%C3%A9&x=1+2")).toBeNull();
    expect(urlProblem("/tools/%F0%9F%98%80", "")).toBeNull();
  });
});
