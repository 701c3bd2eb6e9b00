import { z } from "zod";
import { errorResponse, readJson } from "@/lib/http/http";
import { guarded } from "@/lib/studio/guarded";
import { getStudio } from "@/lib/studio/studio";

export const dynamic = "force-dynamic";

const Body = z.strictObject({
  name: z.string().trim().min(1).max(100),
  arguments: z.record(z.string(), z.unknown()),
  agent: z.string().min(1).max(200).nullable().optional(),
});

export const GET = guarded<{ name: string }>("/api/tools/[name]/presets", "GET", async (_req, { params }) => {
  const { name } = params;
  return Response.json({ presets: await (await getStudio()).presets.list(name) });
});

/** Saves the arguments under a name for this tool (the same name replaces the old preset). */
export const POST = guarded<{ name: string }>("/api/tools/[name]/presets", "POST", async (req, { params, principal }) => {
  const { name } = params;
  const body = await readJson(req, Body);
  const studio = await getStudio();
  if (!(await studio.registry.get(name))) return errorResponse("not_found", `No tool named "${name}" is registered.`);
  const preset = await studio.presets.save({ tool: name, name: body.name, arguments: body.arguments, agent: body.agent, createdBy: principal.actor });
  return Response.json({ preset }, { status: 201 });
});
