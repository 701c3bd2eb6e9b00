import { afterAll, beforeAll, expect, it } from "vitest";
import { executionFixture, type ExecutionFixture } from "@/tests/helpers/execution";
import { RuntimeConfigSchema } from "../config/schema";
import { defineTool } from "../tools/define";
import { structured } from "../tools/output";
import { enqueueTool } from "./enqueue";

const add = defineTool({
  name: "add",
  description: "adds",
  inputSchema: { type: "object", properties: { a: { type: "number" } }, required: ["a"] } as const,
  run: async ({ a }) => structured({ a }),
});
let f: ExecutionFixture;
beforeAll(async () => {
  f = await executionFixture([add], { queue: true });
});
afterAll(() => f?.close());

const jobsOf = async (runId: string) =>
  (await f.db.sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'tool-runs' AND data->>'runId' = $1`, [runId]))[0]!.n;

it("stores the run queued with its job, in one transaction, at the priority the policy gives", async () => {
  const deps = { ...f.deps, queue: f.queue!, queuePolicy: () => RuntimeConfigSchema.parse({ queuePolicy: [{ tool: "add", priority: 7 }] }).queuePolicy };
  const run = await enqueueTool(deps, { tool: "add", arguments: { a: 1 }, origin: "api", actor: "ada" });
  expect(run).toMatchObject({ status: "queued", priority: 7 });
  expect(run.queuedAt).toBe(run.startedAt);
  expect(await f.runs.get(run.id)).toEqual(run);
  expect(await jobsOf(run.id)).toBe(1);
  // The caller's own priority wins over the policy's.
  expect(await enqueueTool(deps, { tool: "add", arguments: { a: 1 }, origin: "api", actor: "ada", priority: -2 })).toMatchObject({ priority: -2 });
});

it("a refused call is rejected at once and never queued; a job that cannot be sent leaves no queued run", async () => {
  const rejected = await enqueueTool({ ...f.deps, queue: f.queue! }, { tool: "add", arguments: { a: "x" }, origin: "api", actor: "ada" });
  expect(rejected).toMatchObject({ status: "rejected", error: { kind: "invalid_args" } });
  expect(await jobsOf(rejected.id)).toBe(0);
  const broken = {
    send: async () => {
      throw new Error("queue down");
    },
  };
  const before = (await f.runs.list({ status: "queued" })).runs.length;
  await expect(enqueueTool({ ...f.deps, queue: broken }, { tool: "add", arguments: { a: 2 }, origin: "api", actor: "ada" })).rejects.toThrow("queue down");
  expect((await f.runs.list({ status: "queued" })).runs).toHaveLength(before);
});
