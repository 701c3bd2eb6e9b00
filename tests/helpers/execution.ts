// What the verbs of lib/execution run over, real: a fresh PostgreSQL database, the run store with
// the audit chain, a registry of the given tools, and (asked for) the job queue on the same database.
import { AuditLog, runAudit } from "@/lib/audit";
import type { ExecuteDeps } from "@/lib/execution/request";
import { RunQueue } from "@/lib/queue/run-queue";
import { Registry } from "@/lib/registry/registry";
import { RunStore } from "@/lib/runs/store";
import type { RegisteredTool } from "@/lib/tools/define";
import { randomUUID } from "node:crypto";
import type { RunStart } from "@/lib/runs/columns";
import { createTestDatabase, type TestDatabase } from "./db";

/** A run's start with the fields every run has, and `over`. */
export const runStart = (over: Partial<RunStart> = {}): RunStart => ({
  id: randomUUID(),
  toolName: "add",
  toolSource: "builtin",
  toolSpecHash: "h",
  arguments: {},
  startedAt: new Date(),
  actor: "ada",
  origin: "api",
  ...over,
});

export interface ExecutionFixture {
  db: TestDatabase;
  runs: RunStore;
  audit: AuditLog;
  deps: ExecuteDeps;
  queue?: RunQueue;
  /** The `run` audit entries of a run. */
  entriesOf(runId: string): Promise<number>;
  close(): Promise<void>;
}

export async function executionFixture(tools: RegisteredTool[], opts: { queue?: boolean } = {}): Promise<ExecutionFixture> {
  const db = await createTestDatabase();
  const audit = new AuditLog(db.prisma, db.sql);
  const runs = new RunStore(db.prisma, { audit: runAudit(audit), lease: { owner: "test", ms: 30_000 }, sql: db.sql });
  const registry = new Registry();
  // A new array on each listing, so a test that changes `tools` is seen at once.
  registry.addSource({ id: "builtin", list: () => [...tools] });
  let queue: RunQueue | undefined;
  if (opts.queue) {
    queue = RunQueue.create({ kind: "pg", url: db.url }, { maxRunMs: 60_000, instanceName: "test" });
    await queue.start();
  }
  return {
    db,
    runs,
    audit,
    queue,
    deps: { registry, runs },
    entriesOf: async (runId) =>
      (await db.sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM audit_log WHERE action = 'run' AND detail->>'runId' = $1`, [runId]))[0]!.n,
    async close() {
      await queue?.stop(5000);
      await db.drop();
    },
  };
}
