import { describe, expect, it } from "vitest";
import { ToolError } from "@/lib/tools/errors";
import { addTool } from "@/lib/builtin-tools/add";
import { call, strictAjv } from "@/tests/helpers/builtin-tools";

describe("add", () => {
  it("adds two integers", async () => {
    const out = await call(addTool, { a: 2, b: 40 });
    expect(out.structuredContent).toEqual({ sum: 42 });
    expect(out.content[0]).toMatchObject({ type: "text" });
    expect(JSON.parse((out.content[0] as { text: string }).text)).toEqual({ sum: 42 });
  });

  it("handles negatives and zero", async () => {
    expect((await call(addTool, { a: -7, b: 3 })).structuredContent).toEqual({ sum: -4 });
    expect((await call(addTool, { a: 0, b: 0 })).structuredContent).toEqual({ sum: 0 });
  });

  it("accepts sums right at the safe limit", async () => {
    const out = await call(addTool, { a: Number.MAX_SAFE_INTEGER - 1, b: 1 });
    expect(out.structuredContent).toEqual({ sum: Number.MAX_SAFE_INTEGER });
  });

  it("refuses sums beyond Number.MAX_SAFE_INTEGER", async () => {
    const err = await call(addTool, { a: Number.MAX_SAFE_INTEGER, b: 1 }).catch((e) => e);
    expect(err).toBeInstanceOf(ToolError);
    expect(err.kind).toBe("invalid_args");
    const low = await call(addTool, { a: -Number.MAX_SAFE_INTEGER, b: -5 }).catch((e) => e);
    expect(low.kind).toBe("invalid_args");
  });

  it("refuses unsafe operands", async () => {
    const err = await call(addTool, { a: 2 ** 60, b: -(2 ** 60) }).catch((e) => e);
    expect(err.kind).toBe("invalid_args");
    expect(err.fields.map((f: { path: string }) => f.path)).toEqual(["/a", "/b"]);
  });

  it("declares its spec, and its output matches the output schema", async () => {
    expect(addTool.spec).toMatchObject({
      name: "add",
      title: "Add two integers",
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false, destructiveHint: false },
      outputSchema: { type: "object", properties: { sum: { type: "integer" } }, required: ["sum"] },
      source: { kind: "builtin", id: "builtin" },
    });
    const validate = strictAjv().compile(addTool.spec.outputSchema!);
    expect(validate((await call(addTool, { a: 1, b: 2 })).structuredContent)).toBe(true);
  });

  it("input schema rejects non-integers", () => {
    const validate = strictAjv().compile(addTool.spec.inputSchema);
    expect(validate({ a: 1.5, b: 2 })).toBe(false);
    expect(validate({ a: 1 })).toBe(false);
  });
});
