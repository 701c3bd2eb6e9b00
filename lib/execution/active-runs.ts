import { ToolError } from "../tools/errors";

/**
 * Runs in flight in this process, so a cancel request can reach them. On globalThis: Next loads
 * this module once for pages and once for route handlers, and both must see the same runs.
 */
const g = globalThis as typeof globalThis & { __toolStudioActiveRuns?: Map<string, AbortController> };
const active = (g.__toolStudioActiveRuns ??= new Map<string, AbortController>());

export function trackRun(id: string, controller: AbortController): () => void {
  active.set(id, controller);
  return () => active.delete(id);
}

/** Cancels a run in flight here; false when it is not (finished, or another process). */
export function cancelRun(id: string, reason = "Cancelled by the caller."): boolean {
  const c = active.get(id);
  if (!c) return false;
  c.abort(new ToolError("cancelled", reason));
  return true;
}

export const activeRunIds = (): string[] => [...active.keys()];
