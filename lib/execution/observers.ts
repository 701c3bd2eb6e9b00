// After capture: the run told to the observers that read every stored run.
import type { Run } from "../runs/types";
import type { ToolSpec } from "../tools/spec";
import type { ExecuteDeps } from "./request";

/** Tells the observers (inference, ...) of a run once it is stored, in order; a failing observer is logged, the run stands. */
export async function notify(deps: ExecuteDeps, run: Run, spec: ToolSpec): Promise<Run> {
  for (const o of deps.observers ?? []) {
    try {
      await o.onRunCaptured(run, spec);
    } catch (err) {
      console.error(`[tool-studio] run observer "${o.name}" failed for run ${run.id}`, err);
    }
  }
  return run;
}
