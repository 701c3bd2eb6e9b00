// Every column a run's start writes (lib/runs/columns.ts) reaches the API and the export that the
// description names for it, through the real route handlers on PostgreSQL: a column added to the
// description is covered here without a new line of test.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, expect, it } from "vitest";
import { RUN_COLUMN_LIST, type RunStart } from "@/lib/runs/columns";
import type { Studio } from "@/lib/studio/studio";
import { bootStudio, type Handler, type InProcessStudio } from "./helpers/studio-in-process";

let booted: InProcessStudio;
let studio: Studio;
let GET_RUN: Handler<{ id: string }>;
let EXPORT: Handler<Record<string, never>>;

beforeAll(async () => {
  booted = await bootStudio("run-columns");
  studio = booted.studio;
  ({ GET: GET_RUN } = await import("@/app/api/runs/[id]/route"));
  ({ GET: EXPORT } = await import("@/app/api/runs/export/route"));
});

afterAll(() => booted?.close());

const get = async <P>(handler: Handler<P>, url: string, params: P) => {
  const res = await booted.call(handler, url, params);
  expect(res.status).toBe(200);
  return res;
};

it("each start column's value is in GET /api/runs/{id}, the NDJSON export and the CSV export", async () => {
  const base = { toolName: "add", toolSource: "builtin", toolSpecHash: "h", arguments: {}, startedAt: new Date(), actor: "t", origin: "api" as const };
  const earlier = randomUUID();
  await studio.runs.record({ ...base, id: earlier }, { status: "success", finishedAt: new Date() });

  // A distinct value for every column a start writes, by its type; uuids other than the id name the earlier run (foreign keys).
  const start: Partial<Record<keyof RunStart, unknown>> = {};
  let n = 0;
  for (const c of RUN_COLUMN_LIST) {
    if (!c.start) continue;
    n++;
    start[c.start] =
      c.type === "uuid"
        ? c.start === "id"
          ? randomUUID()
          : earlier
        : c.type === "int"
          ? 1000 + n
          : c.type === "timestamptz"
            ? new Date(Date.UTC(2026, 11, 7, 10, 0, n))
            : c.type === "json!" || c.type === "json"
              ? { [c.sql]: n }
              : c.type === "RunOrigin"
                ? "mcp"
                : `${c.sql}-value-${n}`;
  }
  const r = start as RunStart;
  await studio.runs.record(r, { status: "success", finishedAt: new Date(r.startedAt.getTime() + 5), content: [{ type: "text", text: "ok" }] });

  const shown = (v: unknown) => (v instanceof Date ? v.toISOString() : v);
  const { run } = (await (await get(GET_RUN, `/api/runs/${r.id}`, { id: r.id })).json()) as { run: Record<string, unknown> };
  const ndjson = (await (await get(EXPORT, `/api/runs/export?format=ndjson`, {})).text())
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  const exported = ndjson.find((x) => x.id === r.id)!;
  const csv = (await (await get(EXPORT, `/api/runs/export?format=csv`, {})).text()).split("\r\n");
  const header = csv[0]!.split(",");
  const line = csv.find((l) => l.startsWith(`${r.id},`))!;

  const checked: string[] = [];
  for (const c of RUN_COLUMN_LIST) {
    if (!c.start || !c.api) continue;
    const want = shown(start[c.start]);
    expect(run[c.api], c.sql).toEqual(want);
    expect(exported[c.api], c.sql).toEqual(want);
    if (c.csv) {
      expect(header, c.sql).toContain(c.csv);
      const cell = typeof want === "string" ? want : JSON.stringify(want);
      expect(line, c.sql).toContain(cell.replace(/"/g, '""'));
    }
    checked.push(c.sql);
  }
  // The description is walked, not a handful of it.
  expect(checked.length).toBeGreaterThanOrEqual(15);
});
