"use client";
import dynamic from "next/dynamic";
import { useCallback, useEffect, useRef, useState, type ReactNode } from "react";
import { RotateCcw, Save, HardDriveDownload, AlertTriangle } from "lucide-react";
import type { RuntimeConfig } from "@/lib/config/schema";
import type { ConfigError, ConfigIssue } from "@/lib/config/store";
import configSchema from "@/public/schemas/runtime-config.schema.json";
import { formatTime } from "@/components/runs/RunTable";
import { Badge } from "@/components/ui/Badge";
import { Card } from "@/components/ui/Card";
import { DisabledReason } from "@/components/ui/DisabledReason";
import { buttonClass } from "@/components/ui/button-styles";

const JsonEditor = dynamic(() => import("@/components/workbench/JsonEditor"), {
  ssr: false,
  loading: () => <div className="h-[620px] animate-pulse rounded-md border bg-muted/50" />,
});

/** What GET /api/config answers (and a successful PUT). */
export interface ConfigSnapshot {
  config: RuntimeConfig;
  version: number;
  loadedAt: string;
  path: string;
  error: ConfigError | null;
  configVersion: number | null;
  raw: string;
}

/** A save that did not happen, as shown under the editor. */
interface SaveProblem {
  kind: string;
  message: string;
  details: ConfigIssue[];
}

// The model lives at config/studio.jsonc, so the file's own `"$schema": "../public/schemas/…"`
// resolves to the URI the schema is registered under, and Monaco validates with it offline.
const MODEL_PATH = "inmemory://tool-studio/config/studio.jsonc";
const SCHEMA_URI = "inmemory://tool-studio/public/schemas/runtime-config.schema.json";

type Live = "connecting" | "live" | "reconnecting";

const SAVE_REASON_ID = "config-save-reason";

/**
 * The config file's editor. Saving needs the admin role (`canSave`): for anyone else the text is
 * read-only, Save stays in place disabled, and `saveReason` says why.
 */
