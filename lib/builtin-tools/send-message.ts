import type { OutboxStore } from "../outbox/store";
import { defineTool } from "../tools/define";
import { structured } from "../tools/output";
import { liveNames } from "./live-triggers";

/** Sends a message on one of the agent's channels; delivery goes to the studio's local outbox. */
export function createSendMessageTool(outbox: OutboxStore) {
  return defineTool({
    name: "send_message",
    title: "Send a message",
    description:
      "Sends a text message to a peer on one of the agent's channels. The channel and target choices come from the " +
      "runtime config (the agent's channels; the peers reachable on the chosen channel). Messages are delivered into " +
      "the studio's local outbox (see Outbox), so nothing leaves this machine.",
    inputSchema: {
      type: "object",
      properties: {
        channel: { type: "string", title: "Channel", description: "One of the agent's channels, as `type.alias`." },
        target: { type: "string", title: "Target", description: "A peer agent or an external `@user` reachable on that channel." },
        text: { type: "string", title: "Message", minLength: 1, maxLength: 4000 },
      },
      required: ["channel", "target", "text"],
      additionalProperties: false,
    } as const,
    outputSchema: {
      type: "object",
      properties: {
        messageId: { type: "string", format: "uuid" },
        channel: { type: "string" },
        target: { type: "string" },
        deliveredAt: { type: "string", format: "date-time" },
      },
      required: ["messageId", "channel", "target", "deliveredAt"],
    },
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    paramDomains: { channel: "channel_refs", target: "peer_targets" },
    invocationTriggers: ["send message", "send this to", "message", "tell", "notify"],
    // Names a user writes when they mean "send it there": channel aliases and group names.
    liveTriggers: (config) => liveNames([...config.channels.map((c) => c.alias), ...config.groups.map((g) => g.name)]),
    timeoutMs: 5_000,
    async run({ channel, target, text }, ctx) {
      const m = await outbox.deliver({ runId: ctx.runId, agent: ctx.agent, channel, target, text });
      return structured({ messageId: m.id, channel, target, deliveredAt: m.createdAt });
    },
  });
}
