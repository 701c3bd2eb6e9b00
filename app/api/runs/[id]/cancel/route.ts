import { requestCancel } from "@/lib/execution/cancel";
import { errorResponse } from "@/lib/http/http";
import { guarded } from "@/lib/studio/guarded";
import { getStudio } from "@/lib/studio/studio";

export const dynamic = "force-dynamic";

/**
 * Cancels a run in flight or still queued, whichever instance runs it: 200 once it is cancelled, 202 when the
 * instance running it was asked but has not stored the outcome within 5 s, 409 when it has
 * already finished; 403 for another person's run unless the caller is an admin.
 */
export const POST = guarded<{ id: string }>("/api/runs/[id]/cancel", "POST", async (_req, { params, principal }) => {
  const { id } = params;
  const studio = await getStudio();
  const r = await requestCancel({ runs: studio.runs, notifier: studio.notifier, cancelQueued: studio.cancelQueued }, id, principal);
  switch (r.kind) {
    case "cancelled":
      return Response.json({ cancelled: true });
    case "requested":
      return Response.json(
        { cancelled: false, requested: true, message: `The instance running ${id} was asked to cancel it and has not stored an outcome yet.` },
        { status: 202 },
      );
    case "not_found":
      return errorResponse("not_found", `No run with id "${id}".`);
    case "forbidden":
      return errorResponse("forbidden", r.message);
    case "finished":
      // `running` here: no instance can reach it (its outcome is being stored, or its process died and its lease will end it).
      return errorResponse(
        "conflict",
        r.status === "running"
          ? `Run ${id} can no longer be cancelled: it is finishing or its process is gone (its lease will end it).`
          : `Run ${id} is not in flight (status ${r.status}).`,
      );
  }
});
