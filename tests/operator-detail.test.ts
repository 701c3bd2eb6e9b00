import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { executeTool } from "@/lib/execution/execute";
import { Registry } from "@/lib/registry/registry";
import { withOperatorDetail } from "@/lib/runs/operator-detail";
import { RunStore } from "@/lib/runs/store";
import { defineTool } from "@/lib/tools/define";
import { structured } from "@/lib/tools/output";
import { createTestDatabase, type TestDatabase } from "./helpers/db";

// Why a tool crashed is stored operator-only: an admin reads it (API and run page shape the run
// through withOperatorDetail), the log gets one line with the run id, and nobody else sees it.
const crash = defineTool({
  name: "crash",
  description: "throws a plain error, as a buggy tool would",
  inputSchema: { type: "object" } as const,
  run: async () => {
    throw new Error("boom at line 7\n    at handler (tool.js:7:3)");
  },
});
const fine = defineTool({ name: "fine", description: "succeeds", inputSchema: { type: "object" } as const, run: async () => structured({ ok: true }) });

let db: TestDatabase;
let deps: { registry: Registry; runs: RunStore };
const base = { origin: "api" as const, actor: "tester", arguments: {} };

beforeAll(async () => {
  db = await createTestDatabase();
  const registry = new Registry();
  registry.addSource({ id: "builtin", list: () => [crash, fine] });
  deps = { registry, runs: new RunStore(db.prisma) };
});
afterAll(async () => {
  await db?.drop();
});

describe("the operator-only error detail", () => {
  it("is logged once, on one line with the run id, when a run ends with it", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      const run = await executeTool(deps, { ...base, tool: "crash" });
      const ok = await executeTool(deps, { ...base, tool: "fine" });
      const lines = logged.mock.calls.map((c) => c.map(String).join(" "));
      const mine = lines.filter((l) => l.includes(run.id));
      expect(mine).toHaveLength(1);
      expect(mine[0]).toContain("boom at line 7 at handler (tool.js:7:3)");
      expect(mine[0]).not.toContain("\n");
      expect(lines.some((l) => l.includes(ok.id))).toBe(false);
    } finally {
      logged.mockRestore();
    }
  });

  it("reaches an admin's view of the run, never a runner's or a viewer's", async () => {
    const run = await executeTool(deps, { ...base, tool: "crash" });
    expect(JSON.stringify(run)).not.toContain("boom");
    const admin = await withOperatorDetail(run, "admin", deps.runs);
    expect(admin.error?.detail).toContain("boom at line 7");
    for (const role of ["runner", "viewer"] as const) {
      const seen = await withOperatorDetail(run, role, deps.runs);
      expect(JSON.stringify(seen)).not.toContain("boom");
    }
    const ok = await executeTool(deps, { ...base, tool: "fine" });
    expect(await withOperatorDetail(ok, "admin", deps.runs)).toEqual(ok);
  });
});
