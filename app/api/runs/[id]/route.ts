import { errorResponse, toErrorResponse } from "@/lib/http/http";
import { getStudio } from "@/lib/studio/studio";

export const dynamic = "force-dynamic";

export async function GET(_req: Request, ctx: { params: Promise<{ id: string }> }) {
  try {
    const { id } = await ctx.params;
    const run = await (await getStudio()).runs.get(id);
    if (!run) return errorResponse(404, "not_found", `No run with id "${id}".`);
    return Response.json({ run });
  } catch (err) {
    return toErrorResponse(err);
  }
}
