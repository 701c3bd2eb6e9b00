import { guarded } from "@/lib/studio/guarded";
import { getStudio } from "@/lib/studio/studio";

export const dynamic = "force-dynamic";

export const GET = guarded("/api/tools", "GET", async () => {
  const studio = await getStudio();
  return Response.json({ tools: await studio.registry.list() });
});
