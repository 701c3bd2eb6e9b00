import { z } from "zod";
import { readJson } from "@/lib/http/http";
import { completeServerArgument } from "@/lib/servers/browse";
import { guarded } from "@/lib/studio/guarded";
import { getStudio } from "@/lib/studio/studio";

export const dynamic = "force-dynamic";

const text = (what: string, max: number) => z.string().max(max, `${what} is longer than ${max.toLocaleString("en")} characters`);

const Complete = z.strictObject({
  ref: z.discriminatedUnion(
    "type",
    [
      z.strictObject({ type: z.literal("ref/prompt"), name: text("ref.name", 500).min(1, "ref.name must not be empty") }),
      z.strictObject({ type: z.literal("ref/resource"), uri: text("ref.uri", 8192).min(1, "ref.uri must not be empty") }),
    ],
    { error: 'ref.type must be "ref/prompt" (with name) or "ref/resource" (with uri, a resource template)' },
  ),
  argument: z.strictObject({ name: text("argument.name", 200).min(1, "argument.name must not be empty"), value: text("argument.value", 10_000) }),
  context: z.strictObject({ arguments: z.record(text("an argument name", 200), text("an argument", 10_000)) }).optional(),
});

/** Suggestions for a prompt argument or a template variable from the server's completion/complete. */
export const POST = guarded<{ name: string }>("/api/servers/[name]/complete", "POST", async (req, { params }) => {
  const body = await readJson(req, Complete);
  const studio = await getStudio();
  const result = await completeServerArgument(
    studio.mcp,
    params.name,
    { ref: body.ref, argument: body.argument, context: body.context?.arguments },
    req.signal,
  );
  return Response.json(result, { headers: { "cache-control": "no-store" } });
});
