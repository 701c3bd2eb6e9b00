import { z } from "zod";
import { cachedJson } from "@/lib/http/cached-json";
import { HttpError, parseWith } from "@/lib/http/http";
import { queryEntries } from "@/lib/runs/filter-params";
import { guarded } from "@/lib/studio/guarded";
import { getStudio } from "@/lib/studio/studio";
import { listedTool, MAX_TOOLS_PAGE, toolsPage, type ListedTool } from "@/lib/tools/listing";
import type { ToolSpec } from "@/lib/tools/spec";
import { toolSummary, type ToolSummary } from "@/lib/tools/summary";

export const dynamic = "force-dynamic";

const Query = z.strictObject({
  limit: z.coerce.number().int().min(1).max(MAX_TOOLS_PAGE).optional(),
  cursor: z.string().min(1).optional(),
  view: z.enum(["summary", "full"]).optional(),
});

/**
 * Every tool, or a page of them with `limit` and `cursor`. Each as the tool list shows it (a
 * summary: no schemas), or with `view=full` as declared (`raw` left out: GET /api/tools/{name} has
 * it). Summaries by default: with 5,000 tools the full list is 4.6 MB, most of it schemas that a
 * list does not show, and a client spent more time parsing it than the studio serving it.
 */
export const GET = guarded("/api/tools", "GET", async (req) => {
  const q = parseWith(Query, queryEntries(new URL(req.url).searchParams), "query");
  if (q.cursor !== undefined && q.limit === undefined)
    throw new HttpError("bad_request", "Invalid query: /cursor needs /limit", [{ path: "/cursor", message: "needs limit" }]);
  const specs = await (await getStudio()).registry.specs();
  const view = q.view ?? "summary";
  const shown: (spec: ToolSpec) => ListedTool | ToolSummary = view === "full" ? listedTool : toolSummary;
  if (q.limit === undefined) {
    // Encoded once per registry change and view (specs is the same frozen array until then).
    return cachedJson(req, specs, () => ({ tools: specs.map(shown) }), view);
  }
  try {
    const page = toolsPage(specs, q.limit, q.cursor);
    return Response.json({ ...page, tools: page.tools.map(shown) });
  } catch (err) {
    const message = (err as Error).message;
    throw new HttpError("bad_request", `Invalid cursor: it ${message}`, [{ path: "/cursor", message }]);
  }
});
