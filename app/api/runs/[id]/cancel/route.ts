import { cancelRun } from "@/lib/execution/active-runs";
import { errorResponse } from "@/lib/http/http";
import { guarded } from "@/lib/studio/guarded";
import { getStudio } from "@/lib/studio/studio";

export const dynamic = "force-dynamic";

/** Cancels a run in flight; 409 when it has already finished. */
export const POST = guarded<{ id: string }>("/api/runs/[id]/cancel", "POST", async (_req, { params }) => {
  const { id } = params;
  if (cancelRun(id)) return Response.json({ cancelled: true });
  const run = await (await getStudio()).runs.get(id);
  if (!run) return errorResponse(404, "not_found", `No run with id "${id}".`);
  return errorResponse(409, "conflict", `Run ${id} is not in flight (status ${run.status}).`);
});
