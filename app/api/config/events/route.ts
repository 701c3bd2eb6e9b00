import { getConfigStore, type ConfigState } from "@/lib/config/store";
import { guarded } from "@/lib/studio/guarded";

export const dynamic = "force-dynamic";

const HEARTBEAT_MS = 15_000;

/**
 * Server-Sent Events: `event: config` with `{version, loadedAt, error}` at once and whenever the
 * config file changes, a comment heartbeat every 15 s. Unsubscribes when the client goes away.
 */
export const GET = guarded("/api/config/events", "GET", async (req) => {
  const store = getConfigStore();
  const encoder = new TextEncoder();
  let cleanup = () => {};

  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      let closed = false;
      const send = (chunk: string) => {
        if (closed) return;
        try {
          controller.enqueue(encoder.encode(chunk));
        } catch {
          cleanup(); // the stream is gone
        }
      };
      const sendState = (s: ConfigState) => send(`event: config\ndata: ${JSON.stringify({ version: s.version, loadedAt: s.loadedAt, error: s.error })}\n\n`);

      const unsubscribe = store.subscribe(sendState);
      const heartbeat = setInterval(() => send(`: heartbeat ${new Date().toISOString()}\n\n`), HEARTBEAT_MS);
      const onAbort = () => cleanup();
      cleanup = () => {
        if (closed) return;
        closed = true;
        clearInterval(heartbeat);
        unsubscribe();
        req.signal.removeEventListener("abort", onAbort);
        try {
          controller.close();
        } catch {
          // already closed by the client going away
        }
      };
      req.signal.addEventListener("abort", onAbort, { once: true });

      send("retry: 3000\n\n");
      sendState(store.current());
      if (req.signal.aborted) cleanup();
    },
    cancel() {
      cleanup();
    },
  });

  return new Response(stream, {
    headers: {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache, no-store, no-transform",
      connection: "keep-alive",
      "x-accel-buffering": "no",
    },
  });
});
