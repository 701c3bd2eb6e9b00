import { inputAccess, pendingInputs } from "@/lib/execution/pending-input";
import { errorResponse } from "@/lib/http/http";
import { withOperatorDetail } from "@/lib/runs/operator-detail";
import { guarded } from "@/lib/studio/guarded";
import { getStudio } from "@/lib/studio/studio";

export const dynamic = "force-dynamic";

/**
 * The run; while it waits for its caller's input here, also `state: "input_required"` (and the requests, for its caller or an admin).
 * An admin also gets the operator-only `error.detail` (why the tool crashed): never anyone else, nor a model.
 */
export const GET = guarded<{ id: string }>("/api/runs/[id]", "GET", async (_req, { params, principal }) => {
  const { id } = params;
  const studio = await getStudio();
  const found = await studio.runs.get(id);
  if (!found) return errorResponse("not_found", `No run with id "${id}".`);
  const run = await withOperatorDetail(found, principal.role, studio.runs);
  const access = run.status === "running" ? inputAccess(id, principal) : null;
  if (!access || access.kind === "none") return Response.json({ run });
  return Response.json({ run, state: "input_required", ...(access.kind === "ok" ? { inputs: pendingInputs(id) } : {}) });
});
