// The durable job queue for tool runs sent with `"mode": "async"`: pg-boss on the studio's own
// database (PostgreSQL, or PGlite in-process). A queued run is a `runs` row (status `queued`) and
// a job whose id is the run's id, written in one transaction; a worker takes the job, claims the
// run and runs it like any other (lib/execution/execute.ts runQueued).
import { fromPglite, fromPrisma, PgBoss, type ConstructorOptions, type Job } from "pg-boss";
import type { Db } from "../db/client";
import type { Prisma, PrismaClient } from "../db/generated/client";
import type { RunStore } from "../runs/store";

export const RUN_QUEUE = "tool-runs";
/** pg-boss keeps its tables in a schema of its own, beside the studio's. */
export const QUEUE_SCHEMA = "pgboss";

export interface RunJob {
  runId: string;
  /** Kept in the job so a run held back by a concurrency limit is re-offered at the same priority. */
  priority?: number;
  /** How often a concurrency limit held it back already (its next wait grows with it). */
  deferrals?: number;
  /** A caller waits for this run (a web instance handed it over): it is not retried. */
  waited?: boolean;
}

/** Priorities a caller may ask for: higher runs first. */
export const MIN_PRIORITY = -100;
export const MAX_PRIORITY = 100;

export interface RunQueueOptions {
  /** How long a run may take at most (ms): a job active longer than this and a margin is expired by pg-boss. */
  maxRunMs: number;
  /** A name for this process in pg-boss's instance registry (`web`, `worker`). */
  instanceName?: string;
}

export interface WorkOptions {
  /** Runs this process takes at once (default 4). */
  concurrency?: number;
}

/**
 * What a worker does with a job: run the queued run; the signal aborts when pg-boss cancels the
 * job. `{ deferMs }` means a concurrency limit is full: the run stays queued and is offered again
 * after that wait (as a new job of the same run), and this worker takes other jobs meanwhile.
 */
export type RunJobHandler = (runId: string, signal: AbortSignal, job: { deferrals: number; waited: boolean }) => Promise<void | { deferMs: number }>;

export class RunQueue {
  private started = false;
  private stopRequested = false;
  /** This process's pollers (work()), woken when a job they could take becomes due. */
  private readonly pollers: string[] = [];

  private constructor(
    private readonly boss: PgBoss,
    private readonly opts: RunQueueOptions,
  ) {}

  /**
   * pg-boss's defaults poll once a second after every fetch (≈1 job/s, ../shared/STACK.md):
   * LISTEN/NOTIFY wakes workers at once, heartbeats let a dead worker's job be noticed in
   * seconds, and maintenance runs often enough for that to matter.
   */
  static create(db: Pick<Db, "kind" | "url" | "pglite">, opts: RunQueueOptions): RunQueue {
    const common: ConstructorOptions = {
      schema: QUEUE_SCHEMA,
      useListenNotify: true,
      schedule: false,
      monitorIntervalSeconds: 5,
      superviseIntervalSeconds: 10,
      instanceName: opts.instanceName,
    };
    let boss: PgBoss;
    if (db.kind === "pglite") {
      if (!db.pglite) throw new Error("The embedded database is not available to the job queue.");
      boss = new PgBoss({ ...common, db: fromPglite(db.pglite), backend: "pglite" });
    } else {
      if (!db.url) throw new Error("The job queue needs the database's connection string.");
      boss = new PgBoss({ ...common, connectionString: db.url, max: 4, application_name: "tool-studio-queue" });
    }
    return new RunQueue(boss, opts);
  }

  /** Creates pg-boss's schema and the run queue if they are missing. */
  async start(): Promise<void> {
    if (this.started) return;
    this.boss.on("error", (err) => console.error("[tool-studio] job queue:", err instanceof Error ? err.message : err));
    await this.boss.start();
    this.started = true;
    const expireInSeconds = Math.ceil(this.opts.maxRunMs / 1000) + 120;
    // A job whose handler failed (the database away while claiming) is tried again: the handler
    // is idempotent (it only claims a run still queued), so a repeat after a dead worker is a no-op.
    const settings = {
      notify: true,
      retryLimit: 5,
      retryDelay: 2,
      retryBackoff: true,
      retryDelayMax: 60,
      expireInSeconds,
      heartbeatSeconds: 10,
      deleteAfterSeconds: 24 * 3600,
    };
    if (!(await this.boss.getQueue(RUN_QUEUE))) {
      try {
        await this.boss.createQueue(RUN_QUEUE, settings);
      } catch (err) {
        // Another instance created it between the check and here.
        if (!(await this.boss.getQueue(RUN_QUEUE))) throw err;
      }
    }
  }

