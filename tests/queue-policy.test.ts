// The queue policy on a real PostgreSQL with real pg-boss workers: concurrency limits per tool
// and per server held across every poller, retries as new linked runs, priorities by rule.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { AuditLog, runAudit } from "@/lib/audit";
import { RuntimeConfigSchema, type QueueRuleConfig } from "@/lib/config/schema";
import { enqueueTool, executeTool, runQueued, type ExecuteDeps } from "@/lib/execution/execute";
import { deferralDelay } from "@/lib/queue/policy";
import { RunQueue } from "@/lib/queue/run-queue";
import { Registry } from "@/lib/registry/registry";
import { RunStore } from "@/lib/runs/store";
import type { Run } from "@/lib/runs/types";
import { defineTool, type RegisteredTool } from "@/lib/tools/define";
import { ToolError } from "@/lib/tools/errors";
import { structured } from "@/lib/tools/output";
import { createTestDatabase, type TestDatabase } from "./helpers/db";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until<T>(read: () => Promise<T>, ok: (v: T) => boolean, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await read();
    if (ok(v) || Date.now() > end) return v;
    await sleep(25);
  }
}

/** A tool that takes `ms` and counts how many of the tools sharing `gauge` run at once. */
function gauged(name: string, gauge: { now: number; max: number }, ms = 150): RegisteredTool {
  return defineTool({
    name,
    description: name,
    inputSchema: { type: "object", properties: { hold: { type: "number" } } } as const,
    async run({ hold }) {
      gauge.now++;
      gauge.max = Math.max(gauge.max, gauge.now);
      try {
        await sleep(hold ?? ms);
      } finally {
        gauge.now--;
      }
      return structured({ ok: true });
    },
  });
}

