import { errorResponse } from "@/lib/http/http";
import { EXPORT_FORMATS, exportShape, type ExportFormat } from "@/lib/inference/export";
import { SHAPE_KINDS, type ShapeKind } from "@/lib/inference/store";
import { guarded } from "@/lib/studio/guarded";
import { getStudio } from "@/lib/studio/studio";

export const dynamic = "force-dynamic";

/**
 * The inferred shape of a tool's output (or `?part=arguments`) as a file:
 * `?format=json` (JSON Schema), `typescript` (types) or `zod` (a zod schema).
 */
export const GET = guarded<{ name: string }>("/api/tools/[name]/inferred-schema/download", "GET", async (req, { params }) => {
  const url = new URL(req.url);
  const format = url.searchParams.get("format") ?? "json";
  const part = url.searchParams.get("part") ?? "output";
  if (!(EXPORT_FORMATS as readonly string[]).includes(format)) return errorResponse("bad_request", `format must be one of ${EXPORT_FORMATS.join(", ")}.`);
  if (!(SHAPE_KINDS as readonly string[]).includes(part)) return errorResponse("bad_request", `part must be one of ${SHAPE_KINDS.join(", ")}.`);
  const studio = await getStudio();
  const tool = await studio.registry.get(params.name);
  if (!tool) return errorResponse("not_found", `No tool named "${params.name}" is registered.`);
  const shapes = await studio.shapes.get(tool.spec.name);
  const observed = shapes[part as ShapeKind];
  if (!observed) return errorResponse("not_found", `No ${part} of "${tool.spec.name}" has been observed yet.`);
  const file = await exportShape(observed.schema, tool.spec.name, part, format as ExportFormat);
  return new Response(file.text, {
    headers: {
      "Content-Type": file.contentType,
      "Content-Disposition": `attachment; filename="${file.fileName}"`,
      "Cache-Control": "no-store",
    },
  });
});
