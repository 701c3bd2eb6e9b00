import { z } from "zod";
import { readJson, requestOrigin } from "@/lib/http/http";
import { guarded } from "@/lib/studio/guarded";
import { getStudio } from "@/lib/studio/studio";

export const dynamic = "force-dynamic";

const Body = z.strictObject({ dryRun: z.boolean().optional() });

/** Applies the retention rules of the runtime config; audited in the purge's own transaction (dry runs too, as what was looked at). */
export const POST = guarded("/api/runs/purge", "POST", async (req, { principal }) => {
  const { dryRun } = await readJson(req, Body);
  const studio = await getStudio();
  const retention = studio.config.store.current().config.retention;
  const report = await studio.runs.purge(retention, {
    dryRun,
    audited: {
      chain: studio.audit,
      entryOf: (r) => ({
        actor: principal.actor,
        action: dryRun ? "purge.preview" : "purge",
        target: "runs",
        detail: { retention, ...r, ...(principal.userId ? { userId: principal.userId } : {}) },
        from: requestOrigin(req),
      }),
    },
  });
  return Response.json(report);
});
