import { z } from "zod";
import { cachedJson } from "@/lib/http/cached-json";
import { HttpError, parseWith } from "@/lib/http/http";
import { queryEntries } from "@/lib/runs/filter-params";
import { guarded } from "@/lib/studio/guarded";
import { getStudio } from "@/lib/studio/studio";
import { listedTool, MAX_TOOLS_PAGE, toolsPage } from "@/lib/tools/listing";

export const dynamic = "force-dynamic";

const Query = z.strictObject({
  limit: z.coerce.number().int().min(1).max(MAX_TOOLS_PAGE).optional(),
  cursor: z.string().min(1).optional(),
});

/** Every tool (`raw` left out: GET /api/tools/{name} has it), or a page of them with `limit` and `cursor`. */
export const GET = guarded("/api/tools", "GET", async (req) => {
  const q = parseWith(Query, queryEntries(new URL(req.url).searchParams), "query");
  if (q.cursor !== undefined && q.limit === undefined) throw new HttpError(400, "bad_request", "Invalid query: /cursor needs /limit", [{ path: "/cursor", message: "needs limit" }]);
  const specs = await (await getStudio()).registry.specs();
  if (q.limit === undefined) {
    // Encoded once per registry change (specs is the same frozen array until then).
    return cachedJson(req, specs, () => ({ tools: specs.map(listedTool) }));
  }
  try {
    const page = toolsPage(specs, q.limit, q.cursor);
    return Response.json({ ...page, tools: page.tools.map(listedTool) });
  } catch (err) {
    const message = (err as Error).message;
    throw new HttpError(400, "bad_request", `Invalid cursor: it ${message}`, [{ path: "/cursor", message }]);
  }
});
