import { describe, expect, it } from "vitest";
import { defineTool } from "../tools/define";
import { structured } from "../tools/output";
import { Registry } from "./registry";

const tool = (name: string) =>
  defineTool({ name, description: name, inputSchema: { type: "object" } as const, run: async () => structured({ name }) });

describe("Registry", () => {
  it("lists the tools of every source and finds them by name", async () => {
    const r = new Registry();
    r.addSource({ id: "a", list: () => [tool("one")] });
    let dynamic = [tool("two")];
    r.addSource({ id: "b", list: async () => dynamic });
    expect((await r.list()).map((t) => t.name)).toEqual(["one", "two"]);
    dynamic = [tool("three")];
    expect((await r.get("three"))?.spec.name).toBe("three");
    expect(await r.get("two")).toBeUndefined();
  });

  it("reports a name collision instead of dropping a tool silently", async () => {
    const r = new Registry();
    r.addSource({ id: "a", list: () => [tool("same")] });
    r.addSource({ id: "b", list: () => [{ ...tool("same"), spec: { ...tool("same").spec, source: { kind: "runtime", id: "runtime" } } }] });
    const snap = await r.snapshot();
    expect(snap.tools).toHaveLength(1);
    expect(snap.collisions).toEqual([{ name: "same", keptFrom: "builtin", droppedFrom: "runtime" }]);
  });

  it("refuses two sources with one id", () => {
    const r = new Registry();
    r.addSource({ id: "a", list: () => [] });
    expect(() => r.addSource({ id: "a", list: () => [] })).toThrow(/already registered/);
  });
});
