import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AuditLog } from "@/lib/audit/log";
import { runAudit } from "@/lib/audit/observer";
import { enqueueTool, executeTool, type ExecuteDeps } from "@/lib/execution/execute";
import { IDEMPOTENCY_KEEP_MS, idempotencyKeyProblem } from "@/lib/execution/idempotency";
import { toErrorResponse } from "@/lib/http/http";
import { Registry } from "@/lib/registry/registry";
import { RunStore } from "@/lib/runs/store";
import { defineTool } from "@/lib/tools/define";
import { structured } from "@/lib/tools/output";
import { createTestDatabase, type TestDatabase } from "./helpers/db";

// Idempotency-Key (issue 37 item 7): a retry with the same key and caller gets the first run,
// finished or in flight, and the tool runs once, also when the retries race each other. Real
// PostgreSQL (the unique index decides races), a tool that counts its own invocations.

let db: TestDatabase;
let deps: ExecuteDeps;
const invoked = new Map<string, number>();
let gate: Promise<void> = Promise.resolve();

const counted = defineTool({
  name: "counted",
  description: "counts how often it ran for each tag",
  inputSchema: { type: "object", properties: { tag: { type: "string" } }, required: ["tag"], additionalProperties: false } as const,
  async run({ tag }) {
    invoked.set(tag, (invoked.get(tag) ?? 0) + 1);
    await gate;
    return structured({ tag, n: invoked.get(tag) });
  },
});

beforeAll(async () => {
  db = await createTestDatabase();
  const registry = new Registry();
  registry.addSource({ id: "builtin", list: () => [counted] });
  deps = { registry, runs: new RunStore(db.prisma, { audit: runAudit(new AuditLog(db.prisma)) }) };
});
afterAll(() => db?.drop());

const call = (tag: string, key: string | undefined, actor = "ada@example.com", args: Record<string, unknown> = { tag }) =>
  executeTool(deps, { tool: "counted", arguments: args, origin: "api", actor, ...(key ? { idempotencyKey: key } : {}) });

describe("Idempotency-Key", () => {
  it("a retry with the same key gets the first run back, marked as such; the tool ran once", async () => {
    const first = await call("seq", "key-seq");
    const again = await call("seq", "key-seq");
    expect(first.status).toBe("success");
    expect(first.idempotentReplay).toBeUndefined();
    expect(again).toMatchObject({ id: first.id, status: "success", idempotentReplay: true, idempotencyKey: "key-seq" });
    expect(invoked.get("seq")).toBe(1);
    expect(await db.prisma.run.count({ where: { idempotencyKey: "key-seq" } })).toBe(1);
  });

  it("ten concurrent calls with one key run the tool once; those that lost the race get the run in flight or finished", async () => {
    let open!: () => void;
    gate = new Promise((r) => (open = r));
    const calls = Array.from({ length: 10 }, () => call("race", "key-race"));
    // The winner's tool waits at the gate, so whichever call answers first lost the race: it gets the run in flight.
    const firstAnswer = await Promise.any(calls);
    expect(firstAnswer).toMatchObject({ status: "running", idempotentReplay: true });
    open();
    const runs = await Promise.all(calls);
    gate = Promise.resolve();
    expect(new Set(runs.map((r) => r.id)).size).toBe(1);
    expect(invoked.get("race")).toBe(1);
    expect(runs.filter((r) => !r.idempotentReplay)).toHaveLength(1);
    expect(await db.prisma.run.count({ where: { toolName: "counted", arguments: { equals: { tag: "race" } } } })).toBe(1);
  });

  it("the same key for other arguments is a 409 conflict naming the first run; nothing runs", async () => {
    const first = await call("a", "key-args");
    const err = await call("b", "key-args", "ada@example.com", { tag: "b" }).catch((e: unknown) => e);
    const res = toErrorResponse(err);
    expect(res.status).toBe(409);
    expect((await res.json()).error).toMatchObject({ kind: "conflict", message: expect.stringContaining(first.id) });
    expect(invoked.get("b")).toBeUndefined();
  });

  it("keys are per caller: another actor's same key is another run", async () => {
    const mine = await call("shared", "key-shared", "ada@example.com");
    const theirs = await call("shared", "key-shared", "bob@example.com");
    expect(theirs.id).not.toBe(mine.id);
    expect(invoked.get("shared")).toBe(2);
  });

  it("a key older than the keep time starts a new run (the old run keeps its record, without the key)", async () => {
    const old = await call("old", "key-old");
    const past = new Date(Date.now() - IDEMPOTENCY_KEEP_MS - 60_000);
    await db.prisma.run.update({ where: { id: old.id }, data: { startedAt: past } });
    const fresh = await call("old", "key-old");
    expect(fresh.id).not.toBe(old.id);
    expect(fresh.idempotentReplay).toBeUndefined();
    expect(invoked.get("old")).toBe(2);
    expect((await db.prisma.run.findUnique({ where: { id: old.id } }))?.idempotencyKey).toBeNull();
  });

  it("a refused call does not take the key: its corrected retry runs", async () => {
    const refused = await call("fix", "key-fix", "ada@example.com", { tag: 7 });
    expect(refused.status).toBe("rejected");
    const fixed = await call("fix", "key-fix");
    expect(fixed).toMatchObject({ status: "success" });
    expect(fixed.id).not.toBe(refused.id);
  });

  it("a queued call (mode async) with a key is queued once", async () => {
    const queue = { send: async () => {} };
    const first = await enqueueTool(
      { ...deps, queue },
      { tool: "counted", arguments: { tag: "q" }, origin: "api", actor: "ada@example.com", idempotencyKey: "key-queued" },
    );
    const again = await enqueueTool(
      { ...deps, queue },
      { tool: "counted", arguments: { tag: "q" }, origin: "api", actor: "ada@example.com", idempotencyKey: "key-queued" },
    );
    expect(first.status).toBe("queued");
    expect(again).toMatchObject({ id: first.id, status: "queued", idempotentReplay: true });
  });

  it("keys are bounded and visible ASCII", () => {
    expect(idempotencyKeyProblem("0b7f2c1e-8d7e-4f52-9a57-1a2b3c4d5e6f")).toBeNull();
    expect(idempotencyKeyProblem("")).toMatch(/empty/);
    expect(idempotencyKeyProblem("x".repeat(256))).toMatch(/at most 255/);
    expect(idempotencyKeyProblem("with space")).toMatch(/visible ASCII/);
    expect(idempotencyKeyProblem("nul\u0000")).toMatch(/visible ASCII/);
  });
});
