import { z } from "zod";
import { parseWith } from "@/lib/http/http";
import { eventStream } from "@/lib/http/sse";
import { resourceFollows } from "@/lib/servers/follow";
import { guarded } from "@/lib/studio/guarded";
import { getStudio } from "@/lib/studio/studio";

export const dynamic = "force-dynamic";

const Query = z.strictObject({ uri: z.string().min(1, "uri must not be empty").max(8192, "uri is longer than 8,192 characters") });

/**
 * Server-Sent Events for one resource of one server: subscribes upstream (shared with everyone
 * following it), then `event: following` at once, `event: updated` with `{server, uri, at}` each
 * time the server says it changed, a comment heartbeat every 15 s. The follow ends when the
 * client goes away. Errors (unknown server, no subscriptions, refused) answer before the stream.
 */
export const GET = guarded<{ name: string }>("/api/servers/[name]/resources/follow", "GET", async (req, { params }) => {
  const { uri } = parseWith(Query, Object.fromEntries(new URL(req.url).searchParams), "query");
  const studio = await getStudio();
  let push: (chunk: string) => void = () => {};
  const unfollow = await resourceFollows().follow(studio.mcp, params.name, uri, (u) => push(`event: updated\ndata: ${JSON.stringify(u)}\n\n`));
  return eventStream(req.signal, (send) => {
    push = send;
    send(`event: following\ndata: ${JSON.stringify({ server: params.name, uri })}\n\n`);
    return unfollow;
  });
});
