// Claim: a worker takes a queued run, calls its tool and stores its outcome, with the retry the
// queue policy asks for in the same transaction.
import { randomUUID } from "node:crypto";
import type { ClaimedRun, InFinalTransaction, RunOutcome, RunStart } from "../runs/store";
import { ToolError } from "../tools/errors";
import { limitsFor, retryDelay, retryPolicyFor } from "../queue/policy";
import { DEFAULT_TIMEOUT_MS, type ExecuteDeps, type QueueDeps, type QueuedRunResult } from "./request";
import { errorOf, invoke } from "./invoke";
import { storedProgress } from "./progress";
import { finishOrRecordFailure } from "./store-outcome";
import { notify } from "./observers";

/**
 * A worker runs a queued run: it claims the row (queued -> running, leased to this process),
 * calls the tool as it is registered now, and stores the outcome as any run. Nothing to do when
 * the run is no longer queued (cancelled while it waited, or already taken); `held` when a
 * concurrency limit of the queue policy is full (the run stays queued). A failure the policy
 * retries queues the next attempt, as a new run, in the transaction that stores this one's end.
 */
export async function runQueued(
  deps: ExecuteDeps & Partial<QueueDeps>,
  runId: string,
  opts: { signal?: AbortSignal; retries?: boolean; stopping?: () => boolean } = {},
): Promise<QueuedRunResult> {
  const policy = deps.queuePolicy;
  const claimed = await deps.runs.claim(runId, policy && ((t) => limitsFor(t, policy())));
  if (!claimed) return null;
  if ("held" in claimed) return claimed;
  const { start } = claimed;
  let tool = await deps.registry.get(start.toolName);
  if (!tool && deps.sourcesSettled) {
    await deps.sourcesSettled();
    tool = await deps.registry.get(start.toolName);
  }
  if (!tool) {
    const e = new ToolError("not_found", `No tool named "${start.toolName}" is registered any more; the run was queued when it was.`);
    return {
      run: await finishOrRecordFailure(deps.runs, start, { status: "error", finishedAt: new Date(), error: errorOf(e) }, deps.onQueuedFinal?.(start.id)),
    };
  }
  const timeoutMs = start.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const progress = storedProgress(deps.runs, start.id);
  // The caller of a queued run reads its requests for input with GET /api/runs/{id}/input (on the instance running it).
  let outcome = await invoke(tool, start, timeoutMs, { signal: opts.signal, onProgress: progress.report, askable: start.origin !== "mcp" }).finally(
    progress.stop,
  );
  // The job's signal aborts when the worker stops and its drain time runs out: no one cancelled
  // the run, it was cut short, so it is stored as a run a dying process leaves (never retried).
  if (outcome.status === "cancelled" && opts.signal?.aborted && opts.stopping?.()) {
    outcome = {
      status: "interrupted",
      finishedAt: outcome.finishedAt,
      error: { kind: "other", message: "The worker stopped (its drain time ran out) before this run finished." },
    };
  }
  const also = both(opts.retries === false ? undefined : retryOf(deps, claimed, outcome), deps.onQueuedFinal?.(start.id));
  const run = await finishOrRecordFailure(deps.runs, start, outcome, also);
  return { run: run.capture ? run : await notify(deps, run, tool.spec) };
}

function both(a?: InFinalTransaction, b?: InFinalTransaction): InFinalTransaction | undefined {
  if (!a || !b) return a ?? b;
  return async (tx) => {
    await a(tx);
    await b(tx);
  };
}

/** The next attempt of a queued run that failed, when the queue policy retries it: queued to start after the policy's wait. */
function retryOf(deps: ExecuteDeps & Partial<QueueDeps>, claimed: ClaimedRun, outcome: RunOutcome): InFinalTransaction | undefined {
  const queue = deps.queue;
  if (!queue || (outcome.status !== "error" && outcome.status !== "timeout")) return undefined;
  const { start, attempt, priority } = claimed;
  const policy = retryPolicyFor({ name: start.toolName, source: start.toolSource }, deps.queuePolicy?.() ?? []);
  const delayMs = retryDelay(policy, attempt, outcome.error?.kind ?? (outcome.status === "timeout" ? "timeout" : undefined));
  if (delayMs === null) return undefined;
  return async (tx) => {
    const now = new Date();
    // The key names the first attempt (a client's retry gets that run and follows retries from it).
    const next: RunStart = { ...start, id: randomUUID(), startedAt: now, retryOf: start.id, attempt: attempt + 1, idempotencyKey: undefined };
    await deps.runs.enqueueIn(tx, next, priority, (t) => queue.send(t, next.id, priority, { startAfter: new Date(now.getTime() + delayMs) }));
  };
}
