import { errorResponse } from "@/lib/http/http";
import { buildDefinition, registryNames } from "@/lib/model-view";
import { parseDefinitionQuery } from "@/lib/model-view/query";
import { guarded } from "@/lib/studio/guarded";
import { getStudio } from "@/lib/studio/studio";

export const dynamic = "force-dynamic";

/**
 * What a model is given for this tool: `?for=<target>` (mcp, openai-chat, openai-responses,
 * anthropic, gemini, rig) and `&strict=true` for the provider's strict mode. Answers
 * `{ for, name, definition, strict, lint, tokens }` (and `strictReason`, `nameMapping` when set).
 */
export const GET = guarded<{ name: string }>("/api/tools/[name]/definition", "GET", async (req, { params }) => {
  const q = parseDefinitionQuery(new URL(req.url).searchParams, ["for", "strict"]);
  const { registry } = await getStudio();
  const tool = await registry.get(params.name);
  if (!tool) return errorResponse("not_found", `No tool named "${params.name}" is registered.`);
  const names = registryNames(await registry.specs(), q.for);
  return Response.json(buildDefinition(tool.spec, q.for, { strict: q.strict, names }), { headers: { "Cache-Control": "no-store" } });
});
