import { describe, expect, it } from "vitest";
import { defineTool } from "../tools/define";
import { structured } from "../tools/output";
import { Registry } from "./registry";

const tool = (name: string) => defineTool({ name, description: name, inputSchema: { type: "object" } as const, run: async () => structured({ name }) });

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

  it("keeps its merged view while the sources list the same tools, and follows any change at once", async () => {
    const r = new Registry();
    const fixed = [tool("one"), tool("two")];
    let members = [tool("three")];
    let calls = 0;
    r.addSource({ id: "a", list: () => fixed });
    // A new array of the same members each time (as the MCP source lists): still the same view.
    r.addSource({ id: "b", list: () => (calls++, [...members]) });
    const first = await r.get("two");
    const again = await r.snapshot();
    expect(await r.get("two")).toBe(first);
    expect(again.tools.map((t) => t.spec.name)).toEqual(["one", "two", "three"]);
    expect(calls).toBe(3); // every call asks every source: nothing stale is served
    // The snapshot's arrays are the caller's: changing them changes nothing here.
    again.tools.length = 0;
    expect(await r.list()).toHaveLength(3);
    // A member replaced (a tool changed upstream) or removed: the next call sees it.
    const changed = tool("three");
    members = [changed];
    expect(await r.get("three")).toBe(changed);
    members = [];
    expect(await r.get("three")).toBeUndefined();
    expect((await r.list()).map((t) => t.name)).toEqual(["one", "two"]);
  });

  it("finds any of 5,000 tools of one source by name", async () => {
    const r = new Registry();
    const many = Array.from({ length: 5000 }, (_, i) => tool(`t${i}`));
    r.addSource({ id: "mcp", list: () => many.slice() });
    expect((await r.get("t4999"))?.spec.name).toBe("t4999");
    expect(await r.get("t0")).toBe(many[0]);
    expect(await r.list()).toHaveLength(5000);
  });

  it("hands out one frozen spec list until a source lists something else (a cache key for encoded lists)", async () => {
    const r = new Registry();
    let members = [tool("one"), tool("two")];
    r.addSource({ id: "a", list: () => [...members] });
    const specs = await r.specs();
    expect(Object.isFrozen(specs)).toBe(true);
    expect(specs.map((s) => s.name)).toEqual(["one", "two"]);
    expect(await r.specs()).toBe(specs);
    members = [members[0]!];
    const after = await r.specs();
    expect(after).not.toBe(specs);
    expect(after.map((s) => s.name)).toEqual(["one"]);
  });
});
