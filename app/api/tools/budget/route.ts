import { registryBudget, selectTools } from "@/lib/model-view";
import { parseDefinitionQuery } from "@/lib/model-view/query";
import { guarded } from "@/lib/studio/guarded";
import { getStudio } from "@/lib/studio/studio";

export const dynamic = "force-dynamic";

/**
 * What giving an agent the registry (or `?source=` / `?q=` of it) costs for `?for=<target>`:
 * definition tokens in all, per source and per tool (heaviest first), and the provider's
 * documented limits on tools per request with a warning for each one the set exceeds.
 */
export const GET = guarded("/api/tools/budget", "GET", async (req) => {
  const q = parseDefinitionQuery(new URL(req.url).searchParams, ["for", "strict", "source", "q", "hint"]);
  const specs = await (await getStudio()).registry.specs();
  const subset = q.source || q.q || q.hints ? selectTools(specs, q) : specs;
  return Response.json(registryBudget(subset, q.for, { strict: q.strict, registry: specs }), { headers: { "Cache-Control": "no-store" } });
});
