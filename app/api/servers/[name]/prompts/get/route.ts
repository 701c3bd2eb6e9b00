import { z } from "zod";
import { readJson, requestOrigin } from "@/lib/http/http";
import { getServerPrompt } from "@/lib/servers/browse";
import { guarded } from "@/lib/studio/guarded";
import { getStudio } from "@/lib/studio/studio";

export const dynamic = "force-dynamic";

const Get = z.strictObject({
  name: z.string().min(1, "name must not be empty").max(500, "name is longer than 500 characters"),
  arguments: z
    .record(z.string().max(200, "an argument name is longer than 200 characters"), z.string().max(100_000, "an argument is longer than 100,000 characters"))
    .optional(),
});

/** Gets a prompt of one MCP server with its arguments (prompts/get); audited. */
export const POST = guarded<{ name: string }>("/api/servers/[name]/prompts/get", "POST", async (req, { params, principal }) => {
  const body = await readJson(req, Get);
  const studio = await getStudio();
  const result = await getServerPrompt({ mcp: studio.mcp, audit: studio.audit }, params.name, body.name, body.arguments ?? {}, {
    actor: principal.actor,
    userId: principal.userId,
    from: requestOrigin(req),
  });
  return Response.json(result, { headers: { "cache-control": "no-store" } });
});
