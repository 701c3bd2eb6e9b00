import { toErrorResponse } from "@/lib/http/http";
import { getStudio } from "@/lib/studio/studio";

export const dynamic = "force-dynamic";

export async function GET() {
  try {
    const studio = await getStudio();
    return Response.json({ tools: await studio.registry.list() });
  } catch (err) {
    return toErrorResponse(err);
  }
}
