import { describe, expect, it } from "vitest";
import { ToolError } from "@/lib/tools/errors";
import { jsonQueryTool } from "@/lib/builtin-tools/json-query";
import { call, strictAjv, testContext } from "@/tests/helpers/builtin-tools";

const data = {
  orders: [
    { id: 1, customer: "ada", total: 120, items: [{ sku: "A", qty: 2 }] },
    {
      id: 2,
      customer: "bob",
      total: 35,
      items: [
        { sku: "B", qty: 1 },
        { sku: "C", qty: 4 },
      ],
    },
    { id: 3, customer: "ada", total: 80, items: [] },
  ],
};

const query = async (expression: string, d: unknown = data, ctx = testContext()) =>
  (await call(jsonQueryTool, d === undefined ? { expression } : { data: d, expression }, ctx)).structuredContent as {
    result: unknown;
    note?: string;
  };

describe("json_query", () => {
  it("selects, filters and aggregates", async () => {
    expect((await query("orders.id")).result).toEqual([1, 2, 3]);
    expect((await query("orders[total > 50].id")).result).toEqual([1, 3]);
    expect((await query("$sum(orders.total)")).result).toBe(235);
    expect((await query("orders.items.sku")).result).toEqual(["A", "B", "C"]);
    expect((await query("$count(orders[customer='ada'])")).result).toBe(2);
  });

  it("transforms into new shapes", async () => {
    expect((await query('orders.{"id": id, "n": $count(items)}')).result).toEqual([
      { id: 1, n: 1 },
      { id: 2, n: 2 },
      { id: 3, n: 0 },
    ]);
    expect((await query("orders{customer: $sum(total)}")).result).toEqual({ ada: 200, bob: 35 });
    expect((await query("$sort(orders, function($a, $b){ $a.total > $b.total }).id")).result).toEqual([2, 3, 1]);
  });

  it("returns plain JSON and the same value as text", async () => {
    const out = await call(jsonQueryTool, { data, expression: "orders[0]" });
    expect(out.structuredContent).toEqual({ result: data.orders[0] });
    expect(JSON.parse((out.content[0] as { text: string }).text)).toEqual(data.orders[0]);
    const validate = strictAjv().compile(jsonQueryTool.spec.outputSchema!);
    expect(validate(out.structuredContent)).toBe(true);
  });

  it("works on any JSON input, and without input", async () => {
    expect((await query("$[1]", [10, 20, 30])).result).toBe(20);
    expect((await query("$uppercase($)", "hi")).result).toBe("HI");
    expect((await query("1 + 2", undefined)).result).toBe(3);
  });

  it("maps an undefined result to null with a note", async () => {
    const out = await query("orders.nothing");
    expect(out.result).toBeNull();
    expect(out.note).toMatch(/matched nothing/);
  });

  it("reports syntax errors as invalid_args with the position", async () => {
    const err = await query("$sum(orders.total").catch((e) => e);
    expect(err).toBeInstanceOf(ToolError);
    expect(err.kind).toBe("invalid_args");
    expect(err.message).toMatch(/S0203/);
    expect(err.message).toMatch(/position 17/);
    expect(err.message).toMatch(/Expected "\)"/);
    expect(err.fields[0].path).toBe("/expression");
  });

  it("reports evaluation errors as invalid_args", async () => {
    const err = await query("orders[0].customer + 1").catch((e) => e);
    expect(err.kind).toBe("invalid_args");
    expect(err.message).toMatch(/T2001/);
    expect(err.message).toMatch(/must evaluate to a number/);
  });

  it("refuses a function as the result", async () => {
    const err = await query("$sum").catch((e) => e);
    expect(err.kind).toBe("invalid_args");
    expect(err.message).toMatch(/function/);
  });

  it("stops runaway recursion", async () => {
    const err = await query("( $f := function($n){ $n <= 0 ? 0 : 1 + $f($n - 1) }; $f(100000) )").catch((e) => e);
    expect(err).toBeInstanceOf(ToolError);
    expect(err.kind).toBe("invalid_args");
  });

  it("does not start when already cancelled", async () => {
    const ctx = testContext();
    ctx.controller.abort();
    const err = await query("1", undefined, ctx).catch((e) => e);
    expect(err.kind).toBe("cancelled");
  });

  it("stops a long evaluation promptly when the signal aborts, keeping a ToolError reason", async () => {
    const ctx = testContext();
    const started = Date.now();
    setTimeout(() => ctx.controller.abort(new ToolError("timeout", "Timed out after 50 ms")), 50);
    const err = await query("$sum([1..900000].($ * 2 + 1))", undefined, ctx).catch((e) => e);
    expect(err).toBeInstanceOf(ToolError);
    expect(err.kind).toBe("timeout");
    expect(err.message).toBe("Timed out after 50 ms");
    // Uninterrupted, this evaluation takes over a second.
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it("turns a plain abort into cancelled", async () => {
    const ctx = testContext();
    setTimeout(() => ctx.controller.abort(), 30);
    const err = await query("$sum([1..900000].($ * 2 + 1))", undefined, ctx).catch((e) => e);
    expect(err.kind).toBe("cancelled");
  });
});
