import { describe, expect, it } from "vitest";
import type { ToolSpec } from "../tools/spec";
import { MAX_LISTED_CHOICES, withDomainChoices } from "./domains";

const spec = (inputSchema: Record<string, unknown>): ToolSpec => ({ name: "t", inputSchema, source: { kind: "builtin" } }) as ToolSpec;
const opts = (...values: string[]) => values.map((value) => ({ value }));

describe("withDomainChoices", () => {
  it("reaches array items (`recipients/*/target`) and parameters that take several values, without changing the spec", () => {
    const s = spec({
      type: "object",
      properties: {
        recipients: { type: "array", items: { type: "object", properties: { target: { type: "string" } } } },
        tags: { type: "array", items: { type: "string" } },
      },
    });
    const before = JSON.stringify(s.inputSchema);
    const out = withDomainChoices(s, [
      { path: "recipients/*/target", options: opts("a", "b") },
      {
        path: "tags",
        options: [
          { value: "x", label: "Ex" },
          { value: "y", disabled: true },
        ],
      },
    ]) as { properties: { recipients: { items: { properties: { target: unknown } } }; tags: { items: unknown } } };
    expect(out.properties.recipients.items.properties.target).toEqual({ type: "string", enum: ["a", "b"] });
    expect(out.properties.tags.items).toEqual({ type: "string", oneOf: [{ const: "x", title: "Ex" }] });
    expect(JSON.stringify(s.inputSchema)).toBe(before);
  });

  it("leaves a parameter as declared when it is constrained already, not a string, not a plain property, or has too many or no choices", () => {
    const s = spec({
      type: "object",
      properties: {
        fixed: { type: "string", enum: ["z"] },
        n: { type: "number" },
        ref: { $ref: "#/$defs/x" },
        many: { type: "string" },
        none: { type: "string" },
      },
    });
    const many = Array.from({ length: MAX_LISTED_CHOICES + 1 }, (_, i) => `v${i}`);
    const out = withDomainChoices(s, [
      { path: "fixed", options: opts("a") },
      { path: "n", options: opts("1") },
      { path: "ref", options: opts("a") },
      { path: "missing/deeper", options: opts("a") },
      { path: "many", options: opts(...many) },
      { path: "none", options: [] },
    ]);
    expect(out).toEqual(s.inputSchema);
  });
});
