import { z } from "zod";
import { parseWith, toErrorResponse } from "@/lib/http/http";
import { exportRuns } from "@/lib/runs/export";
import { RunFilterParams, queryEntries } from "@/lib/runs/filter-params";
import { getStudio, localActor } from "@/lib/studio/studio";
import { requestOrigin } from "@/lib/http/http";

export const dynamic = "force-dynamic";

const Query = RunFilterParams.extend({ format: z.enum(["ndjson", "csv"]).default("ndjson") }).strict();

/** The runs matching the history filters, streamed as NDJSON or CSV. Each export is audited. */
export async function GET(req: Request) {
  try {
    const { format, ...filter } = parseWith(Query, queryEntries(new URL(req.url).searchParams), "query");
    const studio = await getStudio();
    const stamp = new Date().toISOString().replace(/[:.]/g, "-");
    // Audited before the first byte: an export the client abandons was still an export.
    await studio.audit.append({ actor: localActor(), action: "export", target: "runs", detail: { format, filter }, from: requestOrigin(req) });
    const body = exportRuns(studio.runs, filter, format);
    return new Response(body, {
      headers: {
        "Content-Type": format === "csv" ? "text/csv; charset=utf-8" : "application/x-ndjson; charset=utf-8",
        "Content-Disposition": `attachment; filename="runs-${stamp}.${format === "csv" ? "csv" : "ndjson"}"`,
        "Cache-Control": "no-store",
      },
    });
  } catch (err) {
    return toErrorResponse(err);
  }
}
