import type { RunFinalHook } from "../runs/store";
import type { Run } from "../runs/types";
import type { AuditLog } from "./log";

/**
 * The "run" entry of every captured run (whatever its status, rejected ones included), written
 * in the same transaction as the run's final state (group-committed with the other appends of
 * the moment): a run is never stored without its entry, nor an entry without its run. The actor
 * is the authenticated caller, never the client's word.
 */
export function runAuditHook(audit: AuditLog): RunFinalHook {
  return (write, opts) => audit.appendWithTx(write, runEntry, opts);
}

export function runEntry(run: Run) {
  return {
    actor: run.actor,
    action: "run" as const,
    target: run.tool,
    detail: {
      runId: run.id,
      status: run.status,
      origin: run.origin,
      errorKind: run.error?.kind ?? null,
      ...(run.actorId ? { userId: run.actorId } : {}),
      ...(run.tokenId ? { tokenId: run.tokenId } : {}),
      ...(run.clientName ? { client: run.clientName } : {}),
    },
  };
}
