import type { RuntimeConfig } from "../config/schema";
import type { DomainContext, DomainOption, DomainResolver } from "./types";

/** The domains every studio has, resolved from the runtime config on each call. */

const agentOf = (ctx: DomainContext) => ctx.config.agents.find((a) => a.alias === ctx.agent);
const byValue = (a: DomainOption, b: DomainOption) => a.value.localeCompare(b.value);

function channelKey(type: string, alias: string): string {
  return `${type}.${alias}`;
}

function peerKind(config: RuntimeConfig, id: string): "agent" | "external" {
  const declared = config.peers.find((p) => p.id === id)?.kind;
  if (declared) return declared;
  return id.startsWith("@") ? "external" : "agent";
}

export const channelRefs: DomainResolver = (ctx) => {
  const agent = agentOf(ctx);
  if (!agent) return [];
  return agent.channels.map((ref) => {
    const ch = ctx.config.channels.find((c) => channelKey(c.type, c.alias) === ref);
    const enabled = ch?.enabled ?? false;
    return {
      value: ref,
      label: ref,
      group: ch?.type,
      ...(enabled ? (ch?.description ? { hint: ch.description } : {}) : { hint: "disabled", disabled: true }),
    };
  });
};

/** Peers reachable on the agent's channels, or only on the sibling `channel` when one is chosen. */
export const peerTargets: DomainResolver = (ctx) => {
  const agent = agentOf(ctx);
  if (!agent) return [];
  const chosen = typeof ctx.siblings.channel === "string" && ctx.siblings.channel ? ctx.siblings.channel : undefined;
  const refs = chosen ? agent.channels.filter((r) => r === chosen) : agent.channels;
  const seen = new Map<string, DomainOption>();
  for (const ref of refs) {
    const ch = ctx.config.channels.find((c) => channelKey(c.type, c.alias) === ref);
    for (const id of ch?.peers ?? []) {
      if (seen.has(id) || id === agent.alias) continue;
      const kind = peerKind(ctx.config, id);
      const label = ctx.config.peers.find((p) => p.id === id)?.label;
      seen.set(id, {
        value: id,
        ...(label ? { label } : {}),
        hint: kind === "agent" ? "peer agent" : "external peer",
        group: kind === "agent" ? "Peer agents" : "External peers",
      });
    }
  }
  // Agents first, then external peers; alphabetical within each.
  return [...seen.values()].sort((a, b) => (a.group === b.group ? byValue(a, b) : a.group === "Peer agents" ? -1 : 1));
};

export const peerGroups: DomainResolver = (ctx) => {
  const agent = agentOf(ctx);
  if (!agent) return [];
  return agent.groups
    .map((name) => {
      const n = ctx.config.groups.find((g) => g.name === name)?.members.length ?? 0;
      return { value: name, hint: `group: ${n} member${n === 1 ? "" : "s"}` };
    })
    .sort(byValue);
};

export const agentAliases: DomainResolver = (ctx) =>
  ctx.config.agents.map((a) => ({ value: a.alias, ...(a.description ? { hint: a.description } : {}) })).sort(byValue);

export const toolNames: DomainResolver = async (ctx) =>
  (await ctx.tools())
    .map((t) => {
      const d = (t.description ?? "").replace(/\s+/g, " ").trim();
      return { value: t.name, ...(t.title ? { label: t.title } : {}), ...(d ? { hint: d.length > 60 ? `${d.slice(0, 59)}…` : d } : {}) };
    })
    .sort(byValue);

export const memoryCategories: DomainResolver = (ctx) =>
  ctx.config.memoryCategories.map((m) => ({ value: m.name, ...(m.description ? { hint: m.description } : {}) }));

export function customList(ctx: DomainContext, list: string): DomainOption[] | undefined {
  const items = ctx.config.lists[list];
  return items?.map((o) => (typeof o === "string" ? { value: o } : o));
}

export const BUILTIN_DOMAINS: Record<string, DomainResolver> = {
  channel_refs: channelRefs,
  peer_targets: peerTargets,
  peer_groups: peerGroups,
  agent_aliases: agentAliases,
  tool_names: toolNames,
  memory_categories: memoryCategories,
};

/** Domains whose choices depend on the agent: a form shows an agent picker for them. */
export const AGENT_DOMAINS = new Set(["channel_refs", "peer_targets", "peer_groups"]);
