import { describe, expect, it, vi } from "vitest";
import { PROCESS_SLOTS, processSlot } from "./slots";

describe("process slots", () => {
  it("hold one value per name for the whole process, even for another copy of the module (Next loads lib/ twice)", async () => {
    const mine = processSlot<{ n: number }>("instanceId");
    const before = mine.get();
    try {
      mine.set(undefined);
      const made = mine.use(() => ({ n: 1 }));
      expect(mine.use(() => ({ n: 2 }))).toBe(made);
      vi.resetModules();
      const other = await import("./slots");
      expect(other.processSlot<{ n: number }>("instanceId").get()).toBe(made);
      mine.set(undefined);
      expect(other.processSlot("instanceId").get()).toBeUndefined();
    } finally {
      mine.set(before);
    }
  });

  it("name each slot with its owner", () => {
    for (const [name, owner] of Object.entries(PROCESS_SLOTS)) expect(owner, name).toMatch(/\(lib\/[a-z-]+\/[a-z-]+\.ts/);
  });
});
