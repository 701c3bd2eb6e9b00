import { afterAll, beforeAll, expect, it } from "vitest";
import { executionFixture, type ExecutionFixture } from "@/tests/helpers/execution";
import { RunQueue } from "../queue/run-queue";
import { defineTool } from "../tools/define";
import { structured } from "../tools/output";
import { runQueued } from "./claim";
import { RunWaiter } from "./delegate";
import { executeTool } from "./run-now";

// A process that cannot call a tool (its MCP connections are a worker's) queues the run and
// waits; a worker (its own queue instance, as another process would have) claims and runs it.
const remote = defineTool({
  name: "remote",
  description: "called by the worker only",
  inputSchema: { type: "object", properties: { n: { type: "number" } } } as const,
  run: async ({ n }, ctx) => {
    ctx.progress({ progress: 1 });
    await new Promise((r) => setTimeout(r, 300));
    return structured({ n });
  },
});
let f: ExecutionFixture;
let worker: RunQueue;
beforeAll(async () => {
  f = await executionFixture([remote], { queue: true });
  worker = RunQueue.create({ kind: "pg", url: f.db.url }, { maxRunMs: 60_000, instanceName: "worker" });
  await worker.start();
  await worker.work(async (id, signal) => void (await runQueued(f.deps, id, { signal })), { concurrency: 2 });
});
afterAll(async () => {
  await worker?.stop(5000);
  await f?.close();
});

it("a run whose tool another process holds is queued, waited for, and answered with the worker's outcome", async () => {
  const waiter = new RunWaiter({ runs: f.runs, notifier: null, cancel: async () => null, dropJob: (id) => f.queue!.cancel(id) });
  const deps = { ...f.deps, delegate: { wanted: () => true, queue: f.queue!, wait: waiter.wait.bind(waiter) } };
  let started: string | null = null;
  const progress: number[] = [];
  const run = await executeTool(deps, {
    tool: "remote",
    arguments: { n: 4 },
    origin: "api",
    actor: "ada",
    onStart: (id) => (started = id),
    onProgress: (p) => progress.push(p.progress),
  });
  expect(run).toMatchObject({ id: started, status: "success", output: { structuredContent: { n: 4 } } });
  // The worker's progress reached the waiting caller through the run's row.
  expect(progress).toContain(1);
  expect(await f.entriesOf(run.id)).toBe(1);
});