describe("the queue policy", () => {
  let db: TestDatabase;
  let web: RunQueue;
  let worker: RunQueue;
  let runs: RunStore;
  let policy: QueueRuleConfig[] = [];
  const slow = { now: 0, max: 0 };
  const server = { now: 0, max: 0 };
  let flakyCalls = 0;
  let deps: ExecuteDeps & { queue: RunQueue; queuePolicy: () => QueueRuleConfig[] };
  const setPolicy = (rules: unknown[]) => (policy = RuntimeConfigSchema.parse({ queuePolicy: rules }).queuePolicy);

  beforeAll(async () => {
    db = await createTestDatabase();
    runs = new RunStore(db.prisma, { audit: runAudit(new AuditLog(db.prisma)), lease: { owner: "worker-1", ms: 30_000 } });
    const registry = new Registry();
    const flaky = defineTool({
      name: "flaky",
      description: "fails with the kinds it is given, one per call, then succeeds",
      inputSchema: { type: "object", properties: { fails: { type: "array", items: { type: "string" } } } } as const,
      async run({ fails }) {
        const kind = fails?.[flakyCalls++];
        if (kind) throw new ToolError(kind as "network", `failure ${flakyCalls}`);
        return structured({ attempt: flakyCalls });
      },
    });
    registry.addSource({ id: "builtin", list: () => [gauged("slow", slow), gauged("quick", { now: 0, max: 0 }, 5), flaky] });
    const onServer = (t: RegisteredTool): RegisteredTool => ({ ...t, spec: { ...t.spec, source: { kind: "mcp", id: "mcp:s1", server: "s1" } } });
    registry.addSource({ id: "mcp:s1", list: () => [onServer(gauged("s1__a", server)), onServer(gauged("s1__b", server))] });
    web = RunQueue.create({ kind: "pg", url: db.url }, { maxRunMs: 60_000, instanceName: "web" });
    await web.start();
    deps = { registry, runs, queue: web, queuePolicy: () => policy };
    worker = RunQueue.create({ kind: "pg", url: db.url }, { maxRunMs: 60_000, instanceName: "worker" });
    await worker.start();
    // As lib/studio wires it: a held run is offered again after the policy's wait.
    await worker.work(
      async (id, signal, job) => {
        const r = await runQueued({ ...deps, queue: worker }, id, { signal });
        if (r && "held" in r) return { deferMs: deferralDelay(job.deferrals) };
      },
      { concurrency: 6 },
    );
  });
  afterAll(async () => {
    await worker?.stop(5000);
    await web?.stop(5000);
    await db?.drop();
  });
  afterEach(() => {
    policy = [];
  });

  const send = (tool: string, args: Record<string, unknown> = {}, priority?: number) =>
    enqueueTool(deps, { tool, arguments: args, origin: "api", actor: "queue@example.com", priority });
  const settle = (ids: string[]) =>
    until(
      () => Promise.all(ids.map((id) => runs.get(id))),
      (rs) => rs.every((r) => r && r.status !== "queued" && r.status !== "running"),
    ) as Promise<Run[]>;

  it("a tool limit holds its runs to that many at once across six pollers, and other tools go past the held ones", async () => {
    setPolicy([{ tool: "slow", concurrency: 2 }]);
    const held = await Promise.all(Array.from({ length: 6 }, () => send("slow")));
    const quick = await Promise.all([send("quick"), send("quick")]);
    const quickDone = await settle(quick.map((r) => r.id));
    expect(quickDone.map((r) => r.status)).toEqual(["success", "success"]);
    // The quick runs did not wait behind the six slow ones (three rounds of 150 ms at two at once).
    const stillWaiting = await Promise.all(held.map((r) => runs.get(r.id)));
    expect(stillWaiting.some((r) => r?.status === "queued")).toBe(true);
    const done = await settle(held.map((r) => r.id));
    expect(done.map((r) => r.status)).toEqual(Array(6).fill("success"));
    expect(slow.max).toBe(2);
  });

  it("a server limit covers all of that server's tools together", async () => {
    setPolicy([{ source: "mcp:s1", concurrency: 1 }]);
    const sent = await Promise.all([send("s1__a"), send("s1__b"), send("s1__a"), send("s1__b")]);
    const done = await settle(sent.map((r) => r.id));
    expect(done.map((r) => r.status)).toEqual(Array(4).fill("success"));
    expect(server.max).toBe(1);
    // The runs did not overlap: each began after the one before it ended.
    const spans = done.map((r) => [Date.parse(r.startedAt), Date.parse(r.finishedAt!)] as const).sort((a, b) => a[0] - b[0]);
    for (let i = 1; i < spans.length; i++) expect(spans[i]![0]).toBeGreaterThanOrEqual(spans[i - 1]![1]);
  });

  it("synchronous runs count toward a limit: a queued run waits until the one running here ends", async () => {
    setPolicy([{ tool: "slow", concurrency: 1 }]);
    const direct = executeTool(deps, { tool: "slow", arguments: { hold: 1200 }, origin: "api", actor: "queue@example.com" });
    await until(
      () => db.prisma.run.count({ where: { toolName: "slow", status: "running" } }),
      (n) => n === 1,
    );
    const queued = await send("slow", { hold: 10 });
    await sleep(700);
    expect((await runs.get(queued.id))?.status).toBe("queued");
    const first = await direct;
    const [run] = await settle([queued.id]);
    expect(run!.status).toBe("success");
    expect(Date.parse(run!.startedAt)).toBeGreaterThanOrEqual(Date.parse(first.finishedAt!));
  });

  it("a held run cancelled while it waits is ended and its later jobs are dropped", async () => {
    setPolicy([{ tool: "slow", concurrency: 1 }]);
    // The first holds the limit long enough for the second to be held even on a loaded machine
    // (at 1.5 s a slow worker could claim the second only after the first ended: never held).
    const first = await send("slow", { hold: 5000 });
    const second = await send("slow", { hold: 10 });
    // Held at least once: its first job completed and a later one waits.
    await until(
      () =>
        db.prisma.$queryRawUnsafe<{ n: number }[]>(
          `SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'tool-runs' AND data->>'runId' = $1 AND id <> $1::uuid`,
          second.id,
        ),
      (r) => (r[0]?.n ?? 0) > 0,
    );
    expect(await runs.endQueued(second.id, { status: "cancelled", finishedAt: new Date() })).not.toBeNull();
    await web.cancel(second.id);
    const waiting = await db.prisma.$queryRawUnsafe<unknown[]>(
      `SELECT 1 FROM pgboss.job WHERE name = 'tool-runs' AND data->>'runId' = $1 AND state IN ('created', 'retry')`,
      second.id,
    );
    expect(waiting).toHaveLength(0);
    await settle([first.id]);
    expect((await runs.get(second.id))?.status).toBe("cancelled");
    // Nothing is left to sweep: a cancelled run is not queued.
    expect(await RunQueue.sweepOrphans(db.prisma, runs, 0)).toBe(0);
  });

  it("a failure the policy retries comes back as a new run naming the one it repeats, until one succeeds", async () => {
    setPolicy([{ tool: "flaky", retries: 3, retryDelayMs: 50, retryOn: ["network", "timeout"] }]);
    flakyCalls = 0;
    const first = await send("flaky", { fails: ["network", "network"] });
    const chain: Run[] = [];
    let id: string | undefined = first.id;
    while (id) {
      const [run] = await settle([id]);
      chain.push(run!);
      id =
        run!.status === "error"
          ? (
              await until(
                () => db.prisma.run.findFirst({ where: { retryOfId: run!.id } }),
                (r) => r !== null,
              )
            )?.id
          : undefined;
    }
    expect(chain.map((r) => [r.status, r.attempt ?? 1, r.error?.kind ?? null])).toEqual([
      ["error", 1, "network"],
      ["error", 2, "network"],
      ["success", 3, null],
    ]);
    expect(chain[1]!.retryOf).toBe(chain[0]!.id);
    expect(chain[2]!.retryOf).toBe(chain[1]!.id);
    expect(chain[2]!.output?.structuredContent).toEqual({ attempt: 3 });
    expect(chain.every((r) => r.actor === "queue@example.com" && JSON.stringify(r.arguments) === JSON.stringify(first.arguments))).toBe(true);
    // The wait doubles: 50 ms, then 100 ms, counted from the end of the failed attempt.
    expect(Date.parse(chain[2]!.startedAt) - Date.parse(chain[1]!.finishedAt!)).toBeGreaterThanOrEqual(100);
    const audited = await db.prisma.auditEntry.findMany({ where: { action: "run" } });
    for (const r of chain) expect(audited.filter((e) => (e.detail as { runId?: string }).runId === r.id)).toHaveLength(1);
  });

  it("a kind the policy does not retry, or the last attempt, ends the chain", async () => {
    setPolicy([{ tool: "flaky", retries: 1, retryDelayMs: 10, retryOn: ["network"] }]);
    flakyCalls = 0;
    const other = await send("flaky", { fails: ["provider"] });
    const [o] = await settle([other.id]);
    expect(o!.status).toBe("error");
    flakyCalls = 0;
    const twice = await send("flaky", { fails: ["network", "network", "network"] });
    await settle([twice.id]);
    const retry = await until(
      () => db.prisma.run.findFirst({ where: { retryOfId: twice.id } }),
      (r) => r !== null,
    );
    const [last] = await settle([retry!.id]);
    expect(last).toMatchObject({ status: "error", attempt: 2 });
    await sleep(300);
    expect(await db.prisma.run.count({ where: { retryOfId: { in: [other.id, last!.id] } } })).toBe(0);
  });

  it("a rule's priority is the default; the caller's own priority wins", async () => {
    setPolicy([{ tool: "quick", priority: 40 }]);
    const byRule = await send("quick");
    const byCaller = await send("quick", {}, -7);
    const plain = await send("slow", { hold: 1 });
    expect([byRule.priority, byCaller.priority, plain.priority]).toEqual([40, -7, 0]);
    await settle([byRule.id, byCaller.id, plain.id]);
  });
});
