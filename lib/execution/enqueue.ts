// Enqueue: `"mode": "async"`, a call stored `queued` with its job for a worker (./claim.ts).
import type { Run } from "../runs/types";
import { priorityFor } from "../queue/policy";
import type { CallRequest, ExecuteDeps, QueueDeps } from "./request";
import { prepare, sameKeyRun } from "./prepare";

/**
 * `"mode": "async"`: the same checks as a run here (a refused call is captured as `rejected` at
 * once), then the run is stored `queued` with its job, for a worker to run (runQueued).
 */
export async function enqueueTool(deps: ExecuteDeps & QueueDeps, req: CallRequest & { priority?: number }): Promise<Run> {
  const p = await prepare(deps, req);
  if ("run" in p) return p.run;
  const tool = { name: p.start.toolName, source: p.start.toolSource };
  const priority = Math.trunc(req.priority ?? priorityFor(tool, deps.queuePolicy?.() ?? []));
  return deps.runs.enqueue(p.start, priority, (tx) => deps.queue.send(tx, p.start.id, priority)).catch((err: unknown) => sameKeyRun(deps, req, p.start, err));
}
