import { errorResponse } from "@/lib/http/http";
import { guarded } from "@/lib/studio/guarded";
import { getStudio } from "@/lib/studio/studio";

export const dynamic = "force-dynamic";

export const GET = guarded<{ name: string }>("/api/tools/[name]", "GET", async (_req, { params }) => {
  const { name } = params;
  const tool = await (await getStudio()).registry.get(name);
  if (!tool) return errorResponse("not_found", `No tool named "${name}" is registered.`);
  return Response.json({ tool: tool.spec });
});
