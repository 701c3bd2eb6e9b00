import { describe, expect, it } from "vitest";
import { inlineParams } from "./sql";

describe("inlineParams", () => {
  it("writes each parameter as a literal, quotes and backslashes escaped", () => {
    expect(inlineParams("SELECT $1, $2::int, $3, $4, $5::jsonb", ["it's", 42, null, true, '{"a":"\\\\n"}'])).toBe(
      `SELECT 'it''s', 42::int, NULL, TRUE,  E'{"a":"\\\\\\\\n"}'::jsonb`,
    );
    expect(inlineParams("SELECT $1::bigint, $2::timestamptz", [7022629598041763687n, new Date("2026-12-02T00:00:00.000Z")])).toBe(
      "SELECT 7022629598041763687::bigint, '2026-12-02T00:00:00.000Z'::timestamptz",
    );
  });

  it("tells $1 from $10, and refuses a parameter it does not have or cannot write", () => {
    const ten = Array.from({ length: 10 }, (_, i) => i + 1);
    expect(inlineParams("$1 $10", ten)).toBe("1 10");
    expect(() => inlineParams("$2", ["a"])).toThrow(/names \$2 but has 1/);
    expect(() => inlineParams("$1", [{ a: 1 }])).toThrow(/cannot be sent as a literal/);
    expect(() => inlineParams("$1", [Number.NaN])).toThrow(/cannot be sent as a literal/);
    expect(() => inlineParams("$1", ["a\u0000'; DROP TABLE runs; --"])).toThrow(/U\+0000/);
  });
});
