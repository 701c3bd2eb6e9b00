"use client";
import Link from "next/link";
import { useEffect, useState } from "react";
import { Plus, Trash2 } from "lucide-react";
import type { McpServerState } from "@/lib/mcp/source";
import { Badge, type Tone } from "@/components/ui/Badge";
import { Card } from "@/components/ui/Card";
import { DisabledReason } from "@/components/ui/DisabledReason";
import { buttonClass } from "@/components/ui/button-styles";
import { reportError } from "@/components/ui/report-error";
import { scrollRegion } from "@/components/ui/scroll-region";
import { OAuthButtons } from "./OAuthButtons";

const STATE_TONE: Record<string, Tone> = { connected: "success", connecting: "primary", failed: "danger", disconnected: "neutral" };
const field = "h-8 w-full rounded-md border bg-background px-2";
const REASON_ID = "servers-admin-reason";

/** Lines `KEY=VALUE` (env) or `Key: Value` (headers) to a record; blank lines ignored. */
function pairs(text: string, sep: "=" | ":"): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of text.split("\n")) {
    const i = line.indexOf(sep);
    if (line.trim() && i > 0) out[line.slice(0, i).trim()] = line.slice(i + 1).trim();
  }
  return out;
}

/**
 * The MCP servers and their state. Changing them needs the admin role (`canAdmin`); for anyone else
 * the controls stay in place, disabled, and `reason` says why (beside "Add server", and as each
 * control's title and description).
 */
