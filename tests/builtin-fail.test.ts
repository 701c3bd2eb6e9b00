import { describe, expect, it } from "vitest";
import { ERROR_KINDS, ToolError, toToolError } from "@/lib/tools/errors";
import { DEFAULT_FAILURE_MESSAGES, failTool } from "@/lib/builtin-tools/fail";
import { call, strictAjv } from "@/tests/helpers/builtin-tools";

describe("fail", () => {
  it.each(ERROR_KINDS)("throws a ToolError of kind %s", async (kind) => {
    const err = await call(failTool, { kind }).catch((e) => e);
    expect(err).toBeInstanceOf(ToolError);
    expect(err.kind).toBe(kind);
    expect(err.message).toBe(DEFAULT_FAILURE_MESSAGES[kind]);
    expect(err.detail).toMatch(/Deliberate failure/);
    expect(toToolError(err)).toBe(err);
  });

  it("uses the given message", async () => {
    const err = await call(failTool, { kind: "rate_limited", message: "Slow down" }).catch((e) => e);
    expect(err.kind).toBe("rate_limited");
    expect(err.message).toBe("Slow down");
  });

  it("adds a field error for invalid_args", async () => {
    const err = await call(failTool, { kind: "invalid_args" }).catch((e) => e);
    expect(err.fields).toEqual([{ path: "/kind", message: expect.any(String) }]);
  });

  it("crashes with a plain Error that becomes kind other, its text operator-only", async () => {
    const err = await call(failTool, { kind: "not_found", mode: "crash", message: "secret internals" }).catch((e) => e);
    expect(err).toBeInstanceOf(Error);
    expect(err).not.toBeInstanceOf(ToolError);
    expect(err.message).toBe("secret internals");
    const converted = toToolError(err);
    expect(converted.kind).toBe("other");
    expect(converted.message).not.toMatch(/secret/);
    expect(converted.detail).toMatch(/secret internals/);
  });

  it("offers every error kind and both modes in its schema", () => {
    const props = failTool.spec.inputSchema.properties as Record<string, { enum: readonly string[] }>;
    expect(props.kind.enum).toEqual([...ERROR_KINDS]);
    expect(props.mode.enum).toEqual(["throw", "crash"]);
    expect(failTool.spec.annotations?.readOnlyHint).toBe(true);
    const validate = strictAjv().compile(failTool.spec.inputSchema);
    expect(validate({ kind: "nope" })).toBe(false);
    expect(validate({ kind: "network", mode: "explode" })).toBe(false);
  });
});
