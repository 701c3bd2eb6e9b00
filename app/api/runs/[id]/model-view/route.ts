import { errorResponse } from "@/lib/http/http";
import { runModelView } from "@/lib/model-view";
import { parseDefinitionQuery } from "@/lib/model-view/query";
import { guarded } from "@/lib/studio/guarded";
import { getStudio } from "@/lib/studio/studio";

export const dynamic = "force-dynamic";

/**
 * The run's result as `?for=<target>`'s model receives it: the tool-result message, what of the
 * result it carries, changes or drops, its tokens, and for a failed run the model-visible error
 * (the operator-only detail is never part of it).
 */
export const GET = guarded<{ id: string }>("/api/runs/[id]/model-view", "GET", async (req, { params }) => {
  const q = parseDefinitionQuery(new URL(req.url).searchParams, ["for"]);
  const run = await (await getStudio()).runs.get(params.id);
  if (!run) return errorResponse("not_found", `No run with id "${params.id}".`);
  if (run.status === "queued" || run.status === "running") return errorResponse("conflict", `Run "${params.id}" is ${run.status}: it has no result yet.`);
  return Response.json(runModelView(run, q.for), { headers: { "Cache-Control": "no-store" } });
});
