import type { RunObserver } from "../execution/execute";
import type { AuditLog } from "./log";

/**
 * Appends a "run" entry for every captured run (whatever its status, rejected ones included).
 * The actor is the run's own (localActor() for the UI and the API, the MCP server's for MCP).
 */
export function auditRunObserver(audit: AuditLog): RunObserver {
  return {
    name: "audit",
    async onRunCaptured(run) {
      await audit.append({
        actor: run.actor,
        action: "run",
        target: run.tool,
        detail: { runId: run.id, status: run.status, origin: run.origin, errorKind: run.error?.kind ?? null },
      });
    },
  };
}
