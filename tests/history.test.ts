import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RuntimeConfigSchema } from "@/lib/config/schema";
import { exportRuns } from "@/lib/runs/export";
import { PresetStore } from "@/lib/runs/presets";
import { AuditLog, type AuditAction } from "@/lib/audit/log";
import { RunStore, type PurgeAudit } from "@/lib/runs/store";
import type { RunOrigin } from "@/lib/runs/types";
import { createTestDatabase, type TestDatabase } from "./helpers/db";

let db: TestDatabase;
let runs: RunStore;
const t0 = Date.parse("2026-11-01T00:00:00Z");

async function seed(i: number, over: { tool?: string; status?: "success" | "error"; origin?: RunOrigin; actor?: string; text?: string } = {}) {
  const startedAt = new Date(t0 + i * 60_000);
  await runs.record(
    {
      id: randomUUID(),
      toolName: over.tool ?? "add",
      toolSource: over.tool === "ext" ? "mcp:ext" : "builtin",
      toolSpecHash: "h",
      arguments: { i, text: over.text ?? "plain" },
      startedAt,
      actor: over.actor ?? "alice",
      origin: over.origin ?? "api",
    },
    over.status === "error"
      ? { status: "error", finishedAt: new Date(startedAt.getTime() + 40), error: { kind: "rate_limited", message: "slow down" } }
      : { status: "success", finishedAt: new Date(startedAt.getTime() + 10 + i), content: [{ type: "text", text: `=result ${i}` }], structuredContent: { i } },
  );
}

beforeAll(async () => {
  db = await createTestDatabase();
  runs = new RunStore(db.prisma);
  for (let i = 0; i < 30; i++) await seed(i);
  for (let i = 30; i < 35; i++) await seed(i, { tool: "ext", status: "error", origin: "mcp", actor: "bob" });
  await seed(35, { text: "needle in args" });
});
afterAll(async () => db?.drop());

describe("history filters", () => {
  it("filters by each field and by text in arguments or output", async () => {
    const ids = async (f: Parameters<RunStore["list"]>[0]) => (await runs.list({ ...f, limit: 200 })).runs.length;
    expect(await ids({})).toBe(36);
    expect(await ids({ tool: "ext" })).toBe(5);
    expect(await ids({ source: "mcp:ext" })).toBe(5);
    expect(await ids({ status: "error" })).toBe(5);
    expect(await ids({ errorKind: "rate_limited" })).toBe(5);
    expect(await ids({ origin: "mcp" })).toBe(5);
    expect(await ids({ actor: "bob" })).toBe(5);
    expect(await ids({ since: new Date(t0 + 10 * 60_000), until: new Date(t0 + 20 * 60_000) })).toBe(10);
    expect(await ids({ q: "NEEDLE" })).toBe(1);
    expect(await ids({ q: "=result 7" })).toBe(1); // in the output content
    expect(await ids({ q: "100%_" })).toBe(0); // LIKE wildcards are literal
    expect(await ids({ tool: "add", status: "error" })).toBe(0);
  });

  it("keyset pages through a filter without gaps or repeats", async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await runs.list({ tool: "add", limit: 7, cursor });
      seen.push(...page.runs.map((r) => r.id));
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    expect(seen.length).toBe(31);
    expect(new Set(seen).size).toBe(31);
  });

  it("facets list tools, sources and actors", async () => {
    expect(await runs.facets()).toEqual({ tools: ["add", "ext"], sources: ["builtin", "mcp:ext"], actors: ["alice", "bob"] });
    // (the CSV test below adds a third tool)
  });
});

describe("stats", () => {
  it("counts, success rate, percentiles and a series", async () => {
    const s = await runs.stats({ tool: "add" });
    expect(s.count).toBe(31);
    expect(s.successRate).toBe(1);
    expect(s.p50Ms).toBeGreaterThan(10);
    expect(s.bucket).toBe("minute");
    expect(s.series.reduce((a, p) => a + p.count, 0)).toBe(31);
    const e = await runs.stats({ tool: "ext" });
    expect(e).toMatchObject({ count: 5, success: 0, successRate: 0, byStatus: { error: 5 } });
  });
});

