import { afterAll, beforeAll, expect, it } from "vitest";
import { executionFixture, type ExecutionFixture } from "@/tests/helpers/execution";
import { defineTool } from "../tools/define";
import { structured } from "../tools/output";
import { prepare } from "./prepare";
import { UnknownToolError } from "./request";

const add = defineTool({
  name: "add",
  description: "adds",
  annotations: { destructiveHint: true },
  inputSchema: { type: "object", properties: { a: { type: "number" } }, required: ["a"] } as const,
  run: async ({ a }) => structured({ a }),
});
let f: ExecutionFixture;
const seen: string[] = [];
beforeAll(async () => {
  f = await executionFixture([add]);
  f.deps.observers = [{ name: "seen", onRunCaptured: (run) => void seen.push(run.id) }];
  f.deps.runPolicy = () => [{ tool: "add", role: "admin" }];
});
afterAll(() => f?.close());

const call = { tool: "add", arguments: { a: 1 }, origin: "api" as const, actor: "ada" };

it("an unknown tool is refused before anything is stored", async () => {
  await expect(prepare(f.deps, { ...call, tool: "nope" })).rejects.toSatisfy((e) => UnknownToolError.isInstance(e));
  expect((await f.runs.list()).runs).toHaveLength(0);
});

it("a refused call is captured rejected by the first check that refuses it, with its entry, and told to the observers", async () => {
  // The policy refuses before the arguments are looked at.
  const p = await prepare(f.deps, { ...call, arguments: { a: "x" }, role: "runner" });
  if (!("run" in p)) throw new Error("expected a rejected run");
  expect(p.run).toMatchObject({ status: "rejected", error: { kind: "permission_denied" }, arguments: { a: "x" } });
  expect(await f.runs.get(p.run.id)).toEqual(p.run);
  expect(await f.entriesOf(p.run.id)).toBe(1);
  expect(seen).toContain(p.run.id);
  const unconfirmed = await prepare(f.deps, { ...call, role: "admin", requireConfirmation: true });
  expect("run" in unconfirmed && unconfirmed.run.error?.kind).toBe("invalid_args");
});

it("a call that passes is prepared to start, unstored, with its key; a used key answers with its run", async () => {
  const p = await prepare(f.deps, { ...call, role: "admin", idempotencyKey: "k1", timeoutMs: 10 ** 9 });
  if ("run" in p) throw new Error("expected a call to start");
  expect(p.start).toMatchObject({ toolName: "add", idempotencyKey: "k1", actor: "ada" });
  expect(p.timeoutMs).toBe(10 * 60_000); // capped
  expect(await f.runs.get(p.start.id)).toBeNull();
  await f.runs.record(p.start, { status: "success", finishedAt: new Date() });
  const again = await prepare(f.deps, { ...call, role: "admin", idempotencyKey: "k1" });
  expect(again).toMatchObject({ run: { id: p.start.id, idempotentReplay: true } });
});
