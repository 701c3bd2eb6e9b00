"use client";
import { useState } from "react";
import { Check, Copy, KeyRound } from "lucide-react";
import { ROLES, roleAtLeast, type Role } from "@/lib/auth/roles";
import type { TokenInfo } from "@/lib/auth/tokens";
import { formatTime } from "@/components/runs/RunTable";
import { Badge, type Tone } from "@/components/ui/Badge";
import { Card } from "@/components/ui/Card";
import { buttonClass } from "@/components/ui/button-styles";
import { scrollRegion, tableRegion } from "@/components/ui/scroll-region";

/* ---------- shared by the token and user views ---------- */

export const fieldClass = "h-8 w-full rounded-md border bg-background px-2";
export const labelTextClass = "text-[12px] font-medium";

/** A refusal from the JSON API: its message, and the messages per field (`/name` → "must …"). */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly kind: string,
    readonly fields: Record<string, string> = {},
  ) {
    super(message);
  }
}

/** Calls the studio's JSON API; any refusal becomes an ApiError carrying the API's own message. */
export async function callApi<T = unknown>(method: "GET" | "POST" | "PATCH" | "DELETE", url: string, body?: unknown): Promise<T> {
  let res: Response;
  try {
    res = await fetch(url, {
      method,
      headers: { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
      cache: "no-store",
    });
  } catch (err) {
    throw new ApiError(`Could not reach the studio: ${(err as Error).message || "network error"}.`, 0, "network");
  }
  const text = await res.text();
  let json: unknown = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    /* not JSON: reported below */
  }
  if (!res.ok) {
    const e = (json as { error?: { kind?: string; message?: string; details?: { path: string; message: string }[] } } | null)?.error;
    const fields: Record<string, string> = {};
    for (const d of e?.details ?? []) if (d && typeof d.path === "string") fields[d.path] = fields[d.path] ? `${fields[d.path]}; ${d.message}` : d.message;
    const fallback = `${method} ${url} answered ${res.status} ${res.statusText}`.trim() + (text && !json ? `: ${text.slice(0, 200)}` : "");
    throw new ApiError(e?.message || fallback, res.status, e?.kind ?? "http", fields);
  }
  if (json === null && text) throw new ApiError(`${method} ${url} answered something that is not JSON.`, res.status, "bad_response");
  return json as T;
}

/** The message of anything thrown, never empty. */
export const messageOf = (err: unknown): string => (err instanceof Error && err.message ? err.message : String(err) || "Something went wrong.");

/** The error of one field, under that field. */
export function FieldError({ id, message }: { id: string; message?: string }) {
  if (!message) return null;
  return (
    <span id={id} className="block text-[12px] text-destructive">
      {message}
    </span>
  );
}

const STATE_TONE: Record<TokenInfo["state"], Tone> = { active: "success", expired: "warning", revoked: "neutral" };
const ROLE_TONE: Record<Role, Tone> = { viewer: "neutral", runner: "primary", admin: "warning" };

export function RoleBadge({ role }: { role: string }) {
  return <Badge tone={ROLE_TONE[role as Role] ?? "neutral"}>{role}</Badge>;
}

export function TokenStateBadge({ state }: { state: TokenInfo["state"] }) {
  return (
    <Badge tone={STATE_TONE[state]} dim={state === "revoked"} className="font-mono">
      {state}
    </Badge>
  );
}

/** A time as a table cell: the UTC time, the full ISO instant on hover. */
function When({ iso, none = "never" }: { iso: string | null; none?: string }) {
  if (!iso) return <span className="text-muted-foreground">{none}</span>;
  return (
    <time dateTime={iso} title={iso} className="tabular-nums">
      {formatTime(iso)}
    </time>
  );
}

