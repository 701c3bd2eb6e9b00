// The Server-Sent Events helper of the follow and config routes (lib/http/sse.ts): read as a
// browser would, ended by the client going away (its signal, or cancelling the body).
import { describe, expect, it, vi } from "vitest";
import { eventStream, SSE_HEARTBEAT_MS } from "@/lib/http/sse";

async function readSome(res: Response, until: string): Promise<string> {
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = "";
  while (!text.includes(until)) {
    const { done, value } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
  }
  reader.releaseLock();
  return text;
}

describe("eventStream", () => {
  it("an idle stream sends a comment every SSE_HEARTBEAT_MS, so proxies keep it open", async () => {
    vi.useFakeTimers();
    try {
      const controller = new AbortController();
      const res = eventStream(controller.signal, () => () => {});
      vi.advanceTimersByTime(SSE_HEARTBEAT_MS);
      expect(await readSome(res, "\n\n")).toMatch(/^: heartbeat \d{4}-\d\d-\d\dT[\d:.]+Z\n\n$/);
      controller.abort();
    } finally {
      vi.useRealTimers();
    }
  });

  it("streams what open sends with the SSE headers; the client going away runs the cleanup once", async () => {
    const controller = new AbortController();
    let closed = 0;
    let send: (chunk: string) => void = () => {};
    const res = eventStream(controller.signal, (s) => {
      send = s;
      s("event: hello\ndata: 1\n\n");
      return () => closed++;
    });
    expect(res.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
    expect(res.headers.get("cache-control")).toContain("no-cache");
    expect(await readSome(res, "data: 1")).toBe("event: hello\ndata: 1\n\n");
    send("event: more\ndata: 2\n\n");
    expect(await readSome(res, "data: 2")).toBe("event: more\ndata: 2\n\n");
    controller.abort();
    controller.abort();
    expect(closed).toBe(1);
    send("after\n\n"); // ignored once closed
    const rest = await res.body!.getReader().read();
    expect(rest.done).toBe(true);
  });

  it("a body cancelled by its reader ends it too; an already aborted request ends at once", async () => {
    let closed = 0;
    const res = eventStream(new AbortController().signal, () => () => closed++);
    await res.body!.cancel();
    expect(closed).toBe(1);
    const gone = AbortSignal.abort();
    let closedAtOnce = 0;
    eventStream(gone, () => () => closedAtOnce++);
    expect(closedAtOnce).toBe(1);
  });
});