export function ConfigEditor({ initial, canSave = true, saveReason = null }: { initial: ConfigSnapshot; canSave?: boolean; saveReason?: string | null }) {
  const [server, setServer] = useState(initial); // the latest state the server told us about
  const [base, setBase] = useState({ text: initial.raw, version: initial.version }); // what the editor was loaded from
  const [text, setText] = useState(initial.raw);
  const [saving, setSaving] = useState(false);
  const [problem, setProblem] = useState<SaveProblem | null>(null);
  const [newerOnDisk, setNewerOnDisk] = useState<number | null>(null);
  const [savedAt, setSavedAt] = useState<number | null>(null);
  const [live, setLive] = useState<Live>("connecting");
  const dirty = text !== base.text;

  // Handlers outside React's render (SSE, keyboard) read the latest values through refs.
  const latest = useRef({ text, base, dirty, server });
  latest.current = { text, base, dirty, server };
  const fetchSeq = useRef(0);

  /** Takes in a state from the server; replaces the editor's text only if it holds no unsaved edits. */
  const adopt = useCallback((snap: ConfigSnapshot) => {
    setServer(snap);
    const { text: current, base: loaded, dirty: hasEdits } = latest.current;
    if (snap.raw === loaded.text || snap.raw === current || !hasEdits) {
      // Same text (perhaps our own save, or a restart renumbered versions), or nothing to lose.
      setBase({ text: snap.raw, version: snap.version });
      if (!hasEdits) setText(snap.raw);
      setNewerOnDisk(null);
    } else {
      setNewerOnDisk(snap.version);
    }
  }, []);

  const fetchState = useCallback(async (): Promise<ConfigSnapshot | null> => {
    const seq = ++fetchSeq.current;
    const res = await fetch("/api/config", { cache: "no-store" });
    if (!res.ok) throw new Error(`GET /api/config answered ${res.status}`);
    const snap = (await res.json()) as ConfigSnapshot;
    return seq === fetchSeq.current ? snap : null; // a later fetch supersedes this one
  }, []);

  // Live updates: the server says when the file changed; fetch the new text and state then.
  useEffect(() => {
    const es = new EventSource("/api/config/events");
    es.addEventListener("open", () => setLive("live"));
    es.addEventListener("error", () => setLive("reconnecting"));
    es.addEventListener("config", (ev) => {
      setLive("live");
      let data: { version?: number; loadedAt?: string };
      try {
        data = JSON.parse((ev as MessageEvent<string>).data);
      } catch {
        return;
      }
      const known = latest.current.server;
      if (data.version === known.version && data.loadedAt === known.loadedAt) return; // nothing new
      fetchState()
        .then((snap) => snap && adopt(snap))
        .catch(() => setLive("reconnecting"));
    });
    return () => es.close();
  }, [adopt, fetchState]);

  const save = useCallback(
    async (opts: { overwrite?: boolean } = {}) => {
      const { text: toSave, base: loaded, server: srv } = latest.current;
      setSaving(true);
      setProblem(null);
      try {
        const res = await fetch("/api/config", {
          method: "PUT",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify({ text: toSave, expectedVersion: opts.overwrite ? srv.version : loaded.version }),
        });
        const body = await res.json().catch(() => ({}));
        if (res.ok) {
          const snap = body as ConfigSnapshot;
          setServer(snap);
          setBase({ text: snap.raw, version: snap.version });
          setNewerOnDisk(null);
          setSavedAt(Date.now());
          return;
        }
        const err = (body as { error?: { kind?: string; message?: string; details?: ConfigIssue[] } }).error ?? {};
        setProblem({ kind: err.kind ?? "error", message: err.message ?? `The server answered ${res.status}.`, details: err.details ?? [] });
        if (res.status === 409) {
          // Someone else saved: learn their version so "Load from disk" / "Overwrite" can act on it.
          const snap = await fetchState().catch(() => null);
          if (snap) {
            setServer(snap);
            setNewerOnDisk(snap.version);
          }
        }
      } catch (e) {
        setProblem({ kind: "network", message: `Could not reach the studio: ${(e as Error).message}. Your text is kept.`, details: [] });
      } finally {
        setSaving(false);
      }
    },
    [fetchState],
  );

  const loadFromDisk = useCallback(async () => {
    try {
      const snap = await fetchState();
      if (!snap) return;
      setServer(snap);
      setBase({ text: snap.raw, version: snap.version });
      setText(snap.raw);
      setNewerOnDisk(null);
      setProblem(null);
    } catch (e) {
      setProblem({ kind: "network", message: `Could not load the file: ${(e as Error).message}`, details: [] });
    }
  }, [fetchState]);

  const revert = () => {
    setText(base.text);
    setProblem(null);
  };

  // Ctrl/Cmd+S saves (capture phase: before Monaco and instead of the browser's "Save page").
  const saveRef = useRef(save);
  saveRef.current = save;
  const canSaveRef = useRef(canSave);
  canSaveRef.current = canSave;
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && !e.altKey && e.key.toLowerCase() === "s") {
        e.preventDefault();
        if (latest.current.dirty && canSaveRef.current) void saveRef.current();
      }
    };
    window.addEventListener("keydown", onKey, true);
    return () => window.removeEventListener("keydown", onKey, true);
  }, []);

  // Unsaved edits are not lost to a stray reload or close.
  useEffect(() => {
    if (!dirty) return;
    const onBeforeUnload = (e: BeforeUnloadEvent) => e.preventDefault();
    window.addEventListener("beforeunload", onBeforeUnload);
    return () => window.removeEventListener("beforeunload", onBeforeUnload);
  }, [dirty]);

  useEffect(() => {
    if (savedAt === null) return;
    const t = setTimeout(() => setSavedAt(null), 4000);
    return () => clearTimeout(t);
  }, [savedAt]);

  return (
    <div className="space-y-4" data-testid="config-editor">
      <div className="flex flex-wrap items-center gap-2 rounded-lg border bg-card px-3 py-2">
        <code className="font-mono text-[12px]" data-testid="config-path" title="The config file (STUDIO_CONFIG sets another)">{server.path}</code>
        <Badge tone="neutral" title="Goes up each time the file changes">version {server.version}</Badge>
        <span className="text-[12px] text-muted-foreground" title={server.loadedAt}>read {formatTime(server.loadedAt)}</span>
        <span className="ml-auto flex items-center gap-2">
          {dirty && <Badge tone="warning">unsaved edits</Badge>}
          <Badge tone={live === "live" ? "success" : "warning"} title="Changes to the file on disk show up here as they happen" dim={live === "connecting"}>
            <span data-testid="live-status">{live === "live" ? "live" : live === "connecting" ? "connecting…" : "reconnecting…"}</span>
          </Badge>
        </span>
      </div>

      {server.error && <DiskErrorBanner error={server.error} configVersion={server.configVersion} />}

      <div className="grid gap-4 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
        <Card
          title="studio.jsonc"
          actions={
            <>
              <button type="button" className={buttonClass.secondary} onClick={revert} disabled={!dirty || saving} data-testid="config-revert">
                <RotateCcw className="size-3.5" /> Revert
              </button>
              {!canSave && saveReason && <DisabledReason id={SAVE_REASON_ID} reason={saveReason} testId="config-save-reason" className="max-w-xs" />}
              <button
                type="button"
                className={buttonClass.primary}
                onClick={() => void save()}
                disabled={!canSave || !dirty || saving}
                title={!canSave ? saveReason ?? undefined : undefined}
                aria-describedby={!canSave && saveReason ? SAVE_REASON_ID : undefined}
                data-testid="config-save"
              >
                <Save className="size-3.5" /> {saving ? "Saving…" : "Save"}
              </button>
            </>
          }
        >
          <div className="space-y-3">
            {newerOnDisk !== null && (
              <div role="status" className="flex flex-wrap items-center gap-2 rounded-md border border-warning/50 bg-warning/10 px-3 py-2" data-testid="config-changed-on-disk">
                <AlertTriangle className="size-4 shrink-0 text-warning" />
                <span className="flex-1">
                  <strong className="font-medium">Changed on disk</strong> (now version {newerOnDisk}) while you have unsaved edits here.
                </span>
                <button type="button" className={buttonClass.secondary} onClick={() => void loadFromDisk()} title="Replace your unsaved edits with the file as it is on disk">
                  <HardDriveDownload className="size-3.5" /> Load from disk
                </button>
                <button
                  type="button"
                  className={buttonClass.danger}
                  onClick={() => void save({ overwrite: true })}
                  disabled={saving || !canSave}
                  title={!canSave ? saveReason ?? undefined : "Save your text over the other change"}
                  aria-describedby={!canSave && saveReason ? SAVE_REASON_ID : undefined}
                >
                  Overwrite with mine
                </button>
              </div>
            )}

            <JsonEditor value={text} onChange={setText} schema={configSchema} schemaUri={SCHEMA_URI} modelPath={MODEL_PATH} jsonc height={620} readOnly={!canSave} />

            <div className="flex flex-wrap items-center gap-2 text-[12px] text-muted-foreground">
              {canSave ? (
                <>
                  <kbd className="rounded border bg-muted px-1.5 py-0.5 font-mono text-[11px]">Ctrl/⌘ + S</kbd> saves. Comments and trailing commas are fine.
                </>
              ) : (
                <span data-testid="config-read-only">Read-only for your role: you can read and copy the config; an admin can change it.</span>
              )}
              {savedAt !== null && !problem && (
                <span role="status" className="text-success" data-testid="config-saved">
                  Saved: version {server.version} is in use.
                </span>
              )}
            </div>

            {problem && <SaveProblemBanner problem={problem} />}
          </div>
        </Card>

        <Card title={`In use${server.configVersion !== null ? ` (version ${server.configVersion})` : " (empty default)"}`} className="self-start lg:sticky lg:top-16" bodyClassName="max-h-[calc(100vh-9rem)] overflow-auto p-4">
          <ConfigSummary config={server.config} />
        </Card>
      </div>
    </div>
  );
}

