import { buildDefinitions, selectTools } from "@/lib/model-view";
import { parseDefinitionQuery } from "@/lib/model-view/query";
import { guarded } from "@/lib/studio/guarded";
import { getStudio } from "@/lib/studio/studio";

export const dynamic = "force-dynamic";

/**
 * Every tool (or those of `?source=`, or matching `?q=` in name, title or description) as
 * `?for=<target>` gives it to a model: `{ for, total, items }`, each item as
 * GET /api/tools/{name}/definition answers it. Names are mapped across the whole registry.
 */
export const GET = guarded("/api/tools/definitions", "GET", async (req) => {
  const q = parseDefinitionQuery(new URL(req.url).searchParams, ["for", "strict", "source", "q"]);
  const specs = await (await getStudio()).registry.specs();
  const items = buildDefinitions(selectTools(specs, q), q.for, { strict: q.strict, registry: specs });
  return Response.json({ for: q.for, total: items.length, items }, { headers: { "Cache-Control": "no-store" } });
});
