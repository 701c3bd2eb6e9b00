import { describe, expect, it } from "vitest";
import { inspectJson } from "../http/input";
import { MAX_TOOL_NAME, screenTools } from "./tools-list";

const def = (name: string) => ({ name, inputSchema: { type: "object" } });

describe("screenTools", () => {
  it("offers no tool whose name a run could not record or the API could not name", () => {
    const bad = ["x".repeat(MAX_TOOL_NAME + 1), "y".repeat(900_000), "a\u0000b", "\ud800", "tool\udfff"];
    const { accepted, excluded } = screenTools([def("ok"), def("z".repeat(MAX_TOOL_NAME)), ...bad.map(def)]);
    expect(accepted.map((t) => String(t.name).length)).toEqual([2, MAX_TOOL_NAME]);
    expect(excluded).toHaveLength(bad.length);
    for (const e of excluded) {
      expect(e.reason).toMatch(/its name (is longer than 200 characters|contains)/);
      // What is kept of the exclusion is short and storable.
      expect(e.tool.length).toBeLessThan(120);
      expect(inspectJson(e)).toEqual([]);
    }
  });
});