/** `agents/0/channels/1` -> `agents[0].channels[1]`, as in the server's messages. */
function dotted(p: string): string {
  return p
    .split("/")
    .map((seg, i) => (/^\d+$/.test(seg) ? `[${seg}]` : i === 0 ? seg : `.${seg}`))
    .join("");
}

function IssueList({ issues, testId }: { issues: ConfigIssue[]; testId: string }) {
  if (!issues.length) return null;
  return (
    <ul className="mt-1.5 space-y-0.5 font-mono text-[12px]" data-testid={testId}>
      {issues.map((i, n) => (
        <li key={n}>
          <span className="text-muted-foreground">
            line {i.line}, col {i.column}
            {i.path ? ` · ${dotted(i.path)}` : ""}:
          </span>{" "}
          {i.message}
        </li>
      ))}
    </ul>
  );
}

function DiskErrorBanner({ error, configVersion }: { error: ConfigError; configVersion: number | null }) {
  const where = error.line > 0 ? `${error.file}:${error.line}:${error.column}` : error.file;
  const fallback = configVersion !== null ? `the last good config (version ${configVersion}) is still in use` : "an empty config is in use until the file is fixed";
  const title =
    error.kind === "not_found" ? `${error.file} was not found` : error.kind === "io" ? `${error.file} could not be read` : `The config file on disk is invalid: ${where}`;
  return (
    <div role="alert" className="rounded-lg border border-destructive/40 bg-destructive/10 px-4 py-3 text-destructive" data-testid="config-disk-error">
      <p className="font-medium">
        {title}; {fallback}.
      </p>
      {error.issues.length === 0 && <p className="mt-1 font-mono text-[12px]">{error.message}</p>}
      <IssueList issues={error.issues} testId="config-disk-issues" />
    </div>
  );
}

