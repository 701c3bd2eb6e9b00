// A run's progress: to its caller at once, to its row (for any instance) at most every PROGRESS_WRITE_MS.
import type { RunStore } from "../runs/store";
import type { ProgressUpdate } from "../tools/define";

/** How often a run's progress is written to its row, at most. */
export const PROGRESS_WRITE_MS = 250;

/**
 * Progress goes to the caller at once and to the run's row at most every PROGRESS_WRITE_MS (the
 * latest update is written at the end of each interval), so any instance can show it. A write
 * that fails is skipped: progress is advisory, the run goes on.
 */
export function storedProgress(runs: RunStore, id: string, forward?: (p: ProgressUpdate) => void): { report(p: ProgressUpdate): void; stop(): void } {
  let last = 0;
  let pending: ProgressUpdate | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const write = (p: ProgressUpdate) => {
    last = Date.now();
    runs.saveProgress(id, p).catch((err: unknown) => console.warn(`[tool-studio] progress of run ${id} not stored: ${(err as Error).message}`.slice(0, 300)));
  };
  return {
    report(p) {
      forward?.(p);
      const wait = last + PROGRESS_WRITE_MS - Date.now();
      if (wait <= 0 && !timer) return write(p);
      pending = p;
      timer ??= setTimeout(
        () => {
          timer = undefined;
          if (pending) write(pending);
          pending = null;
        },
        Math.max(wait, 0),
      );
    },
    stop() {
      clearTimeout(timer);
      timer = undefined;
    },
  };
}
