import type { Role } from "../auth/roles";
import type { Run } from "./types";

/** A run as an admin sees it: with the operator-only detail of its error (a stack, a server's raw answer). */
export type OperatorRun = Omit<Run, "error"> & { error: (NonNullable<Run["error"]> & { detail?: string }) | null };

/**
 * Adds `error.detail` for an admin; anyone else (and every model, through /api/mcp) gets the run as
 * it is, without it. One read, only for an admin looking at a run that has an error.
 */
export async function withOperatorDetail(run: Run, role: Role, runs: { getErrorDetail(id: string): Promise<string | null> }): Promise<OperatorRun> {
  if (role !== "admin" || !run.error) return run;
  const detail = await runs.getErrorDetail(run.id);
  return detail ? { ...run, error: { ...run.error, detail } } : run;
}
