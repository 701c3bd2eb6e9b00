import { answerRunInput, InputAnswerBody, readRunInput } from "@/lib/execution/run-input";
import { readJson, requestOrigin } from "@/lib/http/http";
import { guarded } from "@/lib/studio/guarded";
import { getStudio } from "@/lib/studio/studio";

export const dynamic = "force-dynamic";

/** What the run waits for: `{ state: "input_required", inputs }` (the server's requests, oldest first), else `{ state: <status>, inputs: [] }`. */
export const GET = guarded<{ id: string }>("/api/runs/[id]/input", "GET", async (_req, { params, principal }) => {
  return Response.json(await readRunInput((await getStudio()).runs, params.id, principal));
});

/**
 * Answers one of the run's requests for input: elicitation with accept (content checked against
 * the requested schema), decline or cancel; sampling with approve (the reply's text) or reject.
 * Only the run's caller or an admin; audited as `run.input`.
 */
export const POST = guarded<{ id: string }>("/api/runs/[id]/input", "POST", async (req, { params, principal }) => {
  const body = await readJson(req, InputAnswerBody);
  const studio = await getStudio();
  return Response.json(await answerRunInput(studio, params.id, body, { ...principal, from: requestOrigin(req) }));
});
