import { describe, expect, it } from "vitest";
import type { JSONRPCMessage } from "@modelcontextprotocol/server";
import { SessionEventStore } from "./event-store";

const note = (n: number, pad = ""): JSONRPCMessage => ({
  jsonrpc: "2.0",
  method: "notifications/progress",
  params: { progressToken: "t", progress: n, message: pad },
});

async function replay(store: SessionEventStore, after: string): Promise<{ stream: string; sent: [string, JSONRPCMessage][] }> {
  const sent: [string, JSONRPCMessage][] = [];
  const stream = await store.replayEventsAfter(after, { send: async (id, m) => void sent.push([id, m]) });
  return { stream, sent };
}

describe("SessionEventStore", () => {
  it("replays the events of the same stream after the given id, without priming events", async () => {
    const s = new SessionEventStore();
    const prime = await s.storeEvent("a", {} as JSONRPCMessage);
    const a1 = await s.storeEvent("a", note(1));
    await s.storeEvent("b", note(100));
    const a2 = await s.storeEvent("a", note(2));
    expect(await s.getStreamIdForEventId(a1)).toBe("a");
    const r = await replay(s, prime);
    expect(r.stream).toBe("a");
    expect(r.sent.map(([id]) => id)).toEqual([a1, a2]);
    expect((await replay(s, a1)).sent.map(([id]) => id)).toEqual([a2]);
  });

  it("refuses an id it did not hand out", async () => {
    const s = new SessionEventStore();
    expect(await s.getStreamIdForEventId("nonsense")).toBeUndefined();
    await expect(replay(s, "nonsense")).rejects.toThrow(/Unknown event id/);
  });

  it("keeps at most maxEvents and about maxBytes, dropping the oldest but never the newest", async () => {
    const byCount = new SessionEventStore(3);
    const ids = [];
    for (let i = 0; i < 5; i++) ids.push(await byCount.storeEvent("a", note(i)));
    expect((await replay(byCount, "a.0")).sent.map(([id]) => id)).toEqual(ids.slice(2));

    const byBytes = new SessionEventStore(1_000, 1_200);
    const big = [];
    for (let i = 0; i < 4; i++) big.push(await byBytes.storeEvent("a", note(i, "x".repeat(400))));
    expect((await replay(byBytes, "a.0")).sent.map(([id]) => id)).toEqual(big.slice(2));
    const huge = await byBytes.storeEvent("a", note(9, "y".repeat(5_000)));
    expect((await replay(byBytes, "a.0")).sent.map(([id]) => id)).toEqual([huge]);
  });
});
