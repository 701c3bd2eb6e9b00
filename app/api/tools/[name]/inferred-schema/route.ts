import { errorResponse } from "@/lib/http/http";
import { guarded } from "@/lib/studio/guarded";
import { getStudio } from "@/lib/studio/studio";

export const dynamic = "force-dynamic";

/**
 * The shapes observed in a tool's captured runs: `{ output, arguments }`, each
 * `{ schema, samples, fields, updatedAt }` or null before the first sample. For a tool that
 * declares an outputSchema also `declared`, `differences` and `violations` (recent runs whose
 * output did not match it); `arguments.differences` compares with the inputSchema.
 */
export const GET = guarded<{ name: string }>("/api/tools/[name]/inferred-schema", "GET", async (_req, { params }) => {
  const { name } = params;
  const studio = await getStudio();
  const tool = await studio.registry.get(name);
  if (!tool) return errorResponse("not_found", `No tool named "${name}" is registered.`);
  const shapes = await studio.shapes.get(tool.spec.name, { outputSchema: tool.spec.outputSchema, inputSchema: tool.spec.inputSchema });
  return Response.json(shapes, { headers: { "Cache-Control": "no-store" } });
});