/** Tokens as a table; `showOwner` adds the owner's email (the admin's view of everyone's tokens). */
export function TokenTable({
  tokens,
  showOwner = false,
  onRevoked,
  emptyText = "No API tokens yet.",
}: {
  tokens: TokenInfo[];
  showOwner?: boolean;
  onRevoked: () => void | Promise<void>;
  emptyText?: string;
}) {
  const [confirming, setConfirming] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  const revoke = async (t: TokenInfo) => {
    setBusy(t.id);
    setError(null);
    try {
      await callApi("DELETE", `/api/tokens/${encodeURIComponent(t.id)}`);
      setConfirming(null);
      await onRevoked();
    } catch (err) {
      setError(`Could not revoke "${t.name}": ${messageOf(err)}`);
    } finally {
      setBusy(null);
    }
  };

  if (tokens.length === 0) return <p className="p-6 text-center text-muted-foreground">{emptyText}</p>;
  return (
    <div>
      {error && (
        <p role="alert" className="border-b border-destructive/30 bg-destructive/5 px-3 py-2 text-destructive">
          {error}
        </p>
      )}
      <div className="overflow-x-auto" {...tableRegion(showOwner ? "Every API token" : "Your API tokens")}>
        <table className="reflow-table w-full text-left text-[13px]" data-testid={showOwner ? "all-tokens-table" : "tokens-table"}>
          <thead className="border-b text-[11px] uppercase tracking-wide text-muted-foreground">
            <tr>
              {showOwner && (
                <th scope="col" className="px-3 py-2 font-medium">
                  Owner
                </th>
              )}
              <th scope="col" className="px-3 py-2 font-medium">
                Name
              </th>
              <th scope="col" className="px-3 py-2 font-medium">
                Prefix
              </th>
              <th scope="col" className="px-3 py-2 font-medium">
                Role
              </th>
              <th scope="col" className="px-3 py-2 font-medium">
                Created
              </th>
              <th scope="col" className="px-3 py-2 font-medium">
                Expires
              </th>
              <th scope="col" className="px-3 py-2 font-medium">
                Last used
              </th>
              <th scope="col" className="px-3 py-2 font-medium">
                State
              </th>
              <th scope="col" className="px-3 py-2 font-medium">
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {tokens.map((t) => (
              <tr key={t.id} className="border-b last:border-0 hover:bg-accent/50" data-testid="token-row" data-state={t.state}>
                {showOwner && (
                  <td className="max-w-[220px] truncate px-3 py-1.5 font-mono text-[12px] max-sm:basis-full" title={t.userEmail ?? t.userId}>
                    {t.userEmail ?? t.userId}
                  </td>
                )}
                <td className="max-w-[220px] truncate px-3 py-1.5 font-medium" title={t.name}>
                  {t.name}
                </td>
                <td className="whitespace-nowrap px-3 py-1.5 font-mono text-[12px] text-muted-foreground">{t.prefix}…</td>
                <td className="px-3 py-1.5">
                  <RoleBadge role={t.role} />
                </td>
                <td className="whitespace-nowrap px-3 py-1.5 text-muted-foreground" data-label="Created">
                  <When iso={t.createdAt} />
                </td>
                <td className="whitespace-nowrap px-3 py-1.5 text-muted-foreground" data-label="Expires">
                  <When iso={t.expiresAt} />
                </td>
                <td className="whitespace-nowrap px-3 py-1.5 text-muted-foreground" data-label="Last used">
                  <When iso={t.lastUsedAt} />
                </td>
                <td className="px-3 py-1.5">
                  <span title={t.revokedAt ? `revoked ${t.revokedAt}` : undefined}>
                    <TokenStateBadge state={t.state} />
                  </span>
                </td>
                <td className="whitespace-nowrap px-3 py-1.5 text-right">
                  {t.state === "active" &&
                    (confirming === t.id ? (
                      <span className="inline-flex items-center gap-1.5">
                        <span className="text-[12px] text-muted-foreground">Revoke “{t.name}”?</span>
                        <button
                          type="button"
                          className={buttonClass.danger}
                          disabled={busy === t.id}
                          onClick={() => revoke(t)}
                          aria-label={`Confirm revoking the token ${t.name}`}
                        >
                          {busy === t.id ? "Revoking…" : "Yes, revoke"}
                        </button>
                        <button type="button" className={buttonClass.ghost} disabled={busy === t.id} onClick={() => setConfirming(null)}>
                          Cancel
                        </button>
                      </span>
                    ) : (
                      <button type="button" className={buttonClass.ghost} onClick={() => setConfirming(t.id)} aria-label={`Revoke the token ${t.name}`}>
                        Revoke
                      </button>
                    ))}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}

/** A copy-to-clipboard button that says when it worked (or that it did not). */
export function CopyButton({ text, label = "Copy" }: { text: string; label?: string }) {
  const [state, setState] = useState<"idle" | "copied" | "failed">("idle");
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setState("copied");
    } catch {
      setState("failed");
    }
    setTimeout(() => setState("idle"), 2500);
  };
  return (
    <button type="button" className={buttonClass.secondary} onClick={copy}>
      {state === "copied" ? <Check className="size-3.5" /> : <Copy className="size-3.5" />}
      {state === "copied" ? "Copied" : state === "failed" ? "Copy failed: select and copy it" : label}
    </button>
  );
}

/* ---------- the /tokens page ---------- */

const DAY_MS = 24 * 60 * 60 * 1000;
const EXPIRY_CHOICES = [
  { value: "never", label: "Never" },
  { value: "1", label: "1 day" },
  { value: "7", label: "7 days" },
  { value: "30", label: "30 days" },
  { value: "90", label: "90 days" },
  { value: "custom", label: "On a date…" },
] as const;
type Expiry = (typeof EXPIRY_CHOICES)[number]["value"];

/** Today in local time as YYYY-MM-DD (the min of the date input). */
function localDate(d: Date): string {
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${String(d.getDate()).padStart(2, "0")}`;
}

/** The expiry to send (ISO), null for never; throws a field message when the custom date is unusable. */
function expiryInstant(choice: Expiry, date: string): string | null {
  if (choice === "never") return null;
  if (choice !== "custom") return new Date(Date.now() + Number(choice) * DAY_MS).toISOString();
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) throw new Error("Choose the date the token expires.");
  const end = new Date(`${date}T23:59:59.999`); // the end of that day, local time
  if (Number.isNaN(end.getTime())) throw new Error("That is not a valid date.");
  if (end.getTime() <= Date.now()) throw new Error("The date must be in the future.");
  return end.toISOString();
}

/** A new token's role by default: your own, but an admin's tokens start at runner (admin is one click away). */
const defaultTokenRole = (own: Role): Role => (own === "admin" ? "runner" : own);

interface Created {
  token: string;
  info: TokenInfo;
}

/**
 * The signed-in person's own API tokens: create one (shown once), see and revoke them.
 * `disabledReason` replaces the create form (e.g. for the environment admin token, which owns none).
 */
export function TokensView({ tokens: initial, role, disabledReason }: { tokens: TokenInfo[]; role: Role; disabledReason?: string }) {
  const [tokens, setTokens] = useState(initial);
  const allowedRoles = ROLES.filter((r) => roleAtLeast(role, r));
  const [form, setForm] = useState<{ name: string; role: Role; expiry: Expiry; date: string }>({
    name: "",
    role: defaultTokenRole(role),
    expiry: "30",
    date: "",
  });
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [fields, setFields] = useState<Record<string, string>>({});
  const [created, setCreated] = useState<Created | null>(null);

  const reload = async () => {
    try {
      const { tokens: fresh } = await callApi<{ tokens: TokenInfo[] }>("GET", "/api/tokens");
      setTokens(fresh);
    } catch (err) {
      setError(`Could not reload the tokens: ${messageOf(err)}`);
    }
  };

  const create = async (e: React.FormEvent) => {
    e.preventDefault();
    setError(null);
    setFields({});
    let expiresAt: string | null;
    try {
      expiresAt = expiryInstant(form.expiry, form.date);
    } catch (err) {
      setFields({ "/expiresAt": messageOf(err) });
      return;
    }
    if (!form.name.trim()) {
      setFields({ "/name": "must not be empty" });
      return;
    }
    setBusy(true);
    try {
      const res = await callApi<Created>("POST", "/api/tokens", { name: form.name.trim(), role: form.role, ...(expiresAt ? { expiresAt } : {}) });
      setCreated(res);
      setForm((f) => ({ ...f, name: "" }));
      await reload();
    } catch (err) {
      setError(messageOf(err));
      if (err instanceof ApiError) setFields(err.fields);
    } finally {
      setBusy(false);
    }
  };

  const rootFieldError = fields[""];
  // `created` and the custom date exist only after a click, so `window` is there whenever these render.
  const curl = created ? `curl -H "Authorization: Bearer ${created.token}" ${window.location.origin}/api/tools` : "";
  const today = form.expiry === "custom" ? localDate(new Date()) : undefined;

  return (
    <div className="space-y-4">
      <div>
        <h1 className="text-lg font-semibold tracking-tight">API tokens</h1>
        <p className="text-muted-foreground">
          Personal tokens for scripts and agents: send one as <code className="font-mono text-[12px]">Authorization: Bearer &lt;token&gt;</code>. A token acts
          as you, with at most its role (and never more than your own role now). Only its first characters are kept visible.
        </p>
      </div>

      {created && (
        <section aria-labelledby="new-token-title" className="space-y-3 rounded-lg border border-success/40 bg-success/5 p-4 shadow-xs" data-testid="new-token">
          <div className="flex flex-wrap items-center gap-2">
            <KeyRound className="size-4 text-success" aria-hidden />
            <h2 id="new-token-title" className="text-[13px] font-semibold">
              Token “{created.info.name}” created
            </h2>
            <RoleBadge role={created.info.role} />
            <span className="text-[12px] text-muted-foreground">
              {created.info.expiresAt ? `expires ${formatTime(created.info.expiresAt)}` : "never expires"}
            </span>
            <button type="button" className={`${buttonClass.ghost} ml-auto`} onClick={() => setCreated(null)}>
              Done, hide it
            </button>
          </div>
          <p className="font-medium text-warning-foreground">Copy it now: it will not be shown again.</p>
          <div className="flex flex-wrap items-center gap-2">
            <label htmlFor="new-token-value" className="sr-only">
              The new token
            </label>
            <input
              id="new-token-value"
              readOnly
              value={created.token}
              onFocus={(e) => e.currentTarget.select()}
              className="h-8 min-w-0 flex-1 rounded-md border bg-background px-2 font-mono text-[12px]"
              data-testid="new-token-value"
            />
            <CopyButton text={created.token} label="Copy token" />
          </div>
          <div className="space-y-1">
            <p className="text-[12px] text-muted-foreground">
              Use it in the <code className="font-mono">Authorization</code> header, for example:
            </p>
            <div className="flex items-start gap-2">
              <pre {...scrollRegion("Example command")} className="min-w-0 flex-1 overflow-x-auto rounded-md bg-muted/60 p-2 font-mono text-[11px]">
                {curl}
              </pre>
              <CopyButton text={curl} label="Copy command" />
            </div>
          </div>
        </section>
      )}

      <Card title="Create a token">
        {disabledReason ? (
          <p className="text-muted-foreground" data-testid="tokens-disabled">
            {disabledReason}
          </p>
        ) : (
          <form
            method="post"
            onSubmit={create}
            className="grid gap-3 md:grid-cols-[minmax(0,2fr)_minmax(0,1fr)_minmax(0,1fr)_auto] md:items-start"
            aria-label="Create an API token"
            noValidate
          >
            <label className="space-y-1">
              <span className={labelTextClass}>Name</span>
              <input
                required
                maxLength={100}
                value={form.name}
                onChange={(e) => setForm({ ...form, name: e.target.value })}
                className={fieldClass}
                placeholder="CI pipeline"
                aria-invalid={!!fields["/name"]}
                aria-describedby={fields["/name"] ? "token-name-error" : undefined}
              />
              <FieldError id="token-name-error" message={fields["/name"]} />
            </label>
            <label className="space-y-1">
              <span className={labelTextClass}>Role</span>
              <select
                value={form.role}
                onChange={(e) => setForm({ ...form, role: e.target.value as Role })}
                className={fieldClass}
                aria-invalid={!!fields["/role"]}
                aria-describedby={fields["/role"] ? "token-role-error" : undefined}
              >
                {allowedRoles.map((r) => (
                  <option key={r} value={r}>
                    {r}
                  </option>
                ))}
              </select>
              <FieldError id="token-role-error" message={fields["/role"]} />
            </label>
            <div className="space-y-1">
              <label className="block space-y-1">
                <span className={labelTextClass}>Expires</span>
                <select
                  value={form.expiry}
                  onChange={(e) => setForm({ ...form, expiry: e.target.value as Expiry })}
                  className={fieldClass}
                  aria-invalid={!!fields["/expiresAt"]}
                  aria-describedby={fields["/expiresAt"] ? "token-expiry-error" : undefined}
                >
                  {EXPIRY_CHOICES.map((c) => (
                    <option key={c.value} value={c.value}>
                      {c.label}
                    </option>
                  ))}
                </select>
              </label>
              {form.expiry === "custom" && (
                <label className="block space-y-1">
                  <span className={labelTextClass}>Expiry date (end of day, local time)</span>
                  <input
                    type="date"
                    required
                    min={today}
                    value={form.date}
                    onChange={(e) => setForm({ ...form, date: e.target.value })}
                    className={fieldClass}
                  />
                </label>
              )}
              <FieldError id="token-expiry-error" message={fields["/expiresAt"]} />
            </div>
            <div className="space-y-1">
              <span className={`${labelTextClass} invisible hidden md:block`} aria-hidden>
                &nbsp;
              </span>
              <button type="submit" className={buttonClass.primary} disabled={busy}>
                {busy ? "Creating…" : "Create token"}
              </button>
            </div>
            {(error || rootFieldError) && (
              <p role="alert" className="text-destructive md:col-span-4">
                {error ?? rootFieldError}
              </p>
            )}
          </form>
        )}
      </Card>

      <Card
        title="Your tokens"
        actions={<span className="text-[12px] text-muted-foreground">{tokens.filter((t) => t.state === "active").length} active</span>}
        bodyClassName="p-0"
      >
        <TokenTable
          tokens={tokens}
          onRevoked={reload}
          emptyText={disabledReason ? "No personal tokens for this caller." : "No API tokens yet. Create one above."}
        />
      </Card>
    </div>
  );
}
