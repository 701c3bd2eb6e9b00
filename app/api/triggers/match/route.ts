import { z } from "zod";
import { readJson } from "@/lib/http/http";
import { guarded } from "@/lib/studio/guarded";
import { getStudio } from "@/lib/studio/studio";
import { displayName } from "@/lib/tools/spec";
import { matchTools, MAX_MESSAGE_LENGTH } from "@/lib/triggers/match";

export const dynamic = "force-dynamic";

const MatchBody = z.strictObject({
  message: z.string().max(MAX_MESSAGE_LENGTH),
});

/**
 * Which tools' invocation triggers occur in a message, against the registry's live triggers:
 * `{ matches: [{ tool, title, triggers, spans }] }`, most matched triggers first (see lib/triggers/match.ts).
 */
export const POST = guarded("/api/triggers/match", "POST", async (req) => {
  const { message } = await readJson(req, MatchBody);
  const studio = await getStudio();
  const tools = await studio.registry.list();
  const byName = new Map(tools.map((t) => [t.name, t]));
  const matches = matchTools(message, tools).map((m) => ({
    tool: m.tool,
    title: displayName(byName.get(m.tool)!),
    triggers: m.triggers,
    spans: m.spans,
  }));
  return Response.json({ matches }, { headers: { "Cache-Control": "no-store" } });
});
