import { cancelRun } from "@/lib/execution/active-runs";
import { errorResponse, toErrorResponse } from "@/lib/http/http";
import { getStudio } from "@/lib/studio/studio";

export const dynamic = "force-dynamic";

/** Cancels a run in flight; 409 when it has already finished. */
export async function POST(_req: Request, ctx: { params: Promise<{ id: string }> }) {
  try {
    const { id } = await ctx.params;
    if (cancelRun(id)) return Response.json({ cancelled: true });
    const run = await (await getStudio()).runs.get(id);
    if (!run) return errorResponse(404, "not_found", `No run with id "${id}".`);
    return errorResponse(409, "bad_request", `Run ${id} is not in flight (status ${run.status}).`);
  } catch (err) {
    return toErrorResponse(err);
  }
}
