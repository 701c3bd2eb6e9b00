import { describe, expect, it } from "vitest";
import { CSV_COLUMNS, insertRuns, outcomeValues, RUN_COLUMN_LIST, startOf, startValues, toRun, unstoredRun, updateRun, type RunStart } from "./columns";

const start: RunStart = {
  id: "6f1c0a52-33c8-4f6a-9d55-0d2b7c1e9a10",
  toolName: "add",
  toolSource: "builtin",
  toolSpecHash: "h".repeat(64),
  arguments: { a: "it's ; DROP TABLE runs; -- $1" },
  timeoutMs: 5000,
  startedAt: new Date("2026-12-07T10:00:00.000Z"),
  actor: "ada@example.com",
  origin: "api",
  idempotencyKey: "k-1",
};
const finishedAt = new Date("2026-12-07T10:00:00.250Z");

describe("the statements of a run", () => {
  it("bind every value: none is in the text, each is one parameter with its column's cast", () => {
    const values = startValues(start);
    values.set("status", "running");
    const s = insertRuns([values, startValues({ ...start, id: "7f1c0a52-33c8-4f6a-9d55-0d2b7c1e9a10" }).set("status", "running")]);
    expect(s.text).not.toContain("DROP TABLE");
    expect(s.text).not.toContain("ada@example.com");
    expect(s.params).toHaveLength(2 * values.size);
    expect(s.text).toMatch(/^INSERT INTO runs \(id, tool_name, .*\) VALUES \(\$1::uuid, \$2, .*\), \(\$\d+::uuid/);
    expect(s.params).toContain(JSON.stringify(start.arguments));
    expect(s.params).toContain("2026-12-07T10:00:00.000Z");
    expect(s.text).toMatch(/RETURNING id AS "id", .*status::text AS "status"/);
  });

  it("refuse a multi-row INSERT whose rows name different columns", () => {
    expect(() => insertRuns([startValues(start), startValues(start).set("status", "running")])).toThrow(/same columns/);
  });

  it("number an UPDATE's values after its id and its WHERE's parameters", () => {
    const s = updateRun(start.id, outcomeValues({ status: "success", finishedAt }, start.startedAt), `status = $2::"RunStatus"`, ["running"]);
    expect(s.text).toMatch(/^UPDATE runs SET status = \$3::"RunStatus", /);
    expect(s.text).toContain(`WHERE id = $1::uuid AND status = $2::"RunStatus" RETURNING`);
    expect(s.params.slice(0, 3)).toEqual([start.id, "running", "success"]);
    expect(s.params).toContain(250); // duration_ms
  });

  it("leave the Idempotency-Key as it is, unless the outcome frees it", () => {
    expect(outcomeValues({ status: "success", finishedAt }, start.startedAt).has("idempotency_key")).toBe(false);
    expect(outcomeValues({ status: "rejected", finishedAt, freeKey: true }, start.startedAt).get("idempotency_key")).toBeNull();
  });
});

describe("a run as the API shows it", () => {
  it("has every field of a stored run, unset ones left out, and reads back the start it was made from", () => {
    const run = unstoredRun(start, {
      status: "error",
      finishedAt,
      error: { kind: "invalid_args", message: "bad", detail: "secret stack", fields: [{ path: "/a", message: "must be a number" }] },
    });
    expect(Object.keys(run).sort()).toEqual(
      [
        "id",
        "tool",
        "source",
        "specHash",
        "status",
        "arguments",
        "output",
        "outputValid",
        "outputErrors",
        "error",
        "timeoutMs",
        "durationMs",
        "startedAt",
        "finishedAt",
        "origin",
        "actor",
        "actorId",
        "tokenId",
        "agent",
        "clientName",
        "replayOf",
        "idempotencyKey",
        "capture",
      ].sort(),
    );
    expect(run).toMatchObject({
      tool: "add",
      durationMs: 250,
      finishedAt: finishedAt.toISOString(),
      error: { kind: "invalid_args", message: "bad", details: [{ path: "/a", message: "must be a number" }] },
      capture: "pending",
    });
    expect(JSON.stringify(run)).not.toContain("secret stack");
  });

  it("a queued run's time and priority, and a retry's attempt, are shown only when set", () => {
    // eslint-disable-next-line no-restricted-syntax -- a row written by hand, as the database would return it
    const row = {
      ...Object.fromEntries(RUN_COLUMN_LIST.map((c) => [c.field, null])),
      id: start.id,
      toolName: "add",
      toolSource: "builtin",
      toolSpecHash: "h",
      arguments: {},
      status: "queued",
      startedAt: start.startedAt,
      actor: "a",
      origin: "api",
      shapeCounted: false,
      queuedAt: start.startedAt,
      priority: null,
      attempt: 2,
      retryOfId: start.id,
      progress: { progress: 1, total: 4 },
    } as unknown as Parameters<typeof toRun>[0];
    expect(toRun(row)).toMatchObject({
      queuedAt: start.startedAt.toISOString(),
      priority: 0,
      attempt: 2,
      retryOf: start.id,
      progress: { progress: 1, total: 4 },
    });
    expect(startOf(row)).toMatchObject({ id: start.id, attempt: 2, retryOf: start.id, startedAt: start.startedAt });
    expect(startOf(row).replayOf).toBeUndefined();
  });

  it("exports the CSV columns it always has, in their order (a new one comes after them)", () => {
    expect(CSV_COLUMNS.map((c) => c.header).slice(0, 18)).toEqual([
      "id",
      "tool",
      "source",
      "status",
      "error_kind",
      "error_message",
      "duration_ms",
      "started_at",
      "finished_at",
      "origin",
      "actor",
      "agent",
      "client_name",
      "replay_of",
      "output_valid",
      "arguments",
      "structured_content",
      "content",
    ]);
  });
});
