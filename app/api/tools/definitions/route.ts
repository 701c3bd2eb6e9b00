import { buildDefinitions, mappingList, registryNames, selectTools } from "@/lib/model-view";
import { parseDefinitionQuery } from "@/lib/model-view/query";
import { guarded } from "@/lib/studio/guarded";
import { getStudio } from "@/lib/studio/studio";

export const dynamic = "force-dynamic";

/**
 * Every tool (or those the tool list shows under `?source=`, `?q=` and `?hint=`) as
 * `?for=<target>` gives it to a model: `{ for, total, items, nameMappings }`, each item as
 * GET /api/tools/{name}/definition answers it. Names the provider refuses are mapped across the
 * whole registry; `nameMappings` lists every mapping of the registry (the way back from a
 * provider's tool call to the tool).
 */
export const GET = guarded("/api/tools/definitions", "GET", async (req) => {
  const q = parseDefinitionQuery(new URL(req.url).searchParams, ["for", "strict", "source", "q", "hint"]);
  const specs = await (await getStudio()).registry.specs();
  const items = buildDefinitions(selectTools(specs, q), q.for, { strict: q.strict, registry: specs });
  const nameMappings = mappingList(registryNames(specs, q.for));
  return Response.json({ for: q.for, total: items.length, items, nameMappings }, { headers: { "Cache-Control": "no-store" } });
});
