import { RE2JS } from "re2js";
import { describe, expect, it } from "vitest";
import { SchemaCompileError } from "./errors";
import { SCHEMA_LIMITS } from "./limits";
import { JS_WHITESPACE, linearRegExp, translatePattern, withPatternBudget } from "./regexp";

const re2 = (pattern: string) => RE2JS.compile(translatePattern(pattern).source);

/** Each pattern must give, on each input, what JavaScript's RegExp (with "u", as Ajv uses it) gives. */
const PARITY: [string, string[]][] = [
  // anchors, classes, quantifiers
  ["^[a-z]+$", ["abc", "aBc", "", "abc\n"]],
  ["^\\d{3}-\\d{4}$", ["555-1234", "555-123", "٥٥٥-١٢٣٤"]],
  ["^\\w+$", ["abc_1", "é", "a b"]],
  ["\\bfoo\\b", ["a foo b", "afoo", "foo"]],
  ["\\Bfoo", ["afoo", "foo"]],
  ["^a{2,3}?$", ["aa", "aaa", "aaaa"]],
  ["^a{2,}$", ["aa", "a", "aaaaa"]],
  ["^a{2}$", ["aa", "aaa"]],
  ["^(ab)+?c*?d?$", ["ababccd", "abd", "d"]],
  ["^(?:x|y|)z$", ["xz", "z", "wz"]],
  ["^(?<year>\\d{4})-(?<month>\\d{2})$", ["2024-05", "24-05"]],
  ["a|", ["", "b"]],
  ["", ["", "x"]],
  ["^[^a]$", ["😀", "a", "b"]],
  ["^[a\\-z]$", ["-", "b", "a"]],
  ["^[[]$", ["["]],
  ["^\\$\\^\\.\\*\\+\\?\\(\\)\\[\\]\\{\\}\\|\\\\\\/$", ["$^.*+?()[]{}|\\/"]],
  // where RE2's syntax means something else than JavaScript's
  ["^\\s+$", [" \t\n\r\f\v", "\u00a0", "\ufeff", "\u2028", "\u3000", "\u180e", "a"]],
  ["^\\S+$", [" ", "a", "😀", "\u00a0"]],
  ["^[\\s\\d]+$", [" 1", "\u00a0", "a"]],
  ["^[\\S]+$", ["a😀", " ", "\u2000"]],
  ["^.$", ["a", "\n", "\r", "\u2028", "\u2029", "😀", "\ud800"]],
  ["^[^]$", ["a", "\n"]],
  ["^[]$", ["a", ""]],
  ["^a[]?b$", ["ab"]],
  ["^[\\b]$", ["\b", "b"]],
  ["^\\cJ\\ci$", ["\n\t"]],
  ["^\\0$", ["\0", "0"]],
  ["^\\x41\\t\\n\\v\\f\\r$", ["A\t\n\v\f\r"]],
  // Unicode
  ["^\\u00e9$", ["é", "e"]],
  ["^\\u{1F600}$", ["😀"]],
  ["^\\uD83D\\uDE00$", ["😀", "\ud83d"]],
  ["^\\uD83D$", ["\ud83d", "😀"]],
  ["^😀+$", ["😀😀", "😀a"]],
  ["^[😀-😂]$", ["😁", "a"]],
  ["^\\p{L}+$", ["abé", "a1", "日本"]],
  ["^\\p{Letter}+$", ["abé", "a1"]],
  ["^\\p{Lu}\\p{Ll}+$", ["Ab", "ab"]],
  ["^\\P{L}+$", ["12", "a"]],
  ["^[\\p{L}\\d]+$", ["a1", "a-"]],
  ["^\\p{gc=Nd}+$", ["12", "a"]],
  ["^\\p{General_Category=Decimal_Number}+$", ["12", "a"]],
  ["^\\p{Script=Greek}+$", ["αβ", "ab"]],
  ["^\\p{sc=Cyrillic}+$", ["дом", "ab"]],
  ["^\\P{Script=Latin}$", ["д", "a"]],
  ["^\\p{ASCII}+$", ["abc", "é"]],
  ["^\\P{ASCII}+$", ["é", "a"]],
  ["^[\\p{ASCII}]+$", ["abc", "é"]],
  ["^[\\P{ASCII}a]+$", ["éa", "b"]],
  ["^\\p{Any}$", ["x", "😀"]],
  ["^\\P{Any}$", ["x"]],
  ["^\\p{Assigned}$", ["x", "\u0378"]],
  ["^\\P{Assigned}$", ["x", "\u0378"]],
  ["^\\p{Cs}$", ["\ud800", "a"]],
];

