import { definitionsFile, serializeDefinitionsFile } from "@/lib/model-view/export";
import { definitionsFileName } from "@/lib/model-view";
import { parseDefinitionQuery } from "@/lib/model-view/query";
import { guarded } from "@/lib/studio/guarded";
import { getStudio } from "@/lib/studio/studio";

export const dynamic = "force-dynamic";

/**
 * The tools the tool list shows under `?source=`, `?q=` and `?hint=` (all of them when none is
 * given) as one file for `?for=<target>` (lib/model-view/export.ts), sent as a download named
 * for the target: what the tool list's "Export definitions" links and `npm run definitions` save.
 */
export const GET = guarded("/api/tools/definitions/export", "GET", async (req) => {
  const q = parseDefinitionQuery(new URL(req.url).searchParams, ["for", "strict", "source", "q", "hint"]);
  const specs = await (await getStudio()).registry.specs();
  const file = definitionsFile(specs, q.for, { strict: q.strict, filter: { source: q.source, q: q.q, hints: q.hints } });
  return new Response(serializeDefinitionsFile(file), {
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "Content-Disposition": `attachment; filename="${definitionsFileName(q.for, file.strict)}"`,
      "Cache-Control": "no-store",
    },
  });
});
