import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AuditLog, type AuditAction } from "@/lib/audit";
import { executeTool, type ExecuteDeps } from "@/lib/execution/execute";
import { diffSignatures, describeChange, parseChanges, signatureOf } from "@/lib/inference/revisions";
import { ShapeStore, type ShapeRevisionInfo } from "@/lib/inference/store";
import { statsOf } from "@/lib/inference/stats";
import { Registry } from "@/lib/registry/registry";
import { RunStore } from "@/lib/runs/store";
import { defineTool } from "@/lib/tools/define";
import { structured } from "@/lib/tools/output";
import { createTestDatabase, type TestDatabase } from "./helpers/db";

describe("shape signatures", () => {
  const diff = (a: unknown[], b: unknown[]) => diffSignatures(signatureOf(statsOf(a)), signatureOf(statsOf(b)));
  it("a field leaving the required set, a type and a format change are changes", () => {
    const base = [{ id: "a@example.com", n: 1 }];
    expect(diff(base, [...base, { id: "a@example.com", n: 2 }])).toEqual([]);
    expect(diff(base, [...base, { id: "a@example.com" }])).toEqual([{ path: "/n", change: "optional" }]);
    expect(diff(base, [...base, { id: "a@example.com", n: 2.5 }])).toEqual([{ path: "/n", change: "type", from: ["integer"], to: ["number"] }]);
    expect(diff(base, [...base, { id: "plain", n: 1 }])).toEqual([{ path: "/id", change: "format", from: "email", to: null }]);
    // a new optional field alone is not a change; array items appearing are
    expect(diff(base, [...base, { id: "a@example.com", n: 1, extra: true }])).toEqual([]);
    expect(diff([{ l: [] }], [{ l: [] }, { l: [1] }])).toEqual([{ path: "/l/*", change: "added", to: ["integer"] }]);
    // back to required: only when every object has it again (a rebuild after purging runs)
    expect(diffSignatures(signatureOf(statsOf([{ a: 1 }, {}])), signatureOf(statsOf([{ a: 1 }])))).toEqual([{ path: "/a", change: "required" }]);
  });
  it("reads stored changes back, dropping anything else", () => {
    expect(parseChanges([{ path: "/a", change: "required" }, { path: 1 }, null, { path: "/b", change: "nope" }])).toEqual([{ path: "/a", change: "required" }]);
    expect(parseChanges("x")).toEqual([]);
  });
  it("says changes in words", () => {
    expect(describeChange({ path: "/n", change: "type", from: ["integer"], to: ["number", "null"] })).toBe("/n type integer → number | null");
    expect(describeChange({ path: "", change: "optional" })).toBe("(value) is now missing from some outputs");
    expect(describeChange({ path: "/a", change: "required" })).toBe("/a is now present every time");
    expect(describeChange({ path: "/id", change: "format", from: "email", to: null })).toBe("/id format email → none");
    expect(describeChange({ path: "/l/*", change: "added", to: ["integer"] })).toBe("/l/* added (integer)");
    expect(describeChange({ path: "/m/~3", change: "added", to: ["string"] })).toBe("/m/{any other key} added (string)");
  });
});

// Real runs in a real database, the audit entry through the real AuditLog, as lib/studio/studio.ts wires it.
const drifter = defineTool({
  name: "drifter",
  description: "changes its output shape at i = 5",
  inputSchema: { type: "object", properties: { i: { type: "integer" } }, required: ["i"] } as const,
  run: async ({ i }) => structured(i < 5 ? { id: `r${i}`, count: i } : { id: `r${i}`, count: `${i}`, note: "late" }),
});

let db: TestDatabase;
let deps: ExecuteDeps;
let shapes: ShapeStore;
let audit: AuditLog;
const told: ShapeRevisionInfo[] = [];
/** While set, the log refuses the revision's entry (an action outside its rules). */
let refuse = false;

const shifter = defineTool({
  name: "shifter",
  description: "one output shape",
  inputSchema: { type: "object", properties: {} } as const,
  run: async () => structured({ ok: true }),
});

