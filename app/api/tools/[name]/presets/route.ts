import { z } from "zod";
import { errorResponse, readJson, toErrorResponse } from "@/lib/http/http";
import { getStudio, localActor } from "@/lib/studio/studio";

export const dynamic = "force-dynamic";

const Body = z.strictObject({
  name: z.string().trim().min(1).max(100),
  arguments: z.record(z.string(), z.unknown()),
  agent: z.string().min(1).nullable().optional(),
});

export async function GET(_req: Request, ctx: { params: Promise<{ name: string }> }) {
  try {
    const { name } = await ctx.params;
    return Response.json({ presets: await (await getStudio()).presets.list(name) });
  } catch (err) {
    return toErrorResponse(err);
  }
}

/** Saves the arguments under a name for this tool (the same name replaces the old preset). */
export async function POST(req: Request, ctx: { params: Promise<{ name: string }> }) {
  try {
    const { name } = await ctx.params;
    const body = await readJson(req, Body);
    const studio = await getStudio();
    if (!(await studio.registry.get(name))) return errorResponse(404, "not_found", `No tool named "${name}" is registered.`);
    const preset = await studio.presets.save({ tool: name, name: body.name, arguments: body.arguments, agent: body.agent, createdBy: localActor() });
    return Response.json({ preset }, { status: 201 });
  } catch (err) {
    return toErrorResponse(err);
  }
}
