import { describe, expect, it } from "vitest";
import { ClientTaskStore } from "./client-tasks";

const never = (signal: AbortSignal) =>
  new Promise<unknown>((_, reject) => signal.addEventListener("abort", () => reject(new Error("aborted")), { once: true }));

describe("ClientTaskStore", () => {
  it("runs the work: completed with its result (with the related-task _meta), or failed with its error code and message", async () => {
    const store = new ClientTaskStore();
    const ok = store.create("elicitation/create", 5_000, () => Promise.resolve({ action: "accept", content: { a: 1 }, _meta: { x: 1 } }), "waiting");
    expect(ok.task).toMatchObject({ status: "input_required", statusMessage: "waiting", ttl: 5_000, pollInterval: 1_000 });
    expect(await store.result(ok.task.taskId)).toEqual({
      action: "accept",
      content: { a: 1 },
      _meta: { x: 1, "io.modelcontextprotocol/related-task": { taskId: ok.task.taskId } },
    });
    expect(store.get(ok.task.taskId)).toMatchObject({ status: "completed" });
    expect(store.get(ok.task.taskId).statusMessage).toBeUndefined();

    const bad = store.create(
      "sampling/createMessage",
      undefined,
      () => Promise.reject(Object.assign(new Error("the user rejected the request"), { code: -1 })),
      "waiting",
    );
    expect(bad.task.ttl).toBe(600_000);
    await expect(store.result(bad.task.taskId)).rejects.toMatchObject({ code: -1, message: expect.stringContaining("the user rejected the request") });
    expect(store.get(bad.task.taskId)).toMatchObject({ status: "failed", statusMessage: expect.stringContaining("rejected") });
    store.clear();
  });

  it("caps the ttl, forgets a task after it (cancelling live work), and refuses more than maxTasks", async () => {
    const store = new ClientTaskStore({ maxTasks: 2, maxTtlMs: 50 });
    let aborted: AbortSignal | undefined;
    const a = store.create("elicitation/create", 10 ** 9, (s) => ((aborted = s), never(s)), "w");
    expect(a.task.ttl).toBe(50);
    store.create("elicitation/create", 50, never, "w");
    expect(() => store.create("elicitation/create", 50, never, "w")).toThrow(/at most 2 tasks/);
    await new Promise((r) => setTimeout(r, 120));
    expect(store.size).toBe(0);
    expect(aborted?.aborted).toBe(true);
    expect(() => store.get(a.task.taskId)).toThrow(/Unknown task/);
    await expect(store.result(a.task.taskId)).rejects.toThrow(/Unknown task/);
    expect(() => store.cancel(a.task.taskId)).toThrow(/Unknown task/);
    expect(() => store.get(42)).toThrow(/Unknown task/);
  });

  it("lists 50 a page with the last id as the cursor; a stale cursor is refused", () => {
    const store = new ClientTaskStore({ maxTasks: 200 });
    const ids = Array.from({ length: 120 }, () => store.create("elicitation/create", 60_000, never, "w").task.taskId);
    const p1 = store.list(undefined);
    expect(p1.tasks.map((t) => t.taskId)).toEqual(ids.slice(0, 50));
    const p2 = store.list(p1.nextCursor);
    expect(p2.tasks.map((t) => t.taskId)).toEqual(ids.slice(50, 100));
    const p3 = store.list(p2.nextCursor);
    expect(p3.tasks.map((t) => t.taskId)).toEqual(ids.slice(100));
    expect(p3.nextCursor).toBeUndefined();
    expect(() => store.list("gone")).toThrow(/Invalid cursor/);
    store.clear();
    expect(store.size).toBe(0);
  });

  it("cancel ends a live task once; its work's signal aborts", async () => {
    const store = new ClientTaskStore();
    let signal: AbortSignal | undefined;
    const t = store.create("elicitation/create", 60_000, (s) => ((signal = s), never(s)), "w");
    await Promise.resolve();
    expect(store.cancel(t.task.taskId)).toMatchObject({ status: "cancelled" });
    expect(signal?.aborted).toBe(true);
    expect(() => store.cancel(t.task.taskId)).toThrow(/already ended/);
    await expect(store.result(t.task.taskId)).rejects.toThrow("aborted");
    expect(store.get(t.task.taskId).status).toBe("cancelled");
    store.clear();
  });
});
