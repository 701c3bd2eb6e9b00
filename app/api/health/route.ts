import { getDb } from "@/lib/db/client";
import { guarded } from "@/lib/studio/guarded";
import { getStudio } from "@/lib/studio/studio";

export const dynamic = "force-dynamic";

/**
 * Is this instance ready and does it reach its database? 200 `{ ok: true }` once the studio has
 * booted (registry, run store, config sync: the work a first request would otherwise pay) and
 * the database answers, else 503 `unavailable` with Retry-After (within the database timeouts).
 * Public, like any load balancer's health check: it tells nothing but that. The error page asks
 * it to say "the database is unreachable".
 */
export const GET = guarded("/api/health", "GET", async () => {
  await getStudio();
  const db = await getDb();
  await db.prisma.$queryRaw`SELECT 1`;
  return Response.json({ ok: true }, { headers: { "cache-control": "no-store" } });
});
