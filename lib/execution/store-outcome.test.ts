import { afterAll, beforeAll, expect, it } from "vitest";
import { executionFixture, runStart, type ExecutionFixture } from "@/tests/helpers/execution";
import { finishOrRecordFailure } from "./store-outcome";

let f: ExecutionFixture;
beforeAll(async () => {
  f = await executionFixture([]);
});
afterAll(() => f?.close());

const startOf = () => runStart();

it("an outcome the database refuses is replaced by an error saying so: the run is never left running", async () => {
  const start = startOf();
  await f.runs.start(start);
  // jsonb cannot hold U+0000.
  const run = await finishOrRecordFailure(f.runs, start, { status: "success", finishedAt: new Date(), structuredContent: { t: "a\u0000b" } });
  expect(run).toMatchObject({ status: "error", error: { kind: "provider", message: "The tool's result could not be stored." } });
  expect(await f.runs.get(start.id)).toMatchObject({ status: "error" });
  expect(await f.runs.getErrorDetail(start.id)).toMatch(/\\u0000|0x00|unsupported Unicode/);
  expect(await f.entriesOf(start.id)).toBe(1);
});

it("a run finished meanwhile by someone else keeps that outcome", async () => {
  const start = startOf();
  await f.runs.start(start);
  await f.runs.markInterrupted();
  const run = await finishOrRecordFailure(f.runs, start, { status: "success", finishedAt: new Date() });
  expect(run).toMatchObject({ status: "interrupted" });
  expect(await f.entriesOf(start.id)).toBe(1);
});

it("a start the database lost is written whole with its outcome", async () => {
  const start = startOf();
  const run = await finishOrRecordFailure(f.runs, start, { status: "success", finishedAt: new Date() });
  expect(run).toMatchObject({ id: start.id, status: "success", actor: "ada" });
  expect(await f.entriesOf(start.id)).toBe(1);
});
