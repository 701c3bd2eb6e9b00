import { z } from "zod";

/**
 * The runtime config: the value sets that tools' option domains are resolved from (agents,
 * channels, peers, groups, memory categories, custom lists) and the MCP servers to connect.
 * Written as JSONC (JSON with comments); its JSON Schema is published at
 * /schemas/runtime-config.schema.json (generated from this file by `npm run config:schema`).
 */

const name = z.string().trim().min(1).max(120);

/** A reference to a channel, written `type.alias` (e.g. `slack.ops`). */
export const channelRef = z.string().regex(/^[a-z0-9_-]+\.[A-Za-z0-9_.-]+$/, "must be a channel reference `type.alias`, e.g. `slack.ops`");

export const Channel = z.strictObject({
  type: z.string().regex(/^[a-z0-9_-]+$/, "must be lowercase letters, digits, _ or -").describe("Channel type, e.g. slack, telegram, email."),
  alias: z.string().regex(/^[A-Za-z0-9_.-]+$/, "must be letters, digits, _, . or -").describe("Name of this channel within its type."),
  enabled: z.boolean().default(true),
  description: z.string().optional(),
  peers: z.array(name).default([]).describe("Who can be reached on this channel: peer agent aliases or external `@user` peers."),
});

export const Agent = z.strictObject({
  alias: name.describe("The agent's alias."),
  description: z.string().optional(),
  channels: z.array(channelRef).default([]).describe("Channels this agent uses, as `type.alias`."),
  groups: z.array(name).default([]).describe("Groups this agent may address."),
});

export const Peer = z.strictObject({
  id: name.describe("A peer agent alias, or an external peer written `@user`."),
  kind: z.enum(["agent", "external"]).optional().describe("Defaults to external for `@user`, agent otherwise."),
  label: z.string().optional(),
});

export const Group = z.strictObject({
  name,
  description: z.string().optional(),
  members: z.array(name).default([]),
});

export const MemoryCategory = z.strictObject({ name, description: z.string().optional() });

export const McpServer = z.discriminatedUnion("transport", [
  z.strictObject({
    name: z.string().regex(/^[A-Za-z0-9_-]+$/, "must be letters, digits, _ or -"),
    transport: z.literal("stdio"),
    command: z.string().min(1),
    args: z.array(z.string()).default([]),
    env: z.record(z.string(), z.string()).default({}),
    cwd: z.string().optional(),
    enabled: z.boolean().default(true),
    timeoutMs: z.number().int().positive().optional(),
    toolTimeouts: z.record(z.string(), z.number().int().positive()).optional(),
  }),
  z.strictObject({
    name: z.string().regex(/^[A-Za-z0-9_-]+$/, "must be letters, digits, _ or -"),
    transport: z.literal("http"),
    url: z.url(),
    headers: z.record(z.string(), z.string()).default({}),
    enabled: z.boolean().default(true),
    timeoutMs: z.number().int().positive().optional(),
    toolTimeouts: z.record(z.string(), z.number().int().positive()).optional(),
  }),
]);

export const ListOption = z.union([
  z.string(),
  z.strictObject({ value: z.string(), label: z.string().optional(), hint: z.string().optional(), group: z.string().optional(), disabled: z.boolean().optional() }),
]);

const RetentionRule = z.strictObject({
  maxAgeDays: z.number().positive().optional().describe("Runs older than this many days are purged."),
  maxRuns: z.number().int().positive().optional().describe("Only this many newest runs are kept."),
});

export const Retention = z
  .strictObject({
    maxAgeDays: z.number().positive().optional().describe("Default for every tool: purge runs older than this many days."),
    maxRunsPerTool: z.number().int().positive().optional().describe("Default for every tool: keep only this many newest runs."),
    perTool: z.record(z.string(), RetentionRule).default({}).describe("Overrides by tool name."),
  })
  .describe("How long run history is kept. Purges (POST /api/runs/purge) are audited.");

export const RuntimeConfigSchema = z
  .strictObject({
    $schema: z.string().optional(),
    defaultAgent: name.optional().describe("The agent option domains use when a request names none."),
    agents: z.array(Agent).default([]),
    channels: z.array(Channel).default([]),
    peers: z.array(Peer).default([]),
    groups: z.array(Group).default([]),
    memoryCategories: z.array(MemoryCategory).default([]),
    mcpServers: z.array(McpServer).default([]),
    lists: z.record(z.string().regex(/^[A-Za-z0-9_-]+$/), z.array(ListOption)).default({}).describe("Named option lists, used by `custom:<name>` domains."),
    retention: Retention.default({ perTool: {} }),
  })
  .superRefine((c, ctx) => {
    // Cross references: every name used must be declared, so a typo is caught at load time.
    const channels = new Set(c.channels.map((ch) => `${ch.type}.${ch.alias}`));
    const groups = new Set(c.groups.map((g) => g.name));
    const agents = new Set(c.agents.map((a) => a.alias));
    const dup = (items: string[], path: string, what: string) => {
      const seen = new Set<string>();
      items.forEach((v, i) => {
        if (seen.has(v)) ctx.addIssue({ code: "custom", path: [path, i], message: `duplicate ${what} "${v}"` });
        seen.add(v);
      });
    };
    dup(c.agents.map((a) => a.alias), "agents", "agent alias");
    dup(c.channels.map((ch) => `${ch.type}.${ch.alias}`), "channels", "channel");
    dup(c.groups.map((g) => g.name), "groups", "group");
    dup(c.mcpServers.map((s) => s.name), "mcpServers", "MCP server name");
    c.agents.forEach((a, i) => {
      a.channels.forEach((ref, j) => {
        if (!channels.has(ref)) ctx.addIssue({ code: "custom", path: ["agents", i, "channels", j], message: `unknown channel "${ref}" (declared: ${[...channels].join(", ") || "none"})` });
      });
      a.groups.forEach((g, j) => {
        if (!groups.has(g)) ctx.addIssue({ code: "custom", path: ["agents", i, "groups", j], message: `unknown group "${g}" (declared: ${[...groups].join(", ") || "none"})` });
      });
    });
    if (c.defaultAgent && !agents.has(c.defaultAgent)) {
      ctx.addIssue({ code: "custom", path: ["defaultAgent"], message: `unknown agent "${c.defaultAgent}" (declared: ${[...agents].join(", ") || "none"})` });
    }
  });

export type RuntimeConfig = z.output<typeof RuntimeConfigSchema>;
export type ChannelConfig = z.output<typeof Channel>;
export type AgentConfig = z.output<typeof Agent>;
