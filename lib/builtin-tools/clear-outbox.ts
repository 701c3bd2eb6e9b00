import type { OutboxStore } from "../outbox/store";
import { defineTool } from "../tools/define";
import { structured } from "../tools/output";

/**
 * Deletes messages from the local outbox: the built-in example of a destructive tool (callers
 * confirm it; the default run policy asks for the admin role).
 */
export function createClearOutboxTool(outbox: OutboxStore) {
  return defineTool({
    name: "clear_outbox",
    title: "Clear the outbox",
    description:
      "Deletes the messages that the messaging tools delivered into the studio's local outbox: all of them, or only " +
      "those on one channel. Deleted messages cannot be recovered.",
    inputSchema: {
      type: "object",
      properties: {
        channel: { type: "string", title: "Channel", description: "Only messages on this channel (`type.alias`); all channels when unset." },
      },
      additionalProperties: false,
    } as const,
    outputSchema: {
      type: "object",
      properties: { deleted: { type: "integer", minimum: 0 } },
      required: ["deleted"],
    },
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    paramDomains: { channel: "channel_refs" },
    invocationTriggers: ["clear the outbox", "empty the outbox"],
    timeoutMs: 5_000,
    async run({ channel }) {
      return structured({ deleted: await outbox.clear(channel) });
    },
  });
}
