import { errorResponse } from "@/lib/http/http";
import { guarded } from "@/lib/studio/guarded";
import { getStudio } from "@/lib/studio/studio";

export const dynamic = "force-dynamic";

export const DELETE = guarded<{ name: string; preset: string }>("/api/tools/[name]/presets/[preset]", "DELETE", async (_req, { params }) => {
  const { name, preset } = params;
  if (!(await (await getStudio()).presets.remove(name, preset))) return errorResponse(404, "not_found", `No preset "${preset}" for ${name}.`);
  return Response.json({ removed: preset });
});
