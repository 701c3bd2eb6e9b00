import { afterAll, beforeAll, expect, it } from "vitest";
import { executionFixture, type ExecutionFixture } from "@/tests/helpers/execution";
import { RuntimeConfigSchema } from "../config/schema";
import { defineTool } from "../tools/define";
import { ToolError } from "../tools/errors";
import { structured } from "../tools/output";
import { runQueued } from "./claim";
import { enqueueTool } from "./enqueue";

let calls = 0;
const flaky = defineTool({
  name: "flaky",
  description: "fails with a network error on its first call",
  inputSchema: { type: "object" } as const,
  run: async () => {
    if (calls++ === 0) throw new ToolError("network", "unreachable");
    return structured({ calls });
  },
});
let f: ExecutionFixture;
const tools = [flaky];
beforeAll(async () => {
  f = await executionFixture(tools, { queue: true });
});
afterAll(() => f?.close());

const deps = () => ({
  ...f.deps,
  queue: f.queue!,
  queuePolicy: () => RuntimeConfigSchema.parse({ queuePolicy: [{ tool: "flaky", retries: 1, retryDelayMs: 10, retryOn: ["network"] }] }).queuePolicy,
});
const enqueue = () => enqueueTool(deps(), { tool: "flaky", arguments: {}, origin: "api", actor: "ada" });

it("a worker claims a queued run once, runs it, and queues the retry the policy asks for with its end", async () => {
  const queued = await enqueue();
  const first = await runQueued(deps(), queued.id);
  if (!first || !("run" in first)) throw new Error("expected a run");
  expect(first.run).toMatchObject({ id: queued.id, status: "error", error: { kind: "network" } });
  expect(await f.entriesOf(queued.id)).toBe(1);
  // Claimed already: nothing left to do.
  expect(await runQueued(deps(), queued.id)).toBeNull();
  const retry = (await f.runs.list({ status: "queued" })).runs.find((r) => r.retryOf === queued.id);
  expect(retry).toMatchObject({ attempt: 2, tool: "flaky", status: "queued" });
  const second = await runQueued(deps(), retry!.id);
  expect(second && "run" in second && second.run).toMatchObject({ status: "success", attempt: 2, retryOf: queued.id });
});

it("a run ended while it waited is not run; a tool gone since it was queued ends the run not_found", async () => {
  const cancelled = await enqueue();
  await f.runs.endQueued(cancelled.id, { status: "cancelled", finishedAt: new Date(), error: { kind: "cancelled", message: "cancelled" } });
  expect(await runQueued(deps(), cancelled.id)).toBeNull();
  const orphan = await enqueue();
  tools.length = 0;
  const gone = await runQueued(deps(), orphan.id);
  tools.push(flaky);
  expect(gone && "run" in gone && gone.run).toMatchObject({ status: "error", error: { kind: "not_found" } });
});
