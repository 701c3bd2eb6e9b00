/** How often an idle event stream sends a comment, so proxies and browsers keep it open. */
export const SSE_HEARTBEAT_MS = 15_000;

/**
 * A Server-Sent Events response: `open` gets a `send(chunk)` (raw SSE text) and returns what to
 * do when the stream ends. It ends when the client goes away (the request's signal, or the
 * stream cancelled); a comment heartbeat goes out every 15 s meanwhile.
 */
export function eventStream(signal: AbortSignal, open: (send: (chunk: string) => void) => () => void): Response {
  const encoder = new TextEncoder();
  let cleanup: (() => void) | undefined;
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      let closed = false;
      const send = (chunk: string) => {
        if (closed) return;
        try {
          controller.enqueue(encoder.encode(chunk));
        } catch {
          cleanup?.(); // the stream is gone
        }
      };
      const heartbeat = setInterval(() => send(`: heartbeat ${new Date().toISOString()}\n\n`), SSE_HEARTBEAT_MS);
      const onAbort = () => cleanup?.();
      let close: (() => void) | undefined = undefined; // set by open() below; cleanup may run before (an aborted signal)
      cleanup = () => {
        if (closed) return;
        closed = true;
        clearInterval(heartbeat);
        close?.();
        signal.removeEventListener("abort", onAbort);
        try {
          controller.close();
        } catch {
          // already closed by the client going away
        }
      };
      signal.addEventListener("abort", onAbort, { once: true });
      close = open(send);
      if (signal.aborted) cleanup();
    },
    cancel() {
      cleanup?.();
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
}
