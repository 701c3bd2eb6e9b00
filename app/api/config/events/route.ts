import type { ConfigState } from "@/lib/config/store";
import { eventStream } from "@/lib/http/sse";
import { guarded } from "@/lib/studio/guarded";
import { getStudio } from "@/lib/studio/studio";

export const dynamic = "force-dynamic";

/**
 * Server-Sent Events: `event: config` with `{version, loadedAt, error}` at once and whenever the
 * config file changes, a comment heartbeat every 15 s. Unsubscribes when the client goes away.
 */
export const GET = guarded("/api/config/events", "GET", async (req) => {
  const store = (await getStudio()).config.store;
  return eventStream(req.signal, (send) => {
    const sendState = (s: ConfigState) => send(`event: config\ndata: ${JSON.stringify({ version: s.version, loadedAt: s.loadedAt, error: s.error })}\n\n`);
    const unsubscribe = store.subscribe(sendState);
    send("retry: 3000\n\n");
    sendState(store.current());
    return unsubscribe;
  });
});
