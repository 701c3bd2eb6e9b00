// The history's text search (lib/runs/search.ts) returns exactly the newest matches, page after
// page, whichever plan answers: a walk of the newest runs (common terms), a longer walk (somewhat
// common), or the trigram index on the rarest word (rare terms). Checked against the plain
// substring query over the columns the search text is made of.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedRuns } from "@/bench/seed-runs";
import { RunFilterParams } from "@/lib/runs/filter-params";
import type { RunFilter } from "@/lib/runs/query";
import { searchWords, SEARCH_WINDOW } from "@/lib/runs/search";
import { RunStore } from "@/lib/runs/store";
import { createTestDatabase, type TestDatabase } from "./helpers/db";

let db: TestDatabase;
let runs: RunStore;
const N = 12_000;

beforeAll(async () => {
  db = await createTestDatabase();
  runs = new RunStore(db.prisma);
  await seedRuns(db.prisma, N);
  // Captured the usual way (the triggers fill the search text): an old one, and a long output.
  const old = new Date(Date.parse("2025-11-05T00:00:00Z"));
  await runs.record(
    {
      id: randomUUID(),
      toolName: "tool_1",
      toolSource: "builtin",
      toolSpecHash: "h",
      arguments: { note: "The Needle-ZQX here" },
      startedAt: old,
      actor: "a",
      origin: "api",
    },
    { status: "error", finishedAt: old, error: { kind: "provider", message: "Kaboom ÉCLAIR" } },
  );
  await runs.record(
    {
      id: randomUUID(),
      toolName: "tool_2",
      toolSource: "builtin",
      toolSpecHash: "h",
      arguments: {},
      startedAt: new Date(old.getTime() + 1),
      actor: "a",
      origin: "api",
    },
    { status: "success", finishedAt: old, content: [{ type: "text", text: `${"x".repeat(5000)} beyond-the-cap` }] },
  );
}, 120_000);
afterAll(async () => db?.drop());

/** The newest matches by a plain scan of the columns (what `q` meant before the search text). */
async function exact(f: RunFilter & { q: string }, limit: number): Promise<string[]> {
  const like = `%${f.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const conds = [`(arguments::text ILIKE $1 OR content::text ILIKE $1 OR structured_content::text ILIKE $1 OR error_message ILIKE $1)`];
  const params: unknown[] = [like];
  if (f.tool) conds.push(`tool_name = $${params.push(f.tool)}`);
  if (f.status) conds.push(`status = $${params.push(f.status)}::"RunStatus"`);
  const rows = await db.prisma.$queryRawUnsafe<{ id: string }[]>(
    `SELECT id::text AS id FROM runs WHERE ${conds.join(" AND ")} ORDER BY started_at DESC, id DESC LIMIT ${limit}`,
    ...params,
  );
  return rows.map((r) => r.id);
}

async function all(f: RunFilter & { q: string }, limit: number): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await runs.list({ ...f, limit, cursor });
    ids.push(...page.runs.map((r) => r.id));
    cursor = page.nextCursor ?? undefined;
  } while (cursor && ids.length < 2000);
  return ids;
}

describe("text search", () => {
  it("splits a term into the words the trigram index knows", () => {
    expect(searchWords("Result 99983, item-42 ab")).toEqual(["result", "99983", "item"]);
    expect(searchWords("-_-")).toEqual([]);
    expect(SEARCH_WINDOW).toBeLessThan(N);
  });

  it.each([
    ["item 42", "common: a walk of the newest runs"],
    ["result", "everywhere"],
    ["item 499", "somewhat common: a longer walk"],
    ["item 4999", "uncommon: the index"],
    ["upstream failed", "2%, two words"],
    [`result ${N - 17}`, "rare word next to a common one"],
    ["needle-zqx", "one old run"],
    ["NEEDLE", "case folds"],
    ["éclair", "case folds beyond ASCII"],
    ["zzzq", "nothing"],
    ["100%_", "LIKE wildcards are literal"],
    ["~~~", "no word: the index without a trigram"],
    ['"t3"]', "punctuation"],
  ])("%s (%s) finds the newest matches", async (q) => {
    expect(await runs.list({ q, limit: 50 }).then((p) => p.runs.map((r) => r.id))).toEqual(await exact({ q }, 50));
  });

  it("pages through every match without gaps or repeats", async () => {
    for (const q of ["item 42", "item 499", "upstream"]) {
      const want = await exact({ q }, 5000);
      expect(want.length).toBeGreaterThan(20);
      expect(await all({ q }, 37)).toEqual(want);
    }
  });

  it("combines with the other filters", async () => {
    for (const f of [
      { q: "item 42", tool: "tool_6" },
      { q: "item 4", status: "error" as const },
      { q: `result ${N - 17}`, tool: `tool_${(N - 17) % 12}` },
      { q: `result ${N - 17}`, tool: "tool_0" },
    ]) {
      expect(await runs.list({ ...f, limit: 50 }).then((p) => p.runs.map((r) => r.id)), JSON.stringify(f)).toEqual(await exact(f, 50));
    }
  });

  it("looks at the capped search text: the first 2,000 characters of the content", async () => {
    expect((await runs.list({ q: "xxxxxxxx" })).runs).toHaveLength(1);
    expect((await runs.list({ q: "beyond-the-cap" })).runs).toHaveLength(0);
  });

  it("a page's runs are the runs get() reads (one raw query, every field)", async () => {
    const page = await runs.list({ limit: 20 });
    const found = await runs.list({ q: "needle-zqx" });
    for (const r of [...page.runs, ...found.runs]) expect(r).toEqual(await runs.get(r.id));
    expect(found.runs[0]).toMatchObject({ error: { kind: "provider", message: "Kaboom ÉCLAIR" }, arguments: { note: "The Needle-ZQX here" } });
  });

  it("the API asks for 3 characters or more", () => {
    expect(RunFilterParams.safeParse({ q: "ab" }).error?.issues[0]?.message).toMatch(/at least 3 characters/);
    expect(RunFilterParams.safeParse({ q: "abc" }).success).toBe(true);
  });
});
