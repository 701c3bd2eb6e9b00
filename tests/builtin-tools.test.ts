import { describe, expect, it } from "vitest";
import { Registry } from "@/lib/registry/registry";
import { builtinSource, builtinTools } from "@/lib/builtin-tools";
import { strictAjv } from "@/tests/helpers/builtin-tools";

describe("builtin tools", () => {
  it("are served by the builtin source", async () => {
    expect(builtinSource.id).toBe("builtin");
    const registry = new Registry();
    registry.addSource(builtinSource);
    const { tools, collisions } = await registry.snapshot();
    expect(collisions).toEqual([]);
    expect(tools.map((t) => t.spec.name).sort()).toEqual(["add", "chart_png", "create_event", "fail", "json_query", "slow_count"].sort());
    expect((await registry.get("add"))?.spec.title).toBe("Add two integers");
  });

  it.each(builtinTools.map((t) => [t.spec.name, t] as const))("%s has a complete spec with valid schemas", (_name, tool) => {
    const { spec } = tool;
    expect(spec.source).toEqual({ kind: "builtin", id: "builtin" });
    expect(spec.title?.length).toBeGreaterThan(3);
    expect(spec.description?.length).toBeGreaterThan(40);
    expect(spec.timeoutMs).toBeGreaterThan(0);
    expect(spec.inputSchema.type).toBe("object");
    const ajv = strictAjv();
    expect(() => ajv.compile(spec.inputSchema)).not.toThrow();
    if (spec.outputSchema) expect(() => ajv.compile(spec.outputSchema!)).not.toThrow();
  });
});
