// Storing a run's outcome, whatever the database does: an outcome it refuses is replaced by an
// error saying so, and one it cannot take now (away) is answered at once and stored once it is back.
import { RunNotRunningError, unstoredRun, type InFinalTransaction, type RunStore, type RunOutcome, type RunStart } from "../runs/store";
import type { Run } from "../runs/types";
import { ToolError } from "../tools/errors";
import { holdRun } from "./active-runs";
import { isDatabaseUnavailable } from "../db/faults";
import { errorOf, safeStringify } from "./invoke";

export function notStarted(): RunOutcome {
  const e = new ToolError("other", "The database became unreachable as the run was starting; the tool was not called.");
  return { status: "interrupted", finishedAt: new Date(), error: errorOf(e), freeKey: true };
}

/** An output the database cannot take must not leave the run `running` forever. */
export async function finishOrRecordFailure(runs: RunStore, start: RunStart, outcome: RunOutcome, also?: InFinalTransaction): Promise<Run> {
  try {
    return await runs.finish(start.id, start.startedAt, outcome, also, { start });
  } catch (err) {
    // Finished meanwhile by someone else (marked interrupted): that outcome stands.
    if (RunNotRunningError.isInstance(err)) {
      const stored = await runs.get(start.id);
      if (stored) return stored;
    }
    if (isDatabaseUnavailable(err)) return answerUnstored(runs, start, outcome, also);
    console.error(`[tool-studio] could not store the outcome of run ${start.id}`, err);
    const e = new ToolError("provider", "The tool's result could not be stored.", {
      detail: `${(err as Error).message}\n${safeStringify(outcome.structuredContent ?? outcome.content)}`,
    });
    const failed: RunOutcome = { status: "error", finishedAt: outcome.finishedAt, error: errorOf(e) };
    return runs.finish(start.id, start.startedAt, failed, also, { start }).catch((again: unknown) => {
      // The database went away meanwhile (e.g. a transaction that timed out): the tool still ran.
      if (isDatabaseUnavailable(again)) return answerUnstored(runs, start, outcome, also);
      throw again;
    });
  }
}

/**
 * The tool ran but its outcome could not be stored: its caller gets the outcome at once, never
 * "try again" (a retry would run it twice); it is written once the database is back. Not waited
 * for: holding every caller of an outage open for seconds more cost the faults test resets.
 */
function answerUnstored(runs: RunStore, start: RunStart, outcome: RunOutcome, also?: InFinalTransaction): Run {
  finishLater(runs, start, outcome, also, { start }).catch(() => null); // settles, never rejects
  return unstoredRun(start, outcome);
}

/** How long a live process keeps trying to store the outcome of a run while the database is away. */
export const FINISH_RETRY_MS = 30 * 60_000;

/**
 * Retries with backoff (0.5 s doubling to 10 s) so no run is left `running` by a live process.
 * An outcome the database refuses for another reason than being away is replaced, once, by an
 * error saying so (as finishOrRecordFailure does), and that is stored instead. `opts.start`: a
 * start row the database lost is written whole (RunStore.finish).
 */
export function finishLater(
  runs: RunStore,
  start: RunStart,
  outcome: RunOutcome,
  also?: InFinalTransaction,
  opts: { start?: RunStart } = {},
): Promise<Run | null> {
  const until = Date.now() + FINISH_RETRY_MS;
  let delay = 500;
  let pending = outcome;
  let settle!: (run: Run | null) => void;
  const settled = new Promise<Run | null>((r) => (settle = r));
  const held = holdRun(start.id);
  const release = (run: Run | null = null) => {
    held();
    settle(run);
  };
  const attempt = () => {
    runs.finish(start.id, start.startedAt, pending, also, opts).then(release, (err: unknown) => {
      // Already finished (the earlier attempt did commit) or never written (a start that failed): nothing left to do.
      if (RunNotRunningError.isInstance(err)) return release();
      if (Date.now() >= until) {
        release();
        console.error(
          `[tool-studio] gave up storing the outcome of run ${start.id} after ${FINISH_RETRY_MS / 60_000} min; once its lease ends it is marked interrupted`,
          err,
        );
        return;
      }
      if (!isDatabaseUnavailable(err) && pending === outcome) {
        console.error(`[tool-studio] could not store the outcome of run ${start.id}; storing an error instead`, err);
        const e = new ToolError("provider", "The tool's result could not be stored.", { detail: (err as Error).message });
        pending = { status: "error", finishedAt: outcome.finishedAt, error: errorOf(e) };
      }
      delay = Math.min(delay * 2, 10_000);
      setTimeout(attempt, delay).unref?.();
    });
  };
  setTimeout(attempt, delay).unref?.();
  return settled;
}
