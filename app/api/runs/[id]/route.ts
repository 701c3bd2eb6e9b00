import { errorResponse } from "@/lib/http/http";
import { guarded } from "@/lib/studio/guarded";
import { getStudio } from "@/lib/studio/studio";

export const dynamic = "force-dynamic";

export const GET = guarded<{ id: string }>("/api/runs/[id]", "GET", async (_req, { params }) => {
  const { id } = params;
  const run = await (await getStudio()).runs.get(id);
  if (!run) return errorResponse(404, "not_found", `No run with id "${id}".`);
  return Response.json({ run });
});
