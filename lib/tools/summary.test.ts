import { describe, expect, it } from "vitest";
import type { ToolSpec } from "./spec";
import { SUMMARY_DESCRIPTION_CHARS, toolSummary } from "./summary";

const spec: ToolSpec = {
  name: "srv__search",
  title: "Search",
  description: "d".repeat(SUMMARY_DESCRIPTION_CHARS + 50),
  inputSchema: { type: "object", properties: { q: { type: "string" }, limit: { type: "integer" } } },
  outputSchema: { type: "object" },
  annotations: { readOnlyHint: true, title: "Search things" },
  icons: Array.from({ length: 6 }, (_, i) => ({ src: `https://example.com/${i}.png` })),
  _meta: { big: "x".repeat(10_000) },
  source: { kind: "mcp", id: "mcp:srv", server: "srv" },
  raw: { name: "search", inputSchema: {} },
  unavailable: "server down",
};

describe("toolSummary", () => {
  it("keeps what a card shows and drops schemas, _meta and the raw definition", () => {
    const s = toolSummary(spec);
    expect(s).toEqual({
      name: "srv__search",
      title: "Search",
      description: "d".repeat(SUMMARY_DESCRIPTION_CHARS),
      source: { id: "mcp:srv" },
      params: 2,
      outputSchema: true,
      annotations: { readOnlyHint: true, title: "Search things" },
      icons: spec.icons!.slice(0, 4),
      unavailable: "server down",
    });
    expect(JSON.stringify(s).length).toBeLessThan(JSON.stringify(spec).length / 5);
  });

  it("leaves out what the spec does not declare", () => {
    const s = toolSummary({ name: "t", inputSchema: { type: "object" }, source: spec.source });
    expect(s).toEqual({ name: "t", source: { id: "mcp:srv" }, params: 0, outputSchema: false });
  });

  it("is made once per spec object: a changed tool is a new spec, and gets its own", () => {
    expect(toolSummary(spec)).toBe(toolSummary(spec));
    const changed = { ...spec, description: "Changed." };
    expect(toolSummary(changed)).not.toBe(toolSummary(spec));
    expect(toolSummary(changed).description).toBe("Changed.");
  });
});
