import { z } from "zod";

import { errorResponse, parseWith } from "@/lib/http/http";
import { guarded } from "@/lib/studio/guarded";
import { getStudio } from "@/lib/studio/studio";

export const dynamic = "force-dynamic";

const Query = z.strictObject({
  agent: z.string().min(1).max(200).optional(),
  args: z
    .string()
    .optional()
    .transform((s, ctx) => {
      if (!s) return {};
      try {
        const v = JSON.parse(s);
        if (typeof v === "object" && v !== null && !Array.isArray(v)) return v as Record<string, unknown>;
      } catch {
        // not JSON: reported just below
      }
      ctx.addIssue({ code: "custom", message: "must be a JSON object (URL-encoded)" });
      return z.NEVER;
    }),
});

/** Every domain parameter of one tool resolved at once, for the current agent and partial arguments. */
export const GET = guarded<{ name: string }>("/api/tools/[name]/options", "GET", async (req, { params }) => {
  const { name } = params;
  const q = parseWith(Query, Object.fromEntries(new URL(req.url).searchParams), "query");
  const studio = await getStudio();
  const tool = await studio.registry.get(name);
  if (!tool) return errorResponse("not_found", `No tool named "${name}" is registered.`);
  const options = await studio.domains.resolveTool(tool.spec, { agent: q.agent, args: q.args });
  return Response.json(options, { headers: { "Cache-Control": "no-store" } });
});