  /**
   * Adds the job of a queued run inside the transaction that writes its row. Its first job has
   * the run's id; a run held back by a limit gets further jobs with ids of their own, and every
   * job names its run in `data.runId`.
   */
  async send(tx: Prisma.TransactionClient, runId: string, priority: number, opts: { startAfter?: Date; waited?: boolean } = {}): Promise<void> {
    const data: RunJob = { runId, priority, ...(opts.waited ? { waited: true } : {}) };
    const id = await this.boss.send(RUN_QUEUE, data, { id: runId, priority, startAfter: opts.startAfter, db: fromPrisma(tx) });
    if (!id) throw new Error(`The job queue did not take run ${runId}.`);
    if (opts.startAfter) this.wakeAt(opts.startAfter);
  }

  /**
   * A job sent to start later is announced (NOTIFY) when it is written, not when it is due, and
   * an idle poller otherwise looks again only every 10 s: this process wakes its own pollers
   * when it is due. Pollers elsewhere find it at their next look.
   */
  private wakeAt(when: Date): void {
    if (!this.pollers.length) return;
    const timer = setTimeout(
      () => {
        if (this.started) for (const id of this.pollers) this.boss.notifyWorker(id);
      },
      Math.max(0, when.getTime() - Date.now()) + 20,
    );
    timer.unref?.();
  }

  /**
   * Starts taking jobs in this process: `concurrency` pollers of one job each. A poller that
   * finished a job looks again at once (pg-boss would wait out its polling interval first, so a
   * backlog would drain at one run per interval); one that found nothing waits for a NOTIFY.
   */
  async work(handler: RunJobHandler, opts: WorkOptions = {}): Promise<void> {
    const options = { localConcurrency: 1, batchSize: 1, pollingIntervalSeconds: 2, notifyPollingIntervalSeconds: 10, heartbeatRefreshSeconds: 2 };
    for (let i = 0; i < Math.max(1, opts.concurrency ?? 4); i++) {
      // Known once work() answers: the first job is handled only after a fetch that follows it.
      const poller: { id?: string } = {};
      poller.id = await this.boss.work<RunJob>(RUN_QUEUE, options, async ([job]: Job<RunJob>[]) => {
        try {
          if (!job) return;
          const deferrals = job.data.deferrals ?? 0;
          const r = await handler(job.data.runId, job.signal, { deferrals, waited: job.data.waited === true });
          // Sent before this job completes: a crash in between leaves this job to expire and be
          // tried again, and a second job of a run no longer queued is a no-op.
          if (r) {
            const next: RunJob = { ...job.data, priority: job.data.priority ?? 0, deferrals: deferrals + 1 };
            const startAfter = new Date(Date.now() + r.deferMs);
            await this.boss.send(RUN_QUEUE, next, { priority: next.priority, startAfter });
            this.wakeAt(startAfter);
          }
        } finally {
          if (poller.id) this.boss.notifyWorker(poller.id);
        }
      });
      this.pollers.push(poller.id);
    }
  }

  /** Drops the jobs of a run cancelled while queued (a worker that took one meanwhile finds the run no longer queued). */
  async cancel(runId: string): Promise<void> {
    const later = await this.boss.findJobs<RunJob>(RUN_QUEUE, { data: { runId }, queued: true });
    await this.boss.cancel(RUN_QUEUE, [...new Set([runId, ...later.map((j) => j.id)])]);
  }

  /**
   * Ends queued runs that no job will ever run (their job failed every retry, e.g. the database
   * was away for minutes while workers claimed it, or was deleted by hand): `interrupted`, with
   * their audit entry, so no run waits forever. Runs queued less than `graceMs` ago are left
   * alone (their job may be committing). Any instance may sweep; a run is ended once.
   */
  static async sweepOrphans(prisma: PrismaClient, runs: Pick<RunStore, "endQueued">, graceMs = 60_000): Promise<number> {
    const orphans = await prisma.$queryRawUnsafe<{ id: string }[]>(
      `SELECT r.id::text AS id FROM runs r
        WHERE r.status = 'queued' AND r.queued_at < $1
          AND NOT EXISTS (SELECT 1 FROM ${QUEUE_SCHEMA}.job j WHERE j.name = $2 AND j.data->>'runId' = r.id::text AND j.state IN ('created', 'retry', 'active'))
        LIMIT 1000`,
      new Date(Date.now() - graceMs),
      RUN_QUEUE,
    );
    let ended = 0;
    for (const { id } of orphans) {
      const run = await runs.endQueued(id, {
        status: "interrupted",
        finishedAt: new Date(),
        error: { kind: "other", message: "The job queue gave up on this run before any worker could start it; nothing ran. Send it again." },
      });
      if (run) ended++;
    }
    return ended;
  }

  /** Stops taking jobs, waits up to `timeoutMs` for the ones in hand, and closes pg-boss's connections. */
  /** True once stop() began: a job aborted from then on was cut short by the stop, not cancelled. */
  get stopping(): boolean {
    return this.stopRequested;
  }

  async stop(timeoutMs = 30_000): Promise<void> {
    if (!this.started) return;
    this.started = false;
    this.stopRequested = true;
    await this.boss.stop({ graceful: true, timeout: timeoutMs, close: true });
  }
}
