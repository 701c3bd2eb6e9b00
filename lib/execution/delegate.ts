// A web instance that holds no MCP connections (STUDIO_WORKER=off) still answers synchronous
// calls of MCP tools: it queues the run for the workers, which hold the connections, and waits for
// its end. The worker announces the end (NOTIFY in the run's final transaction); the row is read
// as well every PROGRESS_POLL_MS, which forwards progress and covers a missed notification.
import type { PgNotifier } from "../db/notify";
import type { RunStore } from "../runs/store";
import type { Run } from "../runs/types";
import type { RunStart } from "../runs/columns";
import type { ProgressUpdate } from "../tools/define";
import { sameKeyRun } from "./prepare";
import type { ExecuteDeps, ExecuteRequest, RunDelegate } from "./request";

/** NOTIFY channel: the id of a queued run that just ended (sent by the worker in its final transaction). */
export const RUN_FINAL_CHANNEL = "studio_run_final";

/** A waiting caller's run goes before every queued one. */
const DELEGATED_PRIORITY = 100;

/**
 * Delegate: the run of a tool another process holds is queued for a worker, which claims it,
 * runs it under the same timeout and stores it, and waited for; retries are not for a caller who waits.
 */
export async function runDelegated(deps: ExecuteDeps, delegate: RunDelegate, req: ExecuteRequest, start: RunStart, timeoutMs: number): Promise<Run> {
  try {
    await deps.runs.enqueue(start, DELEGATED_PRIORITY, (tx) => delegate.queue.send(tx, start.id, DELEGATED_PRIORITY, { waited: true }));
  } catch (err) {
    return sameKeyRun(deps, req, start, err);
  }
  req.onStart?.(start.id);
  return delegate.wait(start.id, { signal: req.signal, onProgress: req.onProgress, startWithinMs: timeoutMs });
}

/** How often a waiting instance reads the run's row (its progress, and its end if a notification was missed). */
export const PROGRESS_POLL_MS = 250;

export interface RunWaiterDeps {
  runs: Pick<RunStore, "get" | "endQueued">;
  notifier: PgNotifier | null;
  /** Asks the run to stop, wherever it is (lib/execution/cancel.ts requestCancel). */
  cancel(id: string): Promise<unknown>;
  /** Drops the job of a run ended while queued. */
  dropJob(id: string): Promise<unknown>;
}

export interface WaitOptions {
  signal?: AbortSignal;
  onProgress?(update: ProgressUpdate): void;
  /** A run no worker takes within this time ends `timeout` (no worker running, or all busy). */
  startWithinMs: number;
}

/** Waits for runs other processes run; one LISTEN per process, however many wait. */
export class RunWaiter {
  private readonly waiting = new Map<string, Set<() => void>>();
  private listening: Promise<unknown> | null = null;

  constructor(private readonly deps: RunWaiterDeps) {}

  /** The run once it ended: its outcome as the worker stored it (cancelled, if `signal` aborted). */
  async wait(id: string, opts: WaitOptions): Promise<Run> {
    if (this.deps.notifier) await (this.listening ??= this.deps.notifier.listen(RUN_FINAL_CHANNEL, (runId) => this.wake(runId)));
    const startBy = Date.now() + opts.startWithinMs;
    let lastProgress = "";
    let cancelAsked = false;
    for (;;) {
      const run = await this.deps.runs.get(id);
      if (!run) throw new Error(`Run ${id} is gone (purged while it ran).`);
      if (run.status !== "queued" && run.status !== "running") return run;
      const p = run.progress ? JSON.stringify(run.progress) : "";
      if (p && p !== lastProgress) opts.onProgress?.(run.progress!);
      lastProgress = p;
      if (opts.signal?.aborted && !cancelAsked) {
        cancelAsked = true;
        await this.deps.cancel(id);
        continue;
      }
      if (run.status === "queued" && Date.now() > startBy) {
        const ended = await this.deps.runs.endQueued(id, {
          status: "timeout",
          finishedAt: new Date(),
          error: {
            kind: "timeout",
            message: `No worker started the run within ${Math.round(opts.startWithinMs / 1000)} s: are workers running (npm run worker), and are they busy?`,
          },
        });
        if (ended) {
          await this.deps.dropJob(id).catch(() => undefined);
          return ended;
        }
        continue;
      }
      await this.until(id, PROGRESS_POLL_MS, opts.signal);
    }
  }

  /** Resolves when the run is announced ended, after `ms`, or when `signal` aborts. */
  private until(id: string, ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      let set = this.waiting.get(id);
      if (!set) this.waiting.set(id, (set = new Set()));
      const done = () => {
        clearTimeout(timer);
        signal?.removeEventListener("abort", done);
        set.delete(done);
        if (!set.size) this.waiting.delete(id);
        resolve();
      };
      const timer = setTimeout(done, ms);
      set.add(done);
      signal?.addEventListener("abort", done, { once: true });
    });
  }

  private wake(id: string): void {
    for (const done of [...(this.waiting.get(id) ?? [])]) done();
  }
}
