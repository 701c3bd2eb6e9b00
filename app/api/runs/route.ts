import { z } from "zod";
import { parseWith, toErrorResponse, HttpError } from "@/lib/http/http";
import { CursorError } from "@/lib/runs/store";
import { RUN_STATUSES } from "@/lib/runs/types";
import { getStudio } from "@/lib/studio/studio";

export const dynamic = "force-dynamic";

const Query = z.strictObject({
  tool: z.string().min(1).optional(),
  status: z.enum(RUN_STATUSES).optional(),
  limit: z.coerce.number().int().min(1).max(200).optional(),
  cursor: z.string().min(1).optional(),
});

export async function GET(req: Request) {
  try {
    const params = Object.fromEntries([...new URL(req.url).searchParams].filter(([, v]) => v !== ""));
    const q = parseWith(Query, params, "query");
    const studio = await getStudio();
    try {
      return Response.json(await studio.runs.list(q));
    } catch (err) {
      if (err instanceof CursorError) throw new HttpError(400, "bad_request", `Invalid cursor: ${err.message}`, [{ path: "/cursor", message: err.message }]);
      throw err;
    }
  } catch (err) {
    return toErrorResponse(err);
  }
}