export function ServersView({ initial, canAdmin, reason = null }: { initial: McpServerState[]; canAdmin: boolean; reason?: string | null }) {
  const [servers, setServers] = useState(initial);
  // Until React has hydrated, a click on Add server would do nothing: keep it off meanwhile.
  const [ready, setReady] = useState(false);
  useEffect(() => setReady(true), []);
  const [adding, setAdding] = useState(canAdmin && initial.length === 0);
  const [error, setError] = useState<string | null>(null);
  // The name the add form asked for is held by a disabled entry: offer to enable that one instead.
  const [heldDisabled, setHeldDisabled] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [form, setForm] = useState({ name: "", transport: "stdio", command: "", args: "", env: "", cwd: "", url: "", headers: "" });

  useEffect(() => {
    const poll = async () => {
      const res = await fetch("/api/servers", { cache: "no-store" }).catch(() => null);
      if (res?.ok) setServers((await res.json()).servers);
    };
    const t = setInterval(() => {
      poll().catch(reportError);
    }, 1500);
    return () => clearInterval(t);
  }, []);

  const add = async (e: React.FormEvent) => {
    e.preventDefault();
    if (!canAdmin) return;
    setBusy(true);
    setError(null);
    setHeldDisabled(null);
    const entry =
      form.transport === "stdio"
        ? {
            name: form.name,
            transport: "stdio",
            command: form.command,
            args: form.args
              .split("\n")
              .map((a) => a.trim())
              .filter(Boolean),
            env: pairs(form.env, "="),
            ...(form.cwd ? { cwd: form.cwd } : {}),
          }
        : { name: form.name, transport: "http", url: form.url, headers: pairs(form.headers, ":") };
    try {
      const res = await fetch("/api/servers", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(entry) });
      const body = await res.json();
      if (!res.ok) {
        if (res.status === 409 && servers.some((s) => s.name === form.name && !s.enabled)) setHeldDisabled(form.name);
        const details = body.error?.details?.map((d: { path: string; message: string }) => `${d.path} ${d.message}`).join("; ");
        throw new Error(details || body.error?.message || `HTTP ${res.status}`);
      }
      setForm({ name: "", transport: form.transport, command: "", args: "", env: "", cwd: "", url: "", headers: "" });
      setAdding(false);
      const list = await fetch("/api/servers", { cache: "no-store" });
      if (list.ok) setServers((await list.json()).servers);
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  };

  const toggle = async (name: string, enabled: boolean) => {
    if (!canAdmin) return;
    setError(null);
    const res = await fetch(`/api/servers/${encodeURIComponent(name)}`, {
      method: "PATCH",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ enabled }),
    });
    if (!res.ok) setError((await res.json()).error?.message ?? `HTTP ${res.status}`);
  };

  const enableHeld = async (name: string) => {
    setError(null);
    setHeldDisabled(null);
    const res = await fetch(`/api/servers/${encodeURIComponent(name)}`, {
      method: "PATCH",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ enabled: true }),
    });
    if (!res.ok) return setError((await res.json()).error?.message ?? `HTTP ${res.status}`);
    setAdding(false);
    const list = await fetch("/api/servers", { cache: "no-store" });
    if (list.ok) setServers((await list.json()).servers);
  };

  const remove = async (name: string) => {
    if (!canAdmin) return;
    if (!confirm(`Remove the MCP server "${name}" from the config? Its run history stays.`)) return;
    const res = await fetch(`/api/servers/${encodeURIComponent(name)}`, { method: "DELETE" });
    if (!res.ok) setError((await res.json()).error?.message ?? `HTTP ${res.status}`);
    else setServers((s) => s.filter((x) => x.name !== name));
  };

  const locked = !canAdmin ? (reason ?? undefined) : undefined;
  const describedBy = !canAdmin && reason ? REASON_ID : undefined;

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-end gap-3">
        <div>
          <h1 className="text-lg font-semibold tracking-tight">MCP servers</h1>
          <p className="text-muted-foreground">
            Tool sources over stdio or Streamable HTTP. They live in the runtime config (Settings); a server that dies is reconnected with backoff.
          </p>
        </div>
        <div className="ml-auto flex flex-col items-end gap-1">
          <button
            type="button"
            className={buttonClass.primary}
            onClick={() => setAdding((a) => !a)}
            disabled={!canAdmin || !ready}
            title={locked}
            aria-describedby={describedBy}
            aria-expanded={canAdmin ? adding : undefined}
            data-testid="add-server-toggle"
          >
            <Plus className="size-3.5" /> Add server
          </button>
          {!canAdmin && reason && <DisabledReason id={REASON_ID} reason={reason} testId="servers-admin-reason" className="max-w-sm" />}
        </div>
      </div>

      {adding && canAdmin && (
        <Card title="Add a server">
          <form method="post" onSubmit={add} className="grid gap-3 md:grid-cols-2" aria-label="Add an MCP server">
            <label className="space-y-1">
              <span className="text-[12px] font-medium">Name</span>
              <input
                required
                value={form.name}
                onChange={(e) => setForm({ ...form, name: e.target.value })}
                className={field}
                placeholder="everything"
                aria-label="Server name"
              />
            </label>
            <label className="space-y-1">
              <span className="text-[12px] font-medium">Transport</span>
              <select value={form.transport} onChange={(e) => setForm({ ...form, transport: e.target.value })} className={field} aria-label="Transport">
                <option value="stdio">stdio (start a local command)</option>
                <option value="http">Streamable HTTP (connect to a URL)</option>
              </select>
            </label>
            {form.transport === "stdio" ? (
              <>
                <label className="space-y-1">
                  <span className="text-[12px] font-medium">Command</span>
                  <input
                    required
                    value={form.command}
                    onChange={(e) => setForm({ ...form, command: e.target.value })}
                    className={field}
                    placeholder="node"
                    aria-label="Command"
                  />
                </label>
                <label className="space-y-1">
                  <span className="text-[12px] font-medium">Working directory (optional)</span>
                  <input value={form.cwd} onChange={(e) => setForm({ ...form, cwd: e.target.value })} className={field} aria-label="Working directory" />
                </label>
                <label className="space-y-1">
                  <span className="text-[12px] font-medium">Arguments, one per line</span>
                  <textarea
                    value={form.args}
                    onChange={(e) => setForm({ ...form, args: e.target.value })}
                    rows={3}
                    className="w-full rounded-md border bg-background p-2 font-mono text-[12px]"
                    aria-label="Arguments"
                  />
                </label>
                <label className="space-y-1">
                  <span className="text-[12px] font-medium">Environment, KEY=VALUE per line</span>
                  <textarea
                    value={form.env}
                    onChange={(e) => setForm({ ...form, env: e.target.value })}
                    rows={3}
                    className="w-full rounded-md border bg-background p-2 font-mono text-[12px]"
                    aria-label="Environment"
                  />
                </label>
              </>
            ) : (
              <>
                <label className="space-y-1">
                  <span className="text-[12px] font-medium">URL</span>
                  <input
                    required
                    type="url"
                    value={form.url}
                    onChange={(e) => setForm({ ...form, url: e.target.value })}
                    className={field}
                    placeholder="http://127.0.0.1:3001/mcp"
                    aria-label="URL"
                  />
                </label>
                <label className="space-y-1">
                  <span className="text-[12px] font-medium">Headers, Name: value per line</span>
                  <textarea
                    value={form.headers}
                    onChange={(e) => setForm({ ...form, headers: e.target.value })}
                    rows={3}
                    className="w-full rounded-md border bg-background p-2 font-mono text-[12px]"
                    aria-label="Headers"
                  />
                </label>
              </>
            )}
            <div className="flex items-center gap-2 md:col-span-2">
              <button type="submit" className={buttonClass.primary} disabled={busy}>
                {busy ? "Adding…" : "Add and connect"}
              </button>
              {error && (
                <span role="alert" className="text-destructive">
                  {error}
                </span>
              )}
              {heldDisabled && (
                <button
                  type="button"
                  className={buttonClass.secondary}
                  onClick={() => enableHeld(heldDisabled).catch(reportError)}
                  data-testid="enable-held-server"
                >
                  Enable it
                </button>
              )}
            </div>
          </form>
        </Card>
      )}

      {error && !adding && (
        <p role="alert" className="text-destructive">
          {error}
        </p>
      )}
      {servers.length === 0 ? (
        <div className="rounded-lg border border-dashed p-10 text-center text-muted-foreground">
          {canAdmin ? (
            <>
              No MCP server yet. Add one, or declare it under <code>mcpServers</code> in Settings.
            </>
          ) : (
            "No MCP server yet. An admin can add one."
          )}
        </div>
      ) : (
        <ul className="space-y-2" aria-label="Servers">
          {servers.map((s) => (
            <li key={s.name} data-testid="server" data-state={s.state} data-auth-required={s.authRequired ? "true" : undefined}>
              <Card>
                <div className="flex flex-wrap items-center gap-2">
                  <span className="font-semibold">{s.name}</span>
                  <Badge>{s.transport}</Badge>
                  {s.enabled && s.authRequired ? (
                    <Badge tone="warning" className="font-mono">
                      sign-in required
                    </Badge>
                  ) : (
                    <Badge tone={s.enabled ? (STATE_TONE[s.state] ?? "neutral") : "neutral"} className="font-mono">
                      {s.enabled ? s.state : "disabled"}
                    </Badge>
                  )}
                  {s.enabled && s.authRequired && <OAuthButtons server={s.name} authRequired signedIn={false} canAdmin={canAdmin} reason={reason} />}
                  {s.protocolVersion && <Badge title="negotiated protocol version">{s.protocolVersion}</Badge>}
                  {s.serverInfo && (
                    <span className="text-muted-foreground">
                      {s.serverInfo.name} {s.serverInfo.version}
                    </span>
                  )}
                  <Link href={`/?source=${encodeURIComponent(`mcp:${s.name}`)}`} className="text-primary hover:underline">
                    {s.toolCount} tool{s.toolCount === 1 ? "" : "s"}
                  </Link>
                  <Link
                    href={`/servers/${encodeURIComponent(s.name)}`}
                    className="text-primary hover:underline"
                    aria-label={`Browse resources and prompts of ${s.name}`}
                  >
                    resources and prompts
                  </Link>
                  {s.failures > 0 && s.nextRetryAt && (
                    <span className="text-muted-foreground">
                      retry #{s.failures} at {new Date(s.nextRetryAt).toLocaleTimeString()}
                    </span>
                  )}
                  <button
                    type="button"
                    className={`${buttonClass.ghost} ml-auto`}
                    onClick={() => toggle(s.name, !s.enabled)}
                    disabled={!canAdmin}
                    title={locked}
                    aria-describedby={describedBy}
                    aria-label={`${s.enabled ? "Disable" : "Enable"} ${s.name}`}
                  >
                    {s.enabled ? "Disable" : "Enable"}
                  </button>
                  <button
                    type="button"
                    className={buttonClass.ghost}
                    onClick={() => remove(s.name)}
                    disabled={!canAdmin}
                    title={locked}
                    aria-describedby={describedBy}
                    aria-label={`Remove ${s.name}`}
                  >
                    <Trash2 className="size-3.5" /> Remove
                  </button>
                </div>
                {s.error && !s.authRequired && (
                  <p className="mt-2 rounded-md border border-destructive/30 bg-destructive/5 px-2 py-1 text-destructive" data-testid="server-error">
                    {s.error}
                  </p>
                )}
                {s.error && s.authRequired && (
                  <p className="mt-2 rounded-md border border-warning/40 bg-warning/10 px-2 py-1" data-testid="server-signin">
                    {s.error}
                  </p>
                )}
                {s.excluded.length > 0 && (
                  <div className="mt-2 text-[12px]">
                    <span className="font-medium">Excluded tools:</span>
                    <ul className="ml-4 list-disc">
                      {s.excluded.map((x) => (
                        <li key={x.tool}>
                          <code className="font-mono">{x.tool}</code>: {x.reason}
                        </li>
                      ))}
                    </ul>
                  </div>
                )}
                {s.stderrTail.length > 0 && (
                  <details className="mt-2">
                    <summary className="cursor-pointer text-[12px] text-muted-foreground">stderr ({s.stderrTail.length} lines)</summary>
                    <pre {...scrollRegion(`stderr of ${s.name}`)} className="mt-1 max-h-48 overflow-auto rounded-md bg-muted/60 p-2 font-mono text-[11px]">
                      {s.stderrTail.join("\n")}
                    </pre>
                  </details>
                )}
              </Card>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
