import { z } from "zod";
import { parseWith } from "@/lib/http/http";
import { exportRuns } from "@/lib/runs/export";
import { RunFilterParams, queryEntries } from "@/lib/runs/filter-params";
import { guarded } from "@/lib/studio/guarded";
import { getStudio } from "@/lib/studio/studio";
import { requestOrigin } from "@/lib/http/http";

export const dynamic = "force-dynamic";

const Query = RunFilterParams.extend({ format: z.enum(["ndjson", "csv"]).default("ndjson") }).strict();

/** The runs matching the history filters, streamed as NDJSON or CSV. Each export is audited. */
export const GET = guarded("/api/runs/export", "GET", async (req, { principal }) => {
  const { format, ...filter } = parseWith(Query, queryEntries(new URL(req.url).searchParams), "query");
  const studio = await getStudio();
  const stamp = new Date().toISOString().replace(/[:.]/g, "-");
  // Audited before the first byte: an export the client abandons was still an export.
  await studio.audit.append({
    actor: principal.actor,
    action: "export",
    target: "runs",
    detail: { format, filter, ...(principal.userId ? { userId: principal.userId } : {}) },
    from: requestOrigin(req),
  });
  const body = exportRuns(studio.runs, filter, format);
  return new Response(body, {
    headers: {
      "Content-Type": format === "csv" ? "text/csv; charset=utf-8" : "application/x-ndjson; charset=utf-8",
      "Content-Disposition": `attachment; filename="runs-${stamp}.${format === "csv" ? "csv" : "ndjson"}"`,
      "Cache-Control": "no-store",
    },
  });
});
