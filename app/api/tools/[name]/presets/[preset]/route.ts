import { errorResponse, toErrorResponse } from "@/lib/http/http";
import { getStudio } from "@/lib/studio/studio";

export const dynamic = "force-dynamic";

export async function DELETE(_req: Request, ctx: { params: Promise<{ name: string; preset: string }> }) {
  try {
    const { name, preset } = await ctx.params;
    if (!(await (await getStudio()).presets.remove(name, preset))) return errorResponse(404, "not_found", `No preset "${preset}" for ${name}.`);
    return Response.json({ removed: preset });
  } catch (err) {
    return toErrorResponse(err);
  }
}
