import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CANCEL_CHANNEL, followCancels, requestCancel } from "@/lib/execution/cancel";
import { executeTool } from "@/lib/execution/execute";
import { PgNotifier } from "@/lib/db/notify";
import { RunStore, type RunStart } from "@/lib/runs/store";
import { createTestDatabase, type TestDatabase } from "./helpers/db";
import { gatedTool } from "./helpers/gated-tool";

// Cancel from any instance: the instance running a run follows NOTIFY studio_cancel; an instance
// that does not run it asks over NOTIFY and waits for the row. (Two processes end to end:
// e2e/scale-out.spec.ts.)
let db: TestDatabase;
let owner: PgNotifier;
let asker: PgNotifier;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

beforeAll(async () => {
  db = await createTestDatabase();
  owner = new PgNotifier(db.url);
  asker = new PgNotifier(db.url);
  await followCancels(owner);
});
afterAll(async () => {
  await owner?.close();
  await asker?.close();
  await db?.drop();
});

async function runningRun(store: RunStore): Promise<{ id: string; done: Promise<unknown> }> {
  const { registry } = gatedTool("gate");
  let id = "";
  const done = executeTool({ registry, runs: store }, { tool: "gate", arguments: {}, origin: "api", actor: "t@example.com", onStart: (runId) => (id = runId) });
  while (!id) await sleep(5);
  return { id, done };
}

describe("cancel across instances", () => {
  it("a cancel sent on the channel reaches the run in this process and stores it cancelled", async () => {
    const store = new RunStore(db.prisma);
    const { id, done } = await runningRun(store);
    await asker.notify(CANCEL_CHANNEL, id);
    await expect(done).resolves.toMatchObject({ id, status: "cancelled", error: { kind: "cancelled" } });
  });

  it("requestCancel: cancels a run of this process at once; says finished, not found, or asked when the owner stays silent", async () => {
    const store = new RunStore(db.prisma);
    const { id, done } = await runningRun(store);
    expect(await requestCancel({ runs: store, notifier: asker }, id)).toEqual({ kind: "cancelled", status: "cancelled" });
    await done;
    expect(await requestCancel({ runs: store, notifier: asker }, id)).toEqual({ kind: "finished", status: "cancelled" });
    expect(await requestCancel({ runs: store, notifier: asker }, crypto.randomUUID())).toEqual({ kind: "not_found" });

    // A run row `running` whose owner is gone (nobody follows the channel for it): asked, not cancelled.
    const orphan: RunStart = {
      id: crypto.randomUUID(),
      toolName: "gate",
      toolSource: "builtin",
      toolSpecHash: "h",
      arguments: {},
      startedAt: new Date(),
      actor: "t@example.com",
      origin: "api",
    };
    await store.start(orphan);
    expect(await requestCancel({ runs: store, notifier: asker, waitMs: 200, pollMs: 20 }, orphan.id)).toEqual({ kind: "requested" });
    // Without a notifier (PGlite: one process) a run that is not here is not in flight anywhere.
    expect(await requestCancel({ runs: store }, orphan.id)).toEqual({ kind: "finished", status: "running" });
  });
});

describe("who may cancel a run", () => {
  // Issue 37: any runner cancelled anyone's run, while only the run's caller or an admin may answer its input.
  it("another runner is refused (403 naming why) and the run goes on; its caller and an admin may cancel it", async () => {
    const store = new RunStore(db.prisma);
    const start = async (actor: string, actorId: string | null) => {
      const { registry, release } = gatedTool("gate");
      let id = "";
      const done = executeTool({ registry, runs: store }, { tool: "gate", arguments: {}, origin: "api", actor, actorId, onStart: (runId) => (id = runId) });
      while (!id) await sleep(5);
      return { id, done, release };
    };
    const rita = { actor: "rita@example.com", userId: "u-rita", role: "runner" };
    const mallory = { actor: "mallory@example.com", userId: "u-mallory", role: "runner" };
    const admin = { actor: "admin@example.com", userId: "u-admin", role: "admin" };

    const a = await start(rita.actor, rita.userId);
    const refused = await requestCancel({ runs: store, notifier: asker }, a.id, mallory);
    expect(refused).toEqual({ kind: "forbidden", message: `Only the caller of run ${a.id} (rita@example.com) or an admin may cancel it.` });
    // Not cancelled: it finishes when released.
    a.release();
    await expect(a.done).resolves.toMatchObject({ id: a.id, status: "success" });

    const b = await start(rita.actor, rita.userId);
    expect(await requestCancel({ runs: store, notifier: asker }, b.id, rita)).toEqual({ kind: "cancelled", status: "cancelled" });
    await expect(b.done).resolves.toMatchObject({ status: "cancelled" });

    const c = await start(rita.actor, rita.userId);
    expect(await requestCancel({ runs: store, notifier: asker }, c.id, admin)).toEqual({ kind: "cancelled", status: "cancelled" });
    await expect(c.done).resolves.toMatchObject({ status: "cancelled" });

    // A caller without a user (an environment token) is matched by its actor name.
    const d = await start("token:STUDIO_MCP_TOKEN", null);
    expect((await requestCancel({ runs: store, notifier: asker }, d.id, mallory)).kind).toBe("forbidden");
    expect(await requestCancel({ runs: store, notifier: asker }, d.id, { actor: "token:STUDIO_MCP_TOKEN", userId: null, role: "runner" })).toEqual({
      kind: "cancelled",
      status: "cancelled",
    });
    await d.done;
    expect(await requestCancel({ runs: store, notifier: asker }, crypto.randomUUID(), mallory)).toEqual({ kind: "not_found" });
  });
});
