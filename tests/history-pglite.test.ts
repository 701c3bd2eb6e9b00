// The embedded mode (npm run studio without DATABASE_URL): the history migration loads pg_trgm
// into PGlite, and the text search and the stats rollups work there as on PostgreSQL.
import { randomUUID } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedRuns } from "@/bench/seed-runs";
import { createPrisma, type Db } from "@/lib/db/client";
import { runStats } from "@/lib/runs/stats";
import { RunStore } from "@/lib/runs/store";

let dir: string;
let db: Db;
let runs: RunStore;
const t0 = Date.parse("2026-10-01T00:00:00Z");

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "tool-studio-history-pglite-"));
  db = await createPrisma({ databaseUrl: "", dataDir: dir });
  expect(db.kind).toBe("pglite");
  await db.migrate();
  runs = new RunStore(db.prisma);
  await seedRuns(db.prisma, 3000);
  for (let i = 0; i < 40; i++) {
    const startedAt = new Date(t0 + i * 12 * 3600_000);
    const s = {
      id: randomUUID(),
      toolName: "pg_lite_tool",
      toolSource: "builtin",
      toolSpecHash: "h",
      arguments: { word: i === 7 ? "Marmalade" : "plain" },
      startedAt,
      actor: "a",
      origin: "api" as const,
    };
    await runs.start(s);
    await runs.finish(
      s.id,
      startedAt,
      i % 5
        ? { status: "success", finishedAt: new Date(startedAt.getTime() + 10 * (i + 1)), content: [] }
        : { status: "error", finishedAt: new Date(startedAt.getTime() + 3), error: { kind: "provider", message: "nope" } },
    );
  }
}, 120_000);
afterAll(async () => {
  await db?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe("history on PGlite", () => {
  it("has pg_trgm and the trigram index", async () => {
    const rows = await db.prisma.$queryRawUnsafe<{ extname: string }[]>(`SELECT extname FROM pg_extension WHERE extname = 'pg_trgm'`);
    expect(rows).toHaveLength(1);
    const idx = await db.prisma.$queryRawUnsafe<{ indexdef: string }[]>(`SELECT indexdef FROM pg_indexes WHERE indexname = 'runs_search_text_idx'`);
    expect(idx[0]?.indexdef).toMatch(/gin \(search_text gin_trgm_ops\)/);
  });

  it("searches text, common and rare", async () => {
    expect((await runs.list({ q: "marmalade" })).runs.map((r) => r.arguments)).toEqual([{ word: "Marmalade" }]);
    expect((await runs.list({ q: "result 1234" })).runs).toHaveLength(1);
    expect((await runs.list({ q: "item 42" })).runs).toHaveLength(11); // item 42 and 420-429 of 3000 runs
    expect((await runs.list({ q: "item", limit: 10 })).runs).toHaveLength(10);
  });

  it("lists the filter facets as SELECT DISTINCT does", async () => {
    const distinct = async (c: string) =>
      (await db.prisma.$queryRawUnsafe<{ v: string }[]>(`SELECT DISTINCT "${c}" AS v FROM runs WHERE "${c}" IS NOT NULL ORDER BY v LIMIT 500`)).map((r) => r.v);
    const facets = await runs.facets();
    expect(facets).toEqual({ tools: await distinct("tool_name"), sources: await distinct("tool_source"), actors: await distinct("actor") });
    expect(facets.tools).toContain("pg_lite_tool");
    expect(facets.actors).toContain("a");
  });

  it("answers stats from the rollups as the exact query does", async () => {
    const rolled = await runStats(db.prisma, { tool: "pg_lite_tool" });
    const exact = await runStats(db.prisma, { tool: "pg_lite_tool" }, { exact: true });
    expect(rolled.approximate).toBe(true);
    expect({ ...rolled, p50Ms: 0, p95Ms: 0, approximate: false, series: rolled.series.map((p) => ({ ...p, p95Ms: 0 })) }).toEqual({
      ...exact,
      p50Ms: 0,
      p95Ms: 0,
      series: exact.series.map((p) => ({ ...p, p95Ms: 0 })),
    });
    expect(Math.abs(rolled.p95Ms! - exact.p95Ms!)).toBeLessThanOrEqual(exact.p95Ms! * 0.025);
    expect(rolled).toMatchObject({ count: 40, success: 32, bucket: "day" });
    const big = await runStats(db.prisma, { tool: "tool_3" });
    expect(big.approximate).toBe(true);
    expect(big.count).toBe(250);
  });
});
