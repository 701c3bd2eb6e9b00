import { z } from "zod";
import { errorResponse, readJson } from "@/lib/http/http";
import { guarded } from "@/lib/studio/guarded";
import { getStudio } from "@/lib/studio/studio";

export const dynamic = "force-dynamic";

const Rename = z.strictObject({ name: z.string().trim().min(1).max(100) });

/** Renames the preset; the new name must not be another preset's of this tool (409, on the field). */
export const PATCH = guarded<{ name: string; preset: string }>("/api/tools/[name]/presets/[preset]", "PATCH", async (req, { params }) => {
  const { name, preset } = params;
  const body = await readJson(req, Rename);
  const result = await (await getStudio()).presets.rename(name, preset, body.name);
  if (result === "missing") return errorResponse("not_found", `No preset "${preset}" for ${name}.`);
  if (result === "taken")
    return errorResponse("conflict", `A preset named "${body.name}" already exists.`, [{ path: "/name", message: "another preset already has this name" }]);
  return Response.json({ preset: result });
});

export const DELETE = guarded<{ name: string; preset: string }>("/api/tools/[name]/presets/[preset]", "DELETE", async (_req, { params }) => {
  const { name, preset } = params;
  if (!(await (await getStudio()).presets.remove(name, preset))) return errorResponse("not_found", `No preset "${preset}" for ${name}.`);
  return Response.json({ removed: preset });
});
