import type { RunAudit } from "../runs/store";
import type { Run } from "../runs/types";
import type { AuditAppend, AuditLog } from "./log";

/**
 * The "run" entry of every captured run (whatever its status, rejected ones included), written
 * by the run store in the same transaction as the run's final state (its ends of the moment
 * committed together): a run is never stored without its entry, nor an entry without its run.
 * The actor is the authenticated caller, never the client's word.
 */
export function runAudit(chain: AuditLog): RunAudit {
  return { chain, entryOf: runEntry };
}

export function runEntry(run: Run): AuditAppend {
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