function SaveProblemBanner({ problem }: { problem: SaveProblem }) {
  const head =
    problem.kind === "invalid_config"
      ? "Not saved: the text does not validate. Your edits are kept; fix them and save again."
      : problem.kind === "conflict"
        ? "Not saved: the file changed on disk since you loaded it."
        : "Not saved.";
  return (
    <div role="alert" className="rounded-md border border-destructive/40 bg-destructive/10 px-3 py-2 text-destructive" data-testid="config-save-error">
      <p className="font-medium">{head}</p>
      <p className="mt-0.5 text-[12px]">{problem.message}</p>
      <IssueList issues={problem.details} testId="config-save-issues" />
    </div>
  );
}

// ---- the live summary (text only, rendered by React: escaped) ----

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
            <li key={`${c.type}.${c.alias}`} className={c.enabled ? "" : "opacity-70"}>
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
                {g.name.trim().length < 3 && <span className="text-warning" title="Shorter than 3 characters: not used as an invocation trigger"> ⚠</span>}
              </Badge>
            </li>
          ))}
        </ul>
      </Section>

      <Section title="Memory categories" count={config.memoryCategories.length}>
        <Chips items={config.memoryCategories.map((m) => m.name)} titles={new Map(config.memoryCategories.filter((m) => m.description).map((m) => [m.name, m.description as string]))} />
      </Section>

      <Section title="Lists" count={listNames.length}>
        <ul className="space-y-1">
          {listNames.map((name) => {
            const values = config.lists[name].map((o) => (typeof o === "string" ? o : o.label ?? o.value));
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
