import { z } from "zod";
import { parseWith } from "@/lib/http/http";
import { RunFilterParams, queryEntries } from "@/lib/runs/filter-params";

import { guarded } from "@/lib/studio/guarded";
import { getStudio } from "@/lib/studio/studio";

export const dynamic = "force-dynamic";

const Query = RunFilterParams.extend({
  limit: z.coerce.number().int().min(1).max(200).optional(),
  cursor: z.string().min(1).optional(),
}).strict();

export const GET = guarded("/api/runs", "GET", async (req) => {
  const q = parseWith(Query, queryEntries(new URL(req.url).searchParams), "query");
  const studio = await getStudio();
  return Response.json(await studio.runs.list(q));
});
