import { describe, expect, it } from "vitest";
import { GroupCommit } from "./group-commit";

/** A writer that records its batches and fails any batch holding a unit named "bad". */
function recorder() {
  const batches: string[][] = [];
  let release: (() => void) | null = null;
  const write = async (batch: string[]) => {
    batches.push([...batch]);
    if (batch.includes("hold")) await new Promise<void>((r) => (release = r));
    if (batch.includes("bad")) throw new Error("refused");
    return batch.map((u) => `${u}!`);
  };
  return { batches, write, release: () => release?.() };
}

describe("GroupCommit", () => {
  it("writes the units of one moment as one batch, in order, each caller getting its own result", async () => {
    const r = recorder();
    const gc = new GroupCommit<string>(r.write, { max: 10, alone: () => true, name: "t" });
    expect(await Promise.all(["a", "b", "c"].map((u) => gc.submit(u)))).toEqual(["a!", "b!", "c!"]);
    expect(r.batches).toEqual([["a", "b", "c"]]);
  });

  it("units sent while a batch is written wait for the next one; no batch is larger than max", async () => {
    const r = recorder();
    const gc = new GroupCommit<string>(r.write, { max: 2, alone: () => true, name: "t" });
    const first = gc.submit("hold");
    await new Promise((res) => setTimeout(res, 0));
    const later = ["x", "y", "z"].map((u) => gc.submit(u));
    r.release();
    expect(await Promise.all([first, ...later])).toEqual(["hold!", "x!", "y!", "z!"]);
    expect(r.batches).toEqual([["hold"], ["x", "y"], ["z"]]);
  });

  it("a failed batch is retried unit by unit for those that may be; the others share its error", async () => {
    const r = recorder();
    const gc = new GroupCommit<string>(r.write, { max: 10, alone: (u) => u !== "plain", name: "t" });
    const results = await Promise.allSettled(["a", "bad", "plain", "b"].map((u) => gc.submit(u)));
    expect(results.map((x) => (x.status === "fulfilled" ? x.value : (x.reason as Error).message))).toEqual(["a!", "refused", "refused", "b!"]);
    expect(r.batches).toEqual([["a", "bad", "plain", "b"], ["a"], ["bad"], ["b"]]);
  });

  it("a lone unit that fails is not retried", async () => {
    const r = recorder();
    const gc = new GroupCommit<string>(r.write, { max: 10, alone: () => true, name: "t" });
    await expect(gc.submit("bad")).rejects.toThrow("refused");
    expect(r.batches).toEqual([["bad"]]);
    expect(await gc.submit("ok")).toBe("ok!");
  });
});
