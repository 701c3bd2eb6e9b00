import { randomUUID } from "node:crypto";
import type { PrismaClient } from "../db/generated/client";

export interface OutboxMessage {
  id: string;
  runId: string | null;
  agent: string | null;
  channel: string;
  target: string;
  text: string;
  createdAt: string;
}

/** The local outbox that messaging tools deliver into. */
export class OutboxStore {
  constructor(private readonly prisma: PrismaClient) {}

  async deliver(m: { runId?: string; agent?: string; channel: string; target: string; text: string }): Promise<OutboxMessage> {
    const row = await this.prisma.outboxMessage.create({
      data: { id: randomUUID(), runId: m.runId ?? null, agent: m.agent ?? null, channel: m.channel, target: m.target, text: m.text },
    });
    return toMessage(row);
  }

  /** Deletes every message, or those on one channel; how many went. */
  async clear(channel?: string): Promise<number> {
    const { count } = await this.prisma.outboxMessage.deleteMany({ where: channel ? { channel } : {} });
    return count;
  }

  async list(limit = 100): Promise<OutboxMessage[]> {
    const rows = await this.prisma.outboxMessage.findMany({ orderBy: [{ createdAt: "desc" }, { id: "desc" }], take: Math.min(Math.max(limit, 1), 500) });
    return rows.map(toMessage);
  }
}

function toMessage(r: {
  id: string;
  runId: string | null;
  agent: string | null;
  channel: string;
  target: string;
  text: string;
  createdAt: Date;
}): OutboxMessage {
  return { ...r, createdAt: r.createdAt.toISOString() };
}
