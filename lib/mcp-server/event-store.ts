import type { EventId, EventStore, JSONRPCMessage, StreamId } from "@modelcontextprotocol/server";

/**
 * The events of one 2025-era session's SSE streams, kept so a client that lost a stream can
 * resume it: each event has an id (`<stream>.<n>`), and a GET with `Last-Event-ID` replays what
 * that stream sent after it (a call's progress and result, notifications on the session's
 * stream). In memory with the session, at most `maxEvents` events and about `maxBytes` of them
 * (the oldest go first; the newest is always kept).
 */
export class SessionEventStore implements EventStore {
  private readonly events: { id: EventId; stream: StreamId; seq: number; message: JSONRPCMessage; bytes: number }[] = [];
  private seq = 0;
  private bytes = 0;

  constructor(
    private readonly maxEvents = 1_000,
    private readonly maxBytes = 4 * 1024 * 1024,
  ) {}

  async storeEvent(streamId: StreamId, message: JSONRPCMessage): Promise<EventId> {
    const seq = ++this.seq;
    const id = `${streamId}.${seq}`;
    const bytes = JSON.stringify(message).length;
    this.events.push({ id, stream: streamId, seq, message, bytes });
    this.bytes += bytes;
    while (this.events.length > 1 && (this.events.length > this.maxEvents || this.bytes > this.maxBytes)) this.bytes -= this.events.shift()!.bytes;
    return id;
  }

  async getStreamIdForEventId(eventId: EventId): Promise<StreamId | undefined> {
    return parse(eventId)?.stream;
  }

  async replayEventsAfter(lastEventId: EventId, { send }: { send: (eventId: EventId, message: JSONRPCMessage) => Promise<void> }): Promise<StreamId> {
    const last = parse(lastEventId);
    if (!last) throw new Error(`Unknown event id: ${lastEventId.slice(0, 100)}`);
    for (const e of this.events) {
      // Priming events carry no message: only the id (and retry) for the client to resume from.
      if (e.stream !== last.stream || e.seq <= last.seq || !("jsonrpc" in e.message)) continue;
      await send(e.id, e.message);
    }
    return last.stream;
  }
}

function parse(eventId: string): { stream: string; seq: number } | null {
  const m = /^(.{1,200})\.(\d{1,15})$/.exec(eventId);
  return m ? { stream: m[1]!, seq: Number(m[2]) } : null;
}
