// Run now: a call answered with its run, the tool called in this process (or, when a worker
// holds the tool, queued for it and waited for: ./delegate.ts).
import type { RunOutcome } from "../runs/store";
import type { Run } from "../runs/types";
import { isKeyTaken } from "./idempotency";
import { isDatabaseUnavailable } from "../db/faults";
import type { ExecuteDeps, ExecuteRequest } from "./request";
import { prepare, sameKeyRun } from "./prepare";
import { runDelegated } from "./delegate";
import { invoke } from "./invoke";
import { storedProgress } from "./progress";
import { finishLater, finishOrRecordFailure, notStarted } from "./store-outcome";
import { notify } from "./observers";

/**
 * Validates, runs and captures one tool call. Every call that reaches a known tool is
 * captured, whatever its outcome; invalid arguments are captured as `rejected` without running.
 */
export async function executeTool(deps: ExecuteDeps, req: ExecuteRequest): Promise<Run> {
  const p = await prepare(deps, req);
  if ("run" in p) return p.run;
  const { tool, start, timeoutMs } = p;
  if (deps.delegate?.wanted(tool)) return runDelegated(deps, deps.delegate, req, start, timeoutMs);

  try {
    await deps.runs.start(start);
  } catch (err) {
    if (start.idempotencyKey && isKeyTaken(err)) return sameKeyRun(deps, req, start, err);
    // The insert may have committed with its answer lost (a frozen or dropped connection): close
    // the row once the database is back, so it is not left `running`. No row, nothing to close.
    if (isDatabaseUnavailable(err)) finishLater(deps.runs, start, notStarted()).catch(() => null); // it settles with the stored run or null, never rejects
    throw err;
  }
  req.onStart?.(start.id);
  const progress = storedProgress(deps.runs, start.id, req.onProgress);
  // A server's requests for input go to a caller who can answer them: a person through the UI or
  // the API, or the MCP client calling through /api/mcp when it declared the capability (relayed);
  // otherwise (an agent that cannot answer) they are refused at once.
  const askable = req.origin !== "mcp";
  const relay = askable ? undefined : req.relay;
  const outcome = await invoke(tool, start, timeoutMs, {
    signal: req.signal,
    onProgress: progress.report,
    onInput: req.onInput,
    askable,
    relay,
    logs: req.logs,
  }).finally(progress.stop);
  const run = await finishOrRecordFailure(deps.runs, start, outcome);
  // Observers read and write the database: an outcome not stored yet is told to them by nobody (its audit entry commits with it).
  return withResultMeta(run.capture ? run : await notify(deps, run, tool.spec), outcome);
}

/** The tool's result `_meta` (not stored) on the run handed back to this caller, when the stored output is this outcome's. */
export function withResultMeta(run: Run, outcome: RunOutcome): Run {
  if (!outcome.resultMeta || !run.output || run.status !== outcome.status) return run;
  return { ...run, output: { ...run.output, _meta: outcome.resultMeta } };
}
