import { z } from "zod";
import { getConfigStore } from "@/lib/config/store";
import { readJson, requestOrigin, toErrorResponse } from "@/lib/http/http";
import { getStudio, localActor } from "@/lib/studio/studio";

export const dynamic = "force-dynamic";

const Body = z.strictObject({ dryRun: z.boolean().optional() });

/** Applies the retention rules of the runtime config; audited (dry runs too, as what was looked at). */
export async function POST(req: Request) {
  try {
    const { dryRun } = await readJson(req, Body);
    const studio = await getStudio();
    const retention = getConfigStore().current().config.retention;
    const report = await studio.runs.purge(retention, { dryRun });
    await studio.audit.append({ actor: localActor(), action: dryRun ? "purge.preview" : "purge", target: "runs", detail: { retention, ...report }, from: requestOrigin(req) });
    return Response.json(report);
  } catch (err) {
    return toErrorResponse(err);
  }
}
