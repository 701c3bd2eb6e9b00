import { listServerResources } from "@/lib/servers/browse";
import { guarded } from "@/lib/studio/guarded";
import { getStudio } from "@/lib/studio/studio";

export const dynamic = "force-dynamic";

/** The resources and resource templates of one MCP server (asked of the server now). */
export const GET = guarded<{ name: string }>("/api/servers/[name]/resources", "GET", async (_req, { params }) => {
  const studio = await getStudio();
  return Response.json(await listServerResources(studio.mcp, params.name), { headers: { "cache-control": "no-store" } });
});
