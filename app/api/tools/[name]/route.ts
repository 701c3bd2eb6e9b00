import { errorResponse, toErrorResponse } from "@/lib/http/http";
import { getStudio } from "@/lib/studio/studio";

export const dynamic = "force-dynamic";

export async function GET(_req: Request, ctx: { params: Promise<{ name: string }> }) {
  try {
    const { name } = await ctx.params;
    const tool = await (await getStudio()).registry.get(name);
    if (!tool) return errorResponse(404, "not_found", `No tool named "${name}" is registered.`);
    return Response.json({ tool: tool.spec });
  } catch (err) {
    return toErrorResponse(err);
  }
}
