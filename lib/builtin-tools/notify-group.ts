import type { OutboxStore } from "../outbox/store";
import { defineTool } from "../tools/define";
import { ToolError } from "../tools/errors";
import { structured } from "../tools/output";
import { liveNames } from "./live-triggers";

/**
 * Notifies a group the agent may address, optionally mentioning one member. `group_member` is a
 * domain this tool resolves itself: the members of the group chosen in the sibling `group`.
 */
export function createNotifyGroupTool(outbox: OutboxStore) {
  return defineTool({
    name: "notify_group",
    title: "Notify a group",
    description:
      "Posts a notice to one of the agent's groups, with a priority from the `priorities` list of the runtime config " +
      "and an optional member to mention. Delivered into the studio's local outbox, one message per group.",
    inputSchema: {
      type: "object",
      properties: {
        group: { type: "string", title: "Group" },
        priority: { type: "string", title: "Priority" },
        mention: { type: "string", title: "Mention", description: "A member of the group to mention by name." },
        text: { type: "string", title: "Notice", minLength: 1, maxLength: 2000 },
      },
      required: ["group", "text"],
      additionalProperties: false,
    } as const,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    paramDomains: { group: "peer_groups", priority: "custom:priorities", mention: "group_member" },
    domains: {
      group_member: (ctx) => {
        const chosen = typeof ctx.siblings.group === "string" ? ctx.siblings.group : undefined;
        const groups = ctx.config.groups.filter((g) =>
          chosen ? g.name === chosen : ctx.config.agents.find((a) => a.alias === ctx.agent)?.groups.includes(g.name),
        );
        const seen = new Map<string, { value: string; hint: string }>();
        for (const g of groups) for (const m of g.members) if (!seen.has(m)) seen.set(m, { value: m, hint: `member of ${g.name}` });
        return [...seen.values()].sort((a, b) => a.value.localeCompare(b.value));
      },
    },
    invocationTriggers: ["notify the group", "tell everyone", "announce"],
    liveTriggers: (config) => liveNames(config.groups.map((g) => g.name)),
    timeoutMs: 5_000,
    async run({ group, priority, mention, text }, ctx) {
      if (!ctx.agent) throw new ToolError("invalid_args", "No agent is configured, so there is no group to notify.");
      const body = `${priority ? `[${priority}] ` : ""}${mention ? `${mention}: ` : ""}${text}`;
      const m = await outbox.deliver({ runId: ctx.runId, agent: ctx.agent, channel: `group.${group}`, target: group, text: body });
      return structured({ messageId: m.id, group, text: body, deliveredAt: m.createdAt });
    },
  });
}
