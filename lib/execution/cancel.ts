// Cancel a run from any instance. The run's AbortController lives in the process that runs it
// (active-runs.ts); another instance asks that process over NOTIFY and waits a moment for the
// run's row to show the outcome.
import type { PgNotifier } from "../db/notify";
import type { RunStore } from "../runs/store";
import type { RunStatus } from "../runs/types";
import { cancelRun } from "./active-runs";
import { mayActOnRun } from "./pending-input";

/** The channel that carries the id of a run to cancel to the instance running it. */
export const CANCEL_CHANNEL = "studio_cancel";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export type CancelAnswer =
  /** Cancelled (here, or by the instance running it, which stored the outcome). */
  | { kind: "cancelled"; status: RunStatus }
  /** The instance running it was asked but has not stored an outcome yet (it may be dying; its lease then ends the run). */
  | { kind: "requested" }
  | { kind: "not_found" }
  /** Another person's run: only its caller or an admin may cancel it, as only they may answer its input. */
  | { kind: "forbidden"; message: string }
  /** Not in flight: it has an outcome (perhaps reached while the cancel travelled). */
  | { kind: "finished"; status: RunStatus };

export interface CancelDeps {
  runs: Pick<RunStore, "get">;
  /** PostgreSQL: how to reach the instance running it. Without it (PGlite) only this process runs tools. */
  notifier?: PgNotifier | null;
  /** Ends a run still waiting in the job queue (and drops its job); null when no longer queued. */
  cancelQueued?: (id: string) => Promise<unknown>;
  /** How long to wait for the owner's outcome (default 5 s) and how often to look (default 50 ms). */
  waitMs?: number;
  pollMs?: number;
}

/** Who asks for the cancel. The studio's own cancels (a delegated run's waiter) name none. */
export interface CancelCaller {
  actor: string;
  userId: string | null;
  role: string;
}

export async function requestCancel(deps: CancelDeps, id: string, caller?: CancelCaller): Promise<CancelAnswer> {
  if (caller) {
    // The run's row is written before its tool is invoked: a run in flight here is found too.
    const run = await deps.runs.get(id);
    if (!run) return { kind: "not_found" };
    if (!mayActOnRun({ actor: run.actor, actorId: run.actorId }, caller))
      return { kind: "forbidden", message: `Only the caller of run ${id} (${run.actor}) or an admin may cancel it.` };
  }
  if (cancelRun(id)) return { kind: "cancelled", status: "cancelled" };
  let run = await deps.runs.get(id);
  if (!run) return { kind: "not_found" };
  if (run.status === "queued" && deps.cancelQueued) {
    if (await deps.cancelQueued(id)) return { kind: "cancelled", status: "cancelled" };
    // A worker took it meanwhile: cancel it as a run in flight.
    if (cancelRun(id)) return { kind: "cancelled", status: "cancelled" };
    run = await deps.runs.get(id);
    if (!run) return { kind: "not_found" };
  }
  if (run.status !== "running" || !deps.notifier) return { kind: "finished", status: run.status };
  await deps.notifier.notify(CANCEL_CHANNEL, id);
  const end = Date.now() + (deps.waitMs ?? 5000);
  while (Date.now() < end) {
    await new Promise((r) => setTimeout(r, deps.pollMs ?? 50));
    const now = await deps.runs.get(id);
    if (!now) return { kind: "not_found" }; // purged meanwhile
    if (now.status === "cancelled") return { kind: "cancelled", status: now.status };
    if (now.status !== "running") return { kind: "finished", status: now.status };
  }
  return { kind: "requested" };
}

/** The owner's side: cancel the runs other instances ask for, if they are ours. */
export async function followCancels(notifier: PgNotifier): Promise<() => void> {
  return notifier.listen(CANCEL_CHANNEL, (payload) => {
    if (UUID.test(payload)) cancelRun(payload, "Cancelled by the caller.");
  });
}
