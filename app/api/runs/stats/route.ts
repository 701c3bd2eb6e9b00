import { parseWith } from "@/lib/http/http";
import { RunFilterParams, queryEntries } from "@/lib/runs/filter-params";
import { guarded } from "@/lib/studio/guarded";
import { getStudio } from "@/lib/studio/studio";

export const dynamic = "force-dynamic";

/** Count, success rate, p50/p95 duration and a series over time, for the same filters as /api/runs. */
export const GET = guarded("/api/runs/stats", "GET", async (req) => {
  const f = parseWith(RunFilterParams.strict(), queryEntries(new URL(req.url).searchParams), "query");
  const studio = await getStudio();
  return Response.json(await studio.runs.stats(f));
});
