// Bad input that reaches the database, on both databases the studio runs on (PostgreSQL and
// embedded PGlite, whose drivers word their refusals differently): odd JSON through /api/mcp's
// tools/call (keys with NUL or lone surrogates at any depth, nesting past any stack), cursors the
// studio never gave out, and values no index can hold. Each is a clear refusal (a JSON-RPC answer,
// a rejected run stored escaped, a 400 naming what is wrong), never a thrown error in the log.
import { randomBytes, randomUUID } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { AuditLog } from "@/lib/audit/log";
import { createPrisma } from "@/lib/db/client";
import { databaseInputRefusal } from "@/lib/db/faults";
import { toErrorResponse } from "@/lib/http/http";
import { inspectJson } from "@/lib/http/input";
import { closeMcpEndpoint, handleMcpRequest, type McpStudio } from "@/lib/mcp-server/server";
import { RunStore } from "@/lib/runs/store";
import { runStart } from "./helpers/execution";
import { createTestDatabase, type TestDatabase } from "./helpers/db";
import { buildMcpStudio } from "./helpers/mcp-studio";

async function pgliteDatabase(): Promise<TestDatabase> {
  const dir = await mkdtemp(path.join(tmpdir(), "tool-studio-bad-input-"));
  const db = await createPrisma({ databaseUrl: "", dataDir: dir });
  await db.migrate();
  return {
    url: "",
    name: dir,
    prisma: db.prisma,
    sql: db.sql,
    drop: async () => {
      await db.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Generators: each kind of bad input, at several places and sizes.

/** Keys PostgreSQL cannot store, alone or inside other text. */
const BAD_KEY_PARTS = ["\u0000", "\ud800", "\udfff", "\udc00\ud800", "a\u0000b", "x\ud83d", "\ude00y"];

/** `{a: {b: … {<bad>: 1}}}` at `depth`, as raw JSON text (the escapes written by JSON.stringify keep it one document). */
function badKeyAt(depth: number, bad: string, inArray: boolean): string {
  let inner = `{${JSON.stringify(bad)}:1}`;
  for (let i = depth - 1; i >= 0; i--) inner = inArray && i % 2 ? `[${inner}]` : `{"k${i}":${inner}}`;
  return inner;
}

function* oddArguments(): Generator<[string, string]> {
  for (const bad of BAD_KEY_PARTS) {
    for (const depth of [0, 1, 3, 12, 63]) {
      yield [`key ${JSON.stringify(bad)} at depth ${depth}`, badKeyAt(depth, bad, false)];
      if (depth > 1) yield [`key ${JSON.stringify(bad)} at depth ${depth}, through arrays`, badKeyAt(depth, bad, true)];
    }
  }
  for (const n of [65, 1000, 10_000, 100_000]) {
    yield [`objects nested ${n} deep`, '{"a":'.repeat(n) + "1" + "}".repeat(n)];
    yield [`arrays nested ${n} deep`, `{"a":${"[".repeat(n)}${"]".repeat(n)}}`];
  }
  yield ["a NUL key beside a lone surrogate value", '{"\\u0000":"\\ud800","ok":1}'];
  yield ["__proto__ key", '{"__proto__":{"polluted":true}}'];
}

describe.each([
  ["PostgreSQL", () => createTestDatabase()],
  ["PGlite", pgliteDatabase],
] as const)("bad input on %s", (_where, open) => {
  let db: TestDatabase;
  let studio: McpStudio;
  let runs: RunStore;
  const logged: string[] = [];

  beforeAll(async () => {
    db = await open();
    ({ studio, runs } = buildMcpStudio(db));
  }, 120_000);
  afterAll(async () => {
    await closeMcpEndpoint(studio);
    await db?.drop();
  });
  beforeEach(() => {
    logged.length = 0;
    for (const level of ["error", "warn"] as const)
      vi.spyOn(console, level).mockImplementation(
        (...args: unknown[]) => void logged.push(args.map((a) => (a instanceof Error ? `${a.message}\n${a.stack}` : String(a))).join(" ")),
      );
  });
  afterEach(() => vi.restoreAllMocks());

  /** A raw JSON-RPC tools/call with `args` as written, in either protocol era. */
  async function callRaw(tool: string, args: string, era: "2026-07-28" | "2025-06-18"): Promise<{ status: number; body: Record<string, unknown> }> {
    const meta =
      era === "2026-07-28"
        ? `,"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"raw-client","version":"0"}}`
        : "";
    const body = `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":${JSON.stringify(tool)},"arguments":${args}${meta}}}`;
    const req = new Request("http://127.0.0.1:3000/api/mcp", {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": era,
        ...(era === "2026-07-28" ? { "mcp-method": "tools/call", "mcp-name": tool } : {}),
      },
      body,
    });
    const res = await handleMcpRequest(req, { studio, actor: "bad-input-test" });
    const text = await res.text();
    // An SSE answer carries the JSON-RPC message in its data line.
    const json = res.headers.get("content-type")?.includes("text/event-stream")
      ? text
          .split("\n")
          .find((l) => l.startsWith("data: "))!
          .slice(6)
      : text;
    return { status: res.status, body: JSON.parse(json) as Record<string, unknown> };
  }

  it("takes every odd tools/call through /api/mcp as a JSON-RPC answer and a rejected run stored escaped, with nothing thrown in the log", async () => {
    let n = 0;
    for (const era of ["2026-07-28", "2025-06-18"] as const) {
      for (const tool of ["add", "json_query", "send_message"]) {
        for (const [label, args] of oddArguments()) {
          const before = (await runs.list({ tool, limit: 1 })).runs[0]?.id;
          const { status, body } = await callRaw(tool, args, era);
          const what = `${era} ${tool} ${label}`;
          expect(status, what).toBe(200);
          expect(body.jsonrpc, what).toBe("2.0");
          // Refused by the studio: a tool result flagged as an error (the run's own words) or a JSON-RPC error, never "internal".
          const result = body.result as { isError?: boolean } | undefined;
          const error = body.error as { code: number; message: string } | undefined;
          expect(result?.isError === true || (error !== undefined && error.code !== -32603), `${what}: ${JSON.stringify(body).slice(0, 300)}`).toBe(true);
          if (result) {
            const run = (await runs.list({ tool, limit: 1 })).runs[0]!;
            expect(run.id, what).not.toBe(before);
            expect(run.status, what).toBe("rejected");
            expect(run.error?.kind, what).toBe("invalid_args");
            // Stored as sent, less what cannot be stored: the record itself is clean.
            expect(inspectJson(run.arguments), what).toEqual([]);
            expect(inspectJson(run.error), what).toEqual([]);
          }
          n++;
        }
      }
    }
    expect(n).toBeGreaterThan(200);
    expect(logged.filter((l) => /Maximum call stack|invalid input syntax|unsupported Unicode|internal error|failed/i.test(l))).toEqual([]);
  }, 240_000);

  it("refuses every cursor it did not give out, and follows the ones it did", async () => {
    const audit = new AuditLog(db.prisma);
    for (let i = 0; i < 3; i++) await audit.append({ actor: "bad-input-test", action: "config.change", target: `t${i}` });
    const t0 = Date.parse("2026-01-01T00:00:00Z");
    for (let i = 0; i < 3; i++) {
      const s = {
        id: randomUUID(),
        toolName: "cursor_tool",
        toolSource: "builtin",
        toolSpecHash: "h",
        arguments: {},
        startedAt: new Date(t0 + i),
        actor: "a",
        origin: "api" as const,
      };
      await runs.record(s, { status: "rejected", finishedAt: new Date(t0 + i), error: { kind: "invalid_args", message: "x" } });
    }
    // Given out: each page's cursor leads to the next page.
    const p1 = await runs.list({ tool: "cursor_tool", limit: 2 });
    expect((await runs.list({ tool: "cursor_tool", limit: 2, cursor: p1.nextCursor! })).runs).toHaveLength(1);
    const a1 = await audit.list({ actor: "bad-input-test", limit: 2 });
    expect((await audit.list({ actor: "bad-input-test", limit: 2, cursor: a1.nextCursor! })).entries).toHaveLength(1);

    const b64 = (s: string) => Buffer.from(s).toString("base64url");
    const runId = randomUUID();
    const forged: string[] = [];
    // Dates JavaScript takes and PostgreSQL does not, and dates no calendar has.
    for (const iso of [
      "-271821-04-20T00:00:00.000Z",
      "+275760-09-13T00:00:00.000Z",
      "0000-01-01T00:00:00.000Z",
      "+010000-01-01T00:00:00.000Z",
      "-000001-12-31T23:59:59.999Z",
      "2024-02-30T00:00:00.000Z",
      "2024-01-01T25:61:00.000Z",
      "2024-01-01",
      "1e20",
      "",
      "2024-01-01T00:00:00Z",
    ]) {
      forged.push(b64(`${iso}|${runId}`), b64(`${iso}|1`));
    }
    // Well-formed times with the wrong key, extra parts, or not the studio's encoding.
    const good = "2024-01-01T00:00:00.000Z";
    forged.push(
      b64(`${good}|${runId.toUpperCase()}`),
      b64(`${good}|${"-".repeat(36)}`),
      b64(`${good}|${runId}|x`),
      b64(`${good}|0`),
      b64(`${good}|01`),
      b64(`${good}|${"9".repeat(19)}`),
      b64(`${good}|\u0000`),
      b64(good),
    );
    forged.push(
      `${b64(`${good}|${runId}`)}=`,
      `${b64(`${good}|1`)}==`,
      `${b64(`${good}|${runId}`)}A`,
      Buffer.from(`${good}|${runId}`).toString("base64"),
      "garbage!",
      "%00",
      "z".repeat(5000),
    );
    for (const c of forged) {
      await expect(runs.list({ limit: 2, cursor: c }), `runs cursor ${JSON.stringify(c.slice(0, 60))}`).rejects.toMatchObject({ name: "CursorError" });
      await expect(audit.list({ limit: 2, cursor: c }), `audit cursor ${JSON.stringify(c.slice(0, 60))}`).rejects.toMatchObject({ name: "AuditCursorError" });
    }
  });

  it("answers a value no index can hold, or a character no column can, as the input's 400, never a 500", async () => {
    // Random text: PostgreSQL compresses what it indexes, and a run of one letter fits any index.
    const long = (n: number) =>
      randomBytes(Math.ceil(n / 2))
        .toString("hex")
        .slice(0, n);
    const attempts: [string, () => Promise<unknown>][] = [
      [
        "a preset name (unique index)",
        () => db.prisma.runPreset.create({ data: { id: randomUUID(), toolName: "add", name: long(10_000), arguments: {}, createdBy: "t" } }),
      ],
      [
        "a run's actor (index)",
        () => runs.record(runStart({ actor: long(900_000) }), { status: "rejected", finishedAt: new Date(), error: { kind: "invalid_args", message: "x" } }),
      ],
      [
        "a run's tool name (index)",
        () =>
          runs.record(
            {
              id: randomUUID(),
              toolName: long(9_000),
              toolSource: "builtin",
              toolSpecHash: "h",
              arguments: {},
              startedAt: new Date(),
              actor: "a",
              origin: "api",
            },
            { status: "rejected", finishedAt: new Date(), error: { kind: "invalid_args", message: "x" } },
          ),
      ],
      [
        "a user's e-mail (unique index)",
        () =>
          db.prisma.user.create({
            data: { id: randomUUID(), email: `${long(20_000)}@example.invalid`, name: "n", emailVerified: false, createdAt: new Date(), updatedAt: new Date() },
          }),
      ],
      [
        "a rate-limit key (unique index)",
        () => db.prisma.rateLimit.create({ data: { id: randomUUID(), key: long(30_000), count: 1, lastRequest: BigInt(Date.now()) } }),
      ],
      [
        "NUL in a text column",
        () => db.prisma.runPreset.create({ data: { id: randomUUID(), toolName: "add", name: "a\u0000b", arguments: {}, createdBy: "t" } }),
      ],
      ["NUL in a JSON column", () => db.sql.query("SELECT $1::jsonb AS j", ['{"a":"\\u0000"}'])],
      ["a lone surrogate in a JSON column", () => db.sql.query("SELECT $1::jsonb AS j", ['{"a":"\\udc00"}'])],
      ["a date before 4713 BC", () => db.sql.query("SELECT $1::timestamptz AS t", ["-271821-04-20T00:00:00.000Z"])],
      ["a date before 4713 BC, written as BC", () => db.sql.query("SELECT $1::timestamptz AS t", ["4714-01-01 BC"])],
      ["a number past int4", () => db.sql.query("SELECT $1::int AS n", ["99999999999"])],
    ];
    for (const [what, attempt] of attempts) {
      const err = await attempt().then(
        () => null,
        (e: unknown) => e,
      );
      expect(err, `${what} was stored`).not.toBeNull();
      const refusal = databaseInputRefusal(err);
      expect(refusal, `${what}: ${String(err).slice(0, 300)}`).not.toBeNull();
      const res = toErrorResponse(err);
      expect(res.status, what).toBe(400);
      const body = (await res.json()) as { error: { kind: string; message: string } };
      expect(body.error.kind).toBe("bad_request");
      expect(body.error.message).toMatch(/PostgreSQL [0-9A-Z]{5}/);
    }
    // What it says is one line, and nothing was logged as an unexpected error.
    expect(logged.filter((l) => l.includes("unexpected error"))).toEqual([]);
  });
});