describe("export", () => {
  const read = async (s: ReadableStream<Uint8Array>) => new Response(s).text();
  it("streams NDJSON of every matching run", async () => {
    const lines = (await read(exportRuns(runs, { tool: "add" }, "ndjson"))).trim().split("\n");
    expect(lines).toHaveLength(31);
    expect(JSON.parse(lines[0]!).tool).toBe("add");
  });
  it("streams CSV with a header, quoting, and formula cells neutralised", async () => {
    await seed(99, { tool: "csv", actor: "=2+3" });
    const csv = await read(exportRuns(runs, { tool: "csv" }, "csv"));
    const rows = csv.trim().split("\r\n");
    expect(rows[0]).toMatch(/^id,tool,source,status,error_kind/);
    expect(rows).toHaveLength(2);
    expect(rows[1]).toContain(`"{""i"":99,""text"":""plain""}"`); // JSON cells quoted, quotes doubled
    expect(rows[1]).toContain(",'=2+3,"); // a formula-looking cell stays text
    expect(rows[1]).not.toContain(",=2+3,");
  });
});

describe("retention", () => {
  it("purges by age and by count per tool, with a dry run first", async () => {
    const retention = RuntimeConfigSchema.parse({ retention: { maxRunsPerTool: 20, perTool: { ext: { maxAgeDays: 1 } } } }).retention;
    const now = new Date(t0 + 2 * 86_400_000);
    const preview = await runs.purge(retention, { dryRun: true, now });
    expect(preview).toEqual({ dryRun: true, byTool: { add: 11, ext: 5 }, total: 16 });
    expect((await runs.list({ limit: 200 })).runs).toHaveLength(37);
    // A purge and its entry are one transaction, on Prisma's and on plain pg's: an entry the log refuses leaves every run in place.
    const audit = new AuditLog(db.prisma, db.sql);
    const refused: PurgeAudit = { chain: audit, entryOf: () => ({ actor: "ops", action: "Not An Action" as AuditAction, target: "runs" }) };
    for (const store of [runs, new RunStore(db.prisma, { sql: db.sql })]) {
      await expect(store.purge(retention, { now, audited: refused })).rejects.toThrow();
      expect((await runs.list({ limit: 200 })).runs).toHaveLength(37);
    }
    const done = await new RunStore(db.prisma, { sql: db.sql }).purge(retention, {
      now,
      audited: { chain: audit, entryOf: (r) => ({ actor: "ops", action: "purge", target: "runs", detail: { ...r } }) },
    });
    expect(done.total).toBe(16);
    const [entry] = (await audit.list({ action: "purge", limit: 10 })).entries;
    expect(entry).toMatchObject({ actor: "ops", target: "runs", detail: { dryRun: false, byTool: { add: 11, ext: 5 }, total: 16 } });
    expect((await audit.verify()).ok).toBe(true);
    const left = (await runs.list({ tool: "add", limit: 200 })).runs;
    expect(left).toHaveLength(20);
    expect(left.at(-1)!.arguments).toMatchObject({ i: 11 }); // the 20 newest stay
  });
});

describe("presets", () => {
  it("saves, replaces, lists and removes named arguments per tool", async () => {
    const presets = new PresetStore(db.prisma);
    await presets.save({ tool: "add", name: "small", arguments: { a: 1, b: 2 }, createdBy: "alice" });
    await presets.save({ tool: "add", name: "small", arguments: { a: 3, b: 4 }, createdBy: "alice" });
    await presets.save({ tool: "other", name: "small", arguments: {}, createdBy: "alice" });
    const list = await presets.list("add");
    expect(list.map((p) => [p.name, p.arguments])).toEqual([["small", { a: 3, b: 4 }]]);
    expect(await presets.remove("add", "small")).toBe(true);
    expect(await presets.remove("add", "small")).toBe(false);
  });

  it("renames a preset, keeping its arguments, and refuses a name another preset has", async () => {
    const presets = new PresetStore(db.prisma);
    await presets.save({ tool: "add", name: "one", arguments: { a: 1 }, createdBy: "alice" });
    await presets.save({ tool: "add", name: "two", arguments: { a: 2 }, createdBy: "alice" });
    const renamed = await presets.rename("add", "one", "first");
    expect(renamed).toMatchObject({ name: "first", arguments: { a: 1 } });
    expect(await presets.rename("add", "first", "two")).toBe("taken");
    expect(await presets.rename("add", "nothing", "else")).toBe("missing");
    expect(await presets.rename("add", "two", "two")).toMatchObject({ name: "two", arguments: { a: 2 } });
    expect((await presets.list("add")).map((p) => [p.name, p.arguments])).toEqual([
      ["first", { a: 1 }],
      ["two", { a: 2 }],
    ]);
  });
});
