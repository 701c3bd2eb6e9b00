import type { ReactNode } from "react";
import type { RuntimeConfig } from "@/lib/config/schema";
import { Badge } from "@/components/ui/Badge";
import { isUsableTriggerName, MIN_TRIGGER_NAME_CHARS } from "@/lib/triggers/names";

// The read-only summary of the config in use (text only, rendered by React: escaped).

function Section({ title, count, children }: { title: string; count: number; children: ReactNode }) {
  return (
    <section className="space-y-1.5">
      <h3 className="flex items-center gap-1.5 text-[11px] font-semibold uppercase tracking-wide text-muted-foreground">
        {title} <span className="font-normal tabular-nums">({count})</span>
      </h3>
      {count === 0 ? <p className="text-[12px] text-muted-foreground">none</p> : children}
    </section>
  );
}

function Chips({ items, dimmed = new Set<string>(), titles }: { items: string[]; dimmed?: Set<string>; titles?: Map<string, string> }) {
  if (!items.length) return <span className="text-[12px] text-muted-foreground">—</span>;
  return (
    <span className="flex flex-wrap gap-1">
      {items.map((v, i) => (
        <Badge key={`${v}-${i}`} dim={dimmed.has(v)} title={titles?.get(v)}>
          {v}
        </Badge>
      ))}
    </span>
  );
}

/** Agents, channels, groups, memory categories, lists and MCP servers of the config in use. */
export function ConfigSummary({ config }: { config: RuntimeConfig }) {
  const disabledChannels = new Set(config.channels.filter((c) => !c.enabled).map((c) => `${c.type}.${c.alias}`));
  const peerLabels = new Map(config.peers.filter((p) => p.label).map((p) => [p.id, p.label as string]));
  const distinctPeers = new Set([...config.channels.flatMap((c) => c.peers), ...config.peers.map((p) => p.id)]);
  const listNames = Object.keys(config.lists);

  return (
    <div className="space-y-5 text-[13px]" data-testid="config-summary">
      <Section title="Agents" count={config.agents.length}>
        <ul className="space-y-2">
          {config.agents.map((a) => (
            <li key={a.alias} className="rounded-md border px-2.5 py-2">
              <div className="flex items-center gap-2">
                <span className="font-medium">{a.alias}</span>
                {config.defaultAgent === a.alias && <Badge tone="primary">default</Badge>}
              </div>
              {a.description && <p className="mt-0.5 line-clamp-2 text-[12px] text-muted-foreground">{a.description}</p>}
              <dl className="mt-1.5 grid grid-cols-[4.5rem_minmax(0,1fr)] gap-x-2 gap-y-1 text-[12px]">
                <dt className="text-muted-foreground">channels</dt>
                <dd>
                  <Chips items={a.channels} dimmed={disabledChannels} />
                </dd>
                <dt className="text-muted-foreground">groups</dt>
                <dd>
                  <Chips items={a.groups} />
                </dd>
              </dl>
            </li>
          ))}
        </ul>
      </Section>

      <Section title="Channels" count={config.channels.length}>
        <ul className="space-y-1.5">
          {config.channels.map((c) => (
            <li key={`${c.type}.${c.alias}`}>
              <div className="flex flex-wrap items-center gap-1.5">
                <span className="font-mono text-[12px]">
                  <span className="text-muted-foreground">{c.type}.</span>
                  {c.alias}
                </span>
                {!c.enabled && <Badge tone="warning">disabled</Badge>}
                <span className="text-[12px] text-muted-foreground">
                  {c.peers.length} peer{c.peers.length === 1 ? "" : "s"}
                </span>
              </div>
              <div className="mt-0.5 pl-3">
                <Chips items={c.peers} titles={peerLabels} />
              </div>
            </li>
          ))}
        </ul>
        <p className="text-[12px] text-muted-foreground">{distinctPeers.size} distinct peers across channels and the peers list.</p>
      </Section>

      <Section title="Groups" count={config.groups.length}>
        <ul className="flex flex-wrap gap-1.5">
          {config.groups.map((g) => (
            <li key={g.name}>
              <Badge title={[g.description, g.members.join(", ")].filter(Boolean).join(" · ") || undefined}>
                {g.name} · {g.members.length}
                {!isUsableTriggerName(g.name) && (
                  <span className="text-warning-foreground" title={`Shorter than ${MIN_TRIGGER_NAME_CHARS} characters: not used as an invocation trigger`}>
                    {" "}
                    ⚠
                  </span>
                )}
              </Badge>
            </li>
          ))}
        </ul>
      </Section>

      <Section title="Memory categories" count={config.memoryCategories.length}>
        <Chips
          items={config.memoryCategories.map((m) => m.name)}
          titles={new Map(config.memoryCategories.filter((m) => m.description).map((m) => [m.name, m.description as string]))}
        />
      </Section>

      <Section title="Lists" count={listNames.length}>
        <ul className="space-y-1">
          {listNames.map((name) => {
            const values = config.lists[name].map((o) => (typeof o === "string" ? o : (o.label ?? o.value)));
            return (
              <li key={name} className="text-[12px]">
                <span className="font-mono">custom:{name}</span> <span className="text-muted-foreground">({values.length})</span>{" "}
                <span className="text-muted-foreground">
                  {values.slice(0, 4).join(", ")}
                  {values.length > 4 ? ", …" : ""}
                </span>
              </li>
            );
          })}
        </ul>
      </Section>

      <Section title="MCP servers" count={config.mcpServers.length}>
        <ul className="space-y-1">
          {config.mcpServers.map((s) => (
            <li key={s.name} className="flex flex-wrap items-center gap-1.5 text-[12px]">
              <span className="font-medium">{s.name}</span>
              <Badge>{s.transport}</Badge>
              <Badge tone={s.enabled ? "success" : "neutral"}>{s.enabled ? "enabled" : "disabled"}</Badge>
              <span className="min-w-0 truncate font-mono text-muted-foreground" title={s.transport === "stdio" ? [s.command, ...s.args].join(" ") : s.url}>
                {s.transport === "stdio" ? [s.command, ...s.args].join(" ") : s.url}
              </span>
            </li>
          ))}
        </ul>
      </Section>
    </div>
  );
}