beforeAll(async () => {
  db = await createTestDatabase();
  const registry = new Registry();
  registry.addSource({ id: "test", list: () => [drifter, shifter] });
  audit = new AuditLog(db.prisma);
  shapes = new ShapeStore(db.prisma, {
    flushDelayMs: 1,
    audit: {
      chain: audit,
      entryOf: (r) => {
        told.push(r);
        return {
          actor: "system:inference",
          action: refuse ? ("Not An Action" as AuditAction) : "shape.change",
          target: r.toolName,
          detail: { revision: r.revision, runId: r.runId },
        };
      },
    },
  });
  deps = { registry, runs: new RunStore(db.prisma), observers: [shapes.observer()] };
});
afterAll(async () => db?.drop());

describe("shape revisions", () => {
  it("records the first shape and the run that changed it, audits it, lists the tool as changed", async () => {
    const run = async (i: number) => {
      const r = await executeTool(deps, { tool: "drifter", arguments: { i }, origin: "api", actor: "tester" });
      await shapes.flush();
      return r;
    };
    const first = await run(0);
    for (let i = 1; i < 5; i++) await run(i);
    expect((await shapes.revisions("drifter")).map((r) => r.revision)).toEqual([1]);
    const changer = await run(5);
    await run(6); // same new shape: no revision
    const revs = await shapes.revisions("drifter");
    expect(revs.map((r) => [r.revision, r.runId])).toEqual([
      [2, changer.id],
      [1, first.id],
    ]);
    expect(revs[0].changes).toEqual([{ path: "/count", change: "type", from: ["integer"], to: ["string", "integer"] }]);
    expect(revs[0].samples).toBe(6);
    expect(revs[0].schema).toMatchObject({ properties: { count: { type: ["string", "integer"] }, note: { type: "string" } } });
    expect(told.map((r) => r.revision)).toEqual([1, 2]);
    const { entries } = await audit.list({ action: "shape.change" });
    expect(entries.map((e) => (e.detail as { runId: string }).runId).sort()).toEqual([first.id, changer.id].sort());
    expect((await audit.verify()).ok).toBe(true);

    // within one batch: credited to the first run that changed it
    const burst = await Promise.all([7, 8].map((i) => executeTool(deps, { tool: "drifter", arguments: { i }, origin: "api", actor: "tester" })));
    await shapes.flush();
    expect((await shapes.revisions("drifter")).length).toBe(2);
    expect(burst).toHaveLength(2);

    expect([...(await shapes.changedSince(new Date(Date.now() - 3_600_000))).keys()]).toEqual(["drifter"]);
    expect((await shapes.changedSince(new Date(Date.now() + 60_000))).size).toBe(0);
    const got = await shapes.get("drifter");
    expect(got.revisions?.map((r) => r.revision)).toEqual([2, 1]);
  });

  it("a revision and its audit entry commit together: an entry the log refuses leaves the samples queued, not lost", async () => {
    refuse = true;
    const run = await executeTool(deps, { tool: "shifter", arguments: {}, origin: "api", actor: "tester" });
    await expect(shapes.flush()).rejects.toThrow(/action must be/);
    expect(await shapes.revisions("shifter")).toEqual([]);
    expect(await db.prisma.shapeStats.count({ where: { toolName: "shifter" } })).toBe(0);
    expect(shapes.pending()).toBeGreaterThan(0);
    refuse = false;
    await shapes.flush();
    expect((await shapes.revisions("shifter")).map((r) => [r.revision, r.runId])).toEqual([[1, run.id]]);
    const { entries } = await audit.list({ action: "shape.change", target: "shifter" });
    expect(entries.map((e) => (e.detail as { runId: string }).runId)).toEqual([run.id]);
    expect((await audit.verify()).ok).toBe(true);
  });

  it("a rebuild of a tool without revisions adds revision 1", async () => {
    await db.prisma.shapeRevision.deleteMany({ where: { toolName: "drifter" } });
    await db.prisma.shapeStats.deleteMany({ where: { toolName: "drifter" } });
    const got = await shapes.get("drifter");
    expect(got.output?.samples).toBe(9);
    expect(got.revisions?.map((r) => [r.revision, r.runId])).toEqual([[1, null]]);
  });
});
