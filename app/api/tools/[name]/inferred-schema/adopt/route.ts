import { errorResponse, requestOrigin } from "@/lib/http/http";
import { adoptOutputSchema } from "@/lib/runtime-tools/adopt";
import { guarded } from "@/lib/studio/guarded";
import { getStudio } from "@/lib/studio/studio";

export const dynamic = "force-dynamic";

/**
 * Adopts the inferred output shape of a runtime tool (defined in the config) as its declared
 * outputSchema: a config change, audited ("config.change" and "tool.adopt-output-schema").
 */
export const POST = guarded<{ name: string }>("/api/tools/[name]/inferred-schema/adopt", "POST", async (req, { params, principal }) => {
  const studio = await getStudio();
  const tool = await studio.registry.get(params.name);
  if (!tool) return errorResponse("not_found", `No tool named "${params.name}" is registered.`);
  if (tool.spec.source.kind !== "runtime")
    return errorResponse("conflict", `"${tool.spec.name}" is not defined in the config: only runtime tools can adopt an outputSchema here.`);
  const { output } = await studio.shapes.get(tool.spec.name);
  if (!output) return errorResponse("conflict", `No output of "${tool.spec.name}" has been observed yet.`);
  const state = await adoptOutputSchema({ config: studio.config, audit: studio.audit }, tool.spec.name, output.schema, {
    actor: principal.actor,
    userId: principal.userId,
    from: requestOrigin(req),
    samples: output.samples,
  });
  return Response.json({ tool: tool.spec.name, outputSchema: output.schema, configVersion: state.version });
});