describe("translatePattern", () => {
  it.each(PARITY)("%s means on RE2 what it means to JavaScript", (pattern, inputs) => {
    const ours = re2(pattern);
    const js = new RegExp(pattern, "u");
    for (const s of inputs) expect([s, ours.test(s)]).toEqual([s, js.test(s)]);
  });

  it("has JavaScript's \\s, code point by code point", () => {
    const ours = re2("^\\s$");
    const js = /^\s$/u;
    for (let cp = 0; cp <= 0xffff; cp++) {
      const s = String.fromCharCode(cp);
      if (ours.test(s) !== js.test(s)) expect.unreachable(`U+${cp.toString(16)}`);
    }
    expect(JS_WHITESPACE.length).toBeGreaterThan(0);
  });

  it("refuses what needs a backtracking engine or RE2 lacks", () => {
    expect(() => translatePattern("(a)\\1")).toThrow(/backreference \(\\1\)/);
    expect(() => translatePattern("(?<x>a)\\k<x>")).toThrow(/named backreference/);
    expect(() => translatePattern("a(?=b)")).toThrow(/lookahead/);
    expect(() => translatePattern("a(?!b)")).toThrow(/lookahead/);
    expect(() => translatePattern("(?<=a)b")).toThrow(/lookbehind/);
    expect(() => translatePattern("(?<!a)b")).toThrow(/lookbehind/);
    expect(() => translatePattern("(?i:a)")).toThrow(/inline modifier/);
    expect(() => translatePattern("a{1001}")).toThrow(/repeat count above 1000/);
    expect(() => translatePattern("\\p{Alphabetic}")).toThrow(/\\p\{Alphabetic\} is not supported/);
    expect(() => translatePattern("\\p{scx=Greek}")).toThrow(/\\p\{scx=Greek\}/);
  });

  it("estimates the size of repeats before RE2 builds them", () => {
    expect(translatePattern("^[a-z]+$").estimate).toBeLessThan(10);
    expect(translatePattern("(?:ab){1000}").estimate).toBeGreaterThan(2000);
    expect(translatePattern("(?:a{100}){100}").estimate).toBeGreaterThan(2 * SCHEMA_LIMITS.maxPatternProgram);
  });
});

describe("linearRegExp", () => {
  it("is an Ajv engine: test() and a toString() that tells patterns apart", () => {
    const a = linearRegExp("^a$", "u");
    expect(a.test("a")).toBe(true);
    expect(a.test("b")).toBe(false);
    expect(String(a)).toBe("/^a$/u");
    expect(String(linearRegExp("^b$", "u"))).not.toBe(String(a));
    expect(typeof linearRegExp.code).toBe("string");
  });

  it("finishes a catastrophic pattern at once", () => {
    expect(linearRegExp("^(a+)+$", "u").test(`${"a".repeat(40)}!`)).toBe(false);
    expect(linearRegExp("^(a|aa)+$", "u").test(`${"a".repeat(10_000)}!`)).toBe(false);
    expect(linearRegExp("^(a+)+$", "u").test("a".repeat(40))).toBe(true);
  });

  it("names the pattern and why it is refused", () => {
    const refused = (p: string) => {
      try {
        linearRegExp(p, "u");
      } catch (err) {
        expect(err).toBeInstanceOf(SchemaCompileError);
        return (err as Error).message;
      }
      return expect.unreachable(`${p} compiled`);
    };
    expect(refused("^(\\w+)\\s\\1$")).toMatch(
      /^Unsupported pattern "\^\(\\\\w\+\)\\\\s\\\\1\$": it uses a backreference \(\\1\), which needs a backtracking engine/,
    );
    expect(refused("(")).toBe('Invalid pattern "(": Unterminated group.');
    expect(refused("a{")).toBe('Invalid pattern "a{": Incomplete quantifier.'); // valid without "u", not with it
    expect(refused("\\p{sc=Grek}")).toMatch(/RE2\) cannot compile it/);
    expect(refused("[ab]{1000}".repeat(10))).toMatch(/more than 10000 instructions/); // by the estimate, before RE2 builds it
    expect(refused("[ab]{0,1000}".repeat(6))).toMatch(/more than 10000 instructions/); // by RE2's program size
    expect(refused("a".repeat(SCHEMA_LIMITS.maxPatternLength + 1))).toMatch(/10001 characters; the limit is 10000/);
    expect(refused(`${"x".repeat(200)}\\1`)).toContain(`"${"x".repeat(120)}…"`);
  });

  it("charges a compilation's budget, pattern by pattern", () => {
    expect(withPatternBudget(5000, () => linearRegExp("^a{0,1000}$", "u").test("aa"))).toBe(true);
    expect(() => withPatternBudget(3000, () => [linearRegExp("^a{0,1000}$", "u"), linearRegExp("^b{0,1000}$", "u")])).toThrow(
      /^Schema too complex: its patterns compile to more than 3,000 instructions in all\.$/,
    );
  });
});
