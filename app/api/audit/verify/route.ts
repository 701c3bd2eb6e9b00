import { AuditVerifyQuery, verifyShared } from "@/lib/audit";
import { parseWith } from "@/lib/http/http";
import { guarded } from "@/lib/studio/guarded";
import { getStudio } from "@/lib/studio/studio";

export const dynamic = "force-dynamic";

/**
 * `GET /api/audit/verify[?from=<seq>][&checkpoint=<seq>:<hash>]` → `{ ok, entries, head, firstBad? }`.
 * Walks the whole chain (from `from`): linear in its length.
 */
export const GET = guarded("/api/audit/verify", "GET", async (req) => {
  const params = Object.fromEntries([...new URL(req.url).searchParams].filter(([, v]) => v !== ""));
  const q = parseWith(AuditVerifyQuery, params, "query");
  const studio = await getStudio();
  const report = q.from || q.checkpoint ? await studio.audit.verify(q) : await verifyShared(studio.audit);
  return Response.json(report, { headers: { "cache-control": "no-store" } });
});
