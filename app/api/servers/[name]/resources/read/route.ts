import { z } from "zod";
import { readJson, requestOrigin } from "@/lib/http/http";
import { liveConnection } from "@/lib/servers/browse";
import { readServerResource } from "@/lib/servers/resources";
import { guarded } from "@/lib/studio/guarded";
import { getStudio } from "@/lib/studio/studio";

export const dynamic = "force-dynamic";

const Read = z.strictObject({ uri: z.string().min(1, "uri must not be empty").max(8192, "uri is longer than 8192 characters") });

/** Reads a resource through the MCP server that owns it (resource links of any scheme); audited. */
export const POST = guarded<{ name: string }>("/api/servers/[name]/resources/read", "POST", async (req, { params, principal }) => {
  const { uri } = await readJson(req, Read);
  const studio = await getStudio();
  liveConnection(studio.mcp, params.name); // 404 unknown, 503 down (with why), before anything is sent
  const result = await readServerResource({ mcp: studio.mcp, audit: studio.audit }, params.name, uri, {
    actor: principal.actor,
    userId: principal.userId,
    from: requestOrigin(req),
  });
  return Response.json(result, { headers: { "cache-control": "no-store" } });
});
