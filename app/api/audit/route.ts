import { AuditQuery } from "@/lib/audit";
import { parseWith } from "@/lib/http/http";
import { guarded } from "@/lib/studio/guarded";
import { getStudio } from "@/lib/studio/studio";

export const dynamic = "force-dynamic";

/** `GET /api/audit?action=&actor=&target=&since=&until=&limit=&cursor=` → `{ entries, nextCursor }`, newest first. */
export const GET = guarded("/api/audit", "GET", async (req) => {
  const params = Object.fromEntries([...new URL(req.url).searchParams].filter(([, v]) => v !== ""));
  const q = parseWith(AuditQuery, params, "query");
  const studio = await getStudio();
  return Response.json(await studio.audit.list(q), { headers: { "cache-control": "no-store" } });
});
