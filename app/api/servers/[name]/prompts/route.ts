import { listServerPrompts } from "@/lib/servers/browse";
import { guarded } from "@/lib/studio/guarded";
import { getStudio } from "@/lib/studio/studio";

export const dynamic = "force-dynamic";

/** The prompts of one MCP server with their declared arguments (asked of the server now). */
export const GET = guarded<{ name: string }>("/api/servers/[name]/prompts", "GET", async (_req, { params }) => {
  const studio = await getStudio();
  return Response.json(await listServerPrompts(studio.mcp, params.name), { headers: { "cache-control": "no-store" } });
});
