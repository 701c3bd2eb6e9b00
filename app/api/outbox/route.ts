import { z } from "zod";
import { parseWith, toErrorResponse } from "@/lib/http/http";
import { getStudio } from "@/lib/studio/studio";

export const dynamic = "force-dynamic";

const Query = z.strictObject({ limit: z.coerce.number().int().min(1).max(500).optional() });

/** What the messaging tools delivered, newest first. */
export async function GET(req: Request) {
  try {
    const q = parseWith(Query, Object.fromEntries(new URL(req.url).searchParams), "query");
    return Response.json({ messages: await (await getStudio()).outbox.list(q.limit ?? 100) });
  } catch (err) {
    return toErrorResponse(err);
  }
}
