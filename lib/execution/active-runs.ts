import { processSlot } from "../process/slots";
import { ToolError } from "../tools/errors";

/**
 * Runs in flight in this process, so a cancel request can reach them. One per process
 * (lib/process/slots.ts): Next loads this module once for pages and once for route handlers, and
 * both must see the same runs.
 */
const active = processSlot<Map<string, AbortController>>("activeRuns").use(() => new Map());

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

/**
 * Runs this process no longer executes but still has to store (an outcome waiting for the
 * database): their leases are renewed too, so nobody marks them interrupted meanwhile.
 */
const storing = processSlot<Set<string>>("storingRuns").use(() => new Set());

export function holdRun(id: string): () => void {
  storing.add(id);
  return () => storing.delete(id);
}

/** Every run this process answers for: in flight, or with an outcome still to store. */
export const heldRunIds = (): string[] => [...new Set([...active.keys(), ...storing])];
