import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Studio } from "@/lib/studio/studio";
import { bootStudio, type Handler, type InProcessStudio } from "./helpers/studio-in-process";

// Queued runs through the real route handlers and the studio as it boots (its own worker, on a
// PostgreSQL database): 202, the worker's outcome, cancel while queued; and who takes queued runs.
let booted: InProcessStudio;
let studio: Studio;
let RUN: Handler<{ name: string }>;
let CANCEL: Handler<{ id: string }>;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

beforeAll(async () => {
  booted = await bootStudio("studio-queue", { STUDIO_WORKER_CONCURRENCY: "1" });
  studio = booted.studio;
  ({ POST: RUN } = await import("@/app/api/tools/[name]/run/route"));
  ({ POST: CANCEL } = await import("@/app/api/runs/[id]/cancel/route"));
});

afterAll(() => booted?.close());

const post = <P>(handler: Handler<P>, url: string, params: P, body?: object) => booted.call(handler, url, params, { method: "POST", body });

async function settle(id: string): Promise<string> {
  for (let i = 0; i < 300; i++) {
    const run = await studio.runs.get(id);
    if (run && run.status !== "queued" && run.status !== "running") return run.status;
    await sleep(50);
  }
  return (await studio.runs.get(id))?.status ?? "missing";
}

describe("queued runs through the studio", () => {
  it("202 with the queued run; the studio's worker runs it; a run waiting behind a slow one is cancelled where it waits", async () => {
    const res = await post(RUN, "/api/tools/add/run", { name: "add" }, { arguments: { a: 1, b: 2 }, mode: "async" });
    expect(res.status).toBe(202);
    const { run } = (await res.json()) as { run: { id: string; status: string } };
    expect(run.status).toBe("queued");
    expect(res.headers.get("location")).toBe(`/api/runs/${run.id}`);
    expect(await settle(run.id)).toBe("success");

    // One run at a time (STUDIO_WORKER_CONCURRENCY=1): the second waits behind the first.
    const slow = await (await post(RUN, "/api/tools/slow_count/run", { name: "slow_count" }, { arguments: { steps: 40, delayMs: 100 }, mode: "async" })).json();
    const waiting = await (await post(RUN, "/api/tools/add/run", { name: "add" }, { arguments: { a: 3, b: 4 }, mode: "async" })).json();
    const cancel = await post(CANCEL, `/api/runs/${waiting.run.id}/cancel`, { id: waiting.run.id });
    expect(cancel.status).toBe(200);
    expect(await studio.runs.get(waiting.run.id)).toMatchObject({
      status: "cancelled",
      error: { kind: "cancelled", message: "Cancelled by the caller before it started." },
    });
    expect((await post(CANCEL, `/api/runs/${slow.run.id}/cancel`, { id: slow.run.id })).status).toBe(200);
    expect(await settle(slow.run.id)).toBe("cancelled");
  });
});

describe("workerWanted", () => {
  it("PGlite always runs its queued runs; on PostgreSQL STUDIO_WORKER=off (or 0, false, no) leaves them to workers; an explicit choice wins", async () => {
    const { workerWanted } = await import("@/lib/studio/studio");
    expect(workerWanted("pglite", {}, { STUDIO_WORKER: "off" })).toBe(true);
    expect(workerWanted("pg", {}, {})).toBe(true);
    for (const v of ["off", "0", "false", "NO"]) expect(workerWanted("pg", {}, { STUDIO_WORKER: v })).toBe(false);
    expect(workerWanted("pg", { worker: true }, { STUDIO_WORKER: "off" })).toBe(true);
    expect(workerWanted("pg", { worker: false }, {})).toBe(false);
  });
});
