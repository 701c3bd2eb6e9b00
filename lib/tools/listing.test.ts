import { describe, expect, it } from "vitest";
import { encodeToolsCursor, listedTool, toolsPage } from "./listing";
import type { ToolSpec } from "./spec";

const tools = Array.from({ length: 7 }, (_, i) => ({ name: `t${i}` }));

describe("toolsPage", () => {
  it("pages through every tool once, in order", () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = toolsPage(tools, 3, cursor);
      seen.push(...page.tools.map((t) => t.name));
      cursor = page.nextCursor;
      pages++;
    } while (cursor);
    expect(seen).toEqual(tools.map((t) => t.name));
    expect(pages).toBe(3);
    expect(toolsPage(tools, 7, undefined)).toEqual({ tools });
  });

  it("refuses a cursor it did not give out, and one the list moved under", () => {
    expect(() => toolsPage(tools, 3, "not-a-cursor")).toThrow(/not a cursor/);
    expect(() => toolsPage(tools, 3, Buffer.from('[0,"t0"]').toString("base64url"))).toThrow(/not a cursor/);
    expect(() => toolsPage(tools, 3, Buffer.from('{"offset":3}').toString("base64url"))).toThrow(/not a cursor/);
    const next = toolsPage(tools, 3, undefined).nextCursor!;
    expect(() => toolsPage(tools.slice(1), 3, next)).toThrow(/stale/);
    expect(() => toolsPage(tools, 3, encodeToolsCursor(50, "t50"))).toThrow(/stale/);
  });
});

describe("listedTool", () => {
  it("leaves out the raw definition and nothing else", () => {
    const spec: ToolSpec = {
      name: "s__t",
      description: "d",
      inputSchema: { type: "object" },
      _meta: { a: 1 },
      source: { kind: "mcp", id: "mcp:s", server: "s" },
      raw: { name: "t" },
    };
    const { raw: _raw, ...rest } = spec;
    expect(listedTool(spec)).toEqual(rest);
  });
});
