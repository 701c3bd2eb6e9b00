import { z } from "zod";

import { readJson } from "@/lib/http/http";
import { guarded } from "@/lib/studio/guarded";
import { getStudio } from "@/lib/studio/studio";

export const dynamic = "force-dynamic";

const Body = z.strictObject({
  domain: z.string().min(1),
  agent: z.string().min(1).max(200).optional(),
  args: z.record(z.string(), z.unknown()).optional(),
});

/** One option domain's current choices: `{"options": [{value, label?, hint?, group?, disabled?}]}`. */
export const POST = guarded("/api/tools/param-options", "POST", async (req) => {
  const body = await readJson(req, Body);
  const studio = await getStudio();
  const { agent, options } = await studio.domains.resolve(body.domain, { agent: body.agent, args: body.args });
  return Response.json({ options, agent }, { headers: { "Cache-Control": "no-store" } });
});
