import { z } from "zod";
import { parseWith } from "@/lib/http/http";
import { guarded } from "@/lib/studio/guarded";
import { getStudio } from "@/lib/studio/studio";

export const dynamic = "force-dynamic";

const Query = z.strictObject({ limit: z.coerce.number().int().min(1).max(500).optional() });

/** What the messaging tools delivered, newest first. */
export const GET = guarded("/api/outbox", "GET", async (req) => {
  const q = parseWith(Query, Object.fromEntries(new URL(req.url).searchParams), "query");
  return Response.json({ messages: await (await getStudio()).outbox.list(q.limit ?? 100) });
});
