import { parseWith, toErrorResponse } from "@/lib/http/http";
import { RunFilterParams, queryEntries } from "@/lib/runs/filter-params";
import { getStudio } from "@/lib/studio/studio";

export const dynamic = "force-dynamic";

/** Count, success rate, p50/p95 duration and a series over time, for the same filters as /api/runs. */
export async function GET(req: Request) {
  try {
    const f = parseWith(RunFilterParams.strict(), queryEntries(new URL(req.url).searchParams), "query");
    const studio = await getStudio();
    return Response.json(await studio.runs.stats(f));
  } catch (err) {
    return toErrorResponse(err);
  }
}
