"use client";
import { Fragment, useId, useState } from "react";
import { useRouter } from "next/navigation";
import { PartyPopper, UserPlus } from "lucide-react";
import { ROLES, type Role } from "@/lib/auth/roles";
import type { TokenInfo } from "@/lib/auth/tokens";
import type { UserInfo } from "@/lib/auth/users";
import { Badge } from "@/components/ui/Badge";
import { Card } from "@/components/ui/Card";
import { buttonClass } from "@/components/ui/button-styles";
import { tableRegion } from "@/components/ui/scroll-region";
import { ApiError, callApi, FieldError, fieldClass, labelTextClass, messageOf, TokenTable } from "./TokensView";
import { reportError } from "@/components/ui/report-error";

/** What one row last said: an error or a confirmation, next to that person. */
type RowNote = { tone: "error" | "ok"; text: string };

/**
 * People and everyone's API tokens, for admins. `me` is the signed-in admin's user id (null for
 * the environment admin token); `welcome` comes from the first-admin link (/setup → /users?welcome=1).
 */
export function UsersView({
  users: initialUsers,
  tokens: initialTokens,
  me,
  welcome,
  firstAdminEmail = "admin@localhost",
}: {
  users: UserInfo[];
  tokens: TokenInfo[];
  me: string | null;
  welcome: boolean;
  firstAdminEmail?: string;
}) {
  const router = useRouter();
  const [users, setUsers] = useState(initialUsers);
  const [tokens, setTokens] = useState(initialTokens);
  const [pageError, setPageError] = useState<string | null>(null);
  const [notes, setNotes] = useState<Record<string, RowNote>>({});
  const [pending, setPending] = useState<string | null>(null); // "<userId>:<action>"
  const [confirmRemove, setConfirmRemove] = useState<string | null>(null);
  const [passwordFor, setPasswordFor] = useState<string | null>(null);
  const [welcomeDone, setWelcomeDone] = useState<string | null>(null);

  const meUser = users.find((u) => u.id === me) ?? null;
  const showWelcome = welcome && (welcomeDone !== null || meUser?.email === firstAdminEmail);

  const note = (id: string, n: RowNote | null) =>
    setNotes((all) => {
      const next = { ...all };
      if (n) next[id] = n;
      else delete next[id];
      return next;
    });

  const reload = async () => {
    try {
      const [u, t] = await Promise.all([callApi<{ users: UserInfo[] }>("GET", "/api/users"), callApi<{ tokens: TokenInfo[] }>("GET", "/api/tokens?all=1")]);
      setUsers(u.users);
      setTokens(t.tokens);
      setPageError(null);
    } catch (err) {
      setPageError(`Could not reload users and tokens: ${messageOf(err)}`);
    }
  };

  /** Runs one row action, with its pending state and its note. */
  const act = async (u: UserInfo, action: string, run: () => Promise<string | null>) => {
    setPending(`${u.id}:${action}`);
    note(u.id, null);
    try {
      const ok = await run();
      if (ok) note(u.id, { tone: "ok", text: ok });
      await reload();
    } catch (err) {
      // "Cannot demote the last admin: …" reads better without the API's "/role " prefix.
      const roleMsg = err instanceof ApiError ? err.fields["/role"] : undefined;
      note(u.id, { tone: "error", text: roleMsg ?? messageOf(err) });
    } finally {
      setPending(null);
    }
  };

  const changeRole = (u: UserInfo, role: Role) => {
    if (role === u.role) return;
    if (u.id === me && role !== "admin" && !window.confirm(`Demote yourself to ${role}? You will lose access to this page and to the admin settings.`)) return;
    act(u, "role", async () => {
      await callApi("PATCH", `/api/users/${encodeURIComponent(u.id)}`, { role });
      if (u.id === me) router.refresh();
      return `Role changed from ${u.role} to ${role}${u.id === me ? "" : "; their browsers were signed out"}.`;
    }).catch(reportError);
  };

  const signOutEverywhere = (u: UserInfo) =>
    act(u, "sessions", async () => {
      const { revoked } = await callApi<{ revoked: number }>("DELETE", `/api/users/${encodeURIComponent(u.id)}/sessions`);
      if (u.id === me) {
        window.location.href = "/sign-in";
        return null;
      }
      return `Signed out of ${revoked} ${revoked === 1 ? "session" : "sessions"} (API tokens stay valid).`;
    });

  const remove = (u: UserInfo) =>
    act(u, "remove", async () => {
      await callApi("DELETE", `/api/users/${encodeURIComponent(u.id)}`);
      setConfirmRemove(null);
      if (u.id === me) {
        window.location.href = "/sign-in";
        return null;
      }
      setPageError(null);
      return null;
    });

  return (
    <div className="space-y-4">
      <div>
        <h1 className="text-lg font-semibold tracking-tight">Users and tokens</h1>
        <p className="text-muted-foreground">
          Who may sign in, with which role (viewer → runner → admin), and every API token. A new password or a role change signs that person out of their other
          browsers; their API tokens stay until revoked.
        </p>
      </div>

      {showWelcome && meUser && (
        <WelcomeCard
          me={meUser}
          done={welcomeDone}
          onDone={async (email) => {
            setWelcomeDone(email);
            await reload();
            router.refresh();
          }}
        />
      )}

      {pageError && (
        <p role="alert" className="rounded-md border border-destructive/30 bg-destructive/5 px-3 py-2 text-destructive">
          {pageError}
        </p>
      )}

      <AddUserForm onAdded={reload} />

      <Card
        title="Users"
        actions={
          <span className="text-[12px] text-muted-foreground">
            {users.length} {users.length === 1 ? "person" : "people"}
          </span>
        }
        bodyClassName="p-0"
      >
        {users.length === 0 ? (
          <p className="p-6 text-center text-muted-foreground">No users yet.</p>
        ) : (
          <div className="overflow-x-auto" {...tableRegion("Users")}>
            <table className="reflow-table w-full text-left text-[13px]" data-testid="users-table">
              <thead className="border-b text-[11px] uppercase tracking-wide text-muted-foreground">
                <tr>
                  <th scope="col" className="px-3 py-2 font-medium">
                    Name
                  </th>
                  <th scope="col" className="px-3 py-2 font-medium">
                    Email
                  </th>
                  <th scope="col" className="px-3 py-2 font-medium">
                    Role
                  </th>
                  <th scope="col" className="px-3 py-2 font-medium">
                    Sign-in
                  </th>
                  <th scope="col" className="px-3 py-2 text-right font-medium">
                    Sessions
                  </th>
                  <th scope="col" className="px-3 py-2 text-right font-medium">
                    Tokens
                  </th>
                  <th scope="col" className="px-3 py-2 font-medium">
                    <span className="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {users.map((u) => {
                  const busy = pending?.startsWith(`${u.id}:`) ?? false;
                  const n = notes[u.id];
                  const isMe = u.id === me;
                  return (
                    <Fragment key={u.id}>
                      <tr
                        className={`hover:bg-accent/50 ${n || passwordFor === u.id || confirmRemove === u.id ? "" : "border-b last:border-0"}`}
                        data-testid="user-row"
                        data-email={u.email}
                      >
                        <td className="max-w-[200px] truncate px-3 py-1.5 font-medium" title={u.name}>
                          {u.name}
                          {isMe && <span className="ml-1 font-normal text-muted-foreground">(you)</span>}
                        </td>
                        <td className="max-w-[240px] truncate px-3 py-1.5 font-mono text-[12px] max-sm:basis-full" title={u.email}>
                          {u.email}
                        </td>
                        <td className="px-3 py-1.5">
                          <label className="sr-only" htmlFor={`role-${u.id}`}>
                            Role of {u.email}
                          </label>
                          <select
                            id={`role-${u.id}`}
                            value={u.role}
                            disabled={busy}
                            onChange={(e) => changeRole(u, e.target.value as Role)}
                            className="h-7 rounded-md border bg-background px-1.5 text-[12px]"
                            aria-describedby={n ? `note-${u.id}` : undefined}
                          >
                            {ROLES.map((r) => (
                              <option key={r} value={r}>
                                {r}
                              </option>
                            ))}
                          </select>
                        </td>
                        <td className="px-3 py-1.5">
                          <span className="flex flex-wrap gap-1">
                            {u.methods.length ? u.methods.map((m) => <Badge key={m}>{m}</Badge>) : <span className="text-muted-foreground">none</span>}
                          </span>
                        </td>
                        <td className="px-3 py-1.5 text-right tabular-nums" data-label="Sessions">
                          {u.activeSessions}
                        </td>
                        <td className="px-3 py-1.5 text-right tabular-nums" data-label="Tokens">
                          {u.activeTokens}
                        </td>
                        <td className="whitespace-nowrap px-3 py-1.5 text-right">
                          <button
                            type="button"
                            className={buttonClass.ghost}
                            disabled={busy}
                            onClick={() => {
                              setPasswordFor(passwordFor === u.id ? null : u.id);
                              setConfirmRemove(null);
                            }}
                            aria-expanded={passwordFor === u.id}
                            aria-label={`Set password of ${u.email}`}
                          >
                            Set password
                          </button>
                          <button
                            type="button"
                            className={buttonClass.ghost}
                            disabled={busy}
                            onClick={() => signOutEverywhere(u)}
                            aria-label={`${pending === `${u.id}:sessions` ? "Signing out…" : "Sign out everywhere"}: ${u.email}`}
                            title={isMe ? "Signs you out too" : "Ends every browser session (API tokens stay valid)"}
                          >
                            {pending === `${u.id}:sessions` ? "Signing out…" : "Sign out everywhere"}
                          </button>
                          <button
                            type="button"
                            className={`${buttonClass.ghost} hover:text-destructive`}
                            disabled={busy}
                            onClick={() => {
                              setConfirmRemove(u.id);
                              setPasswordFor(null);
                            }}
                            aria-label={`Remove ${u.email}`}
                          >
                            Remove
                          </button>
                        </td>
                      </tr>
                      {passwordFor === u.id && (
                        <tr className={n || confirmRemove === u.id ? "" : "border-b last:border-0"}>
                          <td colSpan={7} className="bg-muted/40 px-3 py-2">
                            <SetPasswordForm
                              user={u}
                              isMe={isMe}
                              onCancel={() => setPasswordFor(null)}
                              onSaved={async () => {
                                setPasswordFor(null);
                                note(u.id, {
                                  tone: "ok",
                                  text: isMe ? "Your password was changed." : `Password changed; ${u.email} was signed out of their browsers.`,
                                });
                                await reload();
                              }}
                            />
                          </td>
                        </tr>
                      )}
                      {confirmRemove === u.id && (
                        <tr className={n ? "" : "border-b last:border-0"}>
                          <td colSpan={7} className="bg-destructive/5 px-3 py-2">
                            <div className="flex flex-wrap items-center gap-2" role="group" aria-label={`Confirm removing ${u.email}`}>
                              <span>
                                Remove <strong>{u.email}</strong>? Their sessions and API tokens go with them; their runs and audit entries stay.
                                {isMe && " This is you: you will be signed out."}
                              </span>
                              <button type="button" className={buttonClass.danger} disabled={busy} onClick={() => remove(u)}>
                                {pending === `${u.id}:remove` ? "Removing…" : "Yes, remove"}
                              </button>
                              <button type="button" className={buttonClass.ghost} disabled={busy} onClick={() => setConfirmRemove(null)}>
                                Cancel
                              </button>
                            </div>
                          </td>
                        </tr>
                      )}
                      {n && (
                        <tr className="border-b last:border-0">
                          <td colSpan={7} className="px-3 pb-2 pt-0">
                            <p
                              id={`note-${u.id}`}
                              role={n.tone === "error" ? "alert" : "status"}
                              className={`flex items-center gap-2 text-[12px] ${n.tone === "error" ? "text-destructive" : "text-success"}`}
                              data-testid="user-row-note"
                            >
                              {n.text}
                              <button type="button" className={buttonClass.ghost} onClick={() => note(u.id, null)} aria-label="Dismiss">
                                Dismiss
                              </button>
                            </p>
                          </td>
                        </tr>
                      )}
                    </Fragment>
                  );
                })}
              </tbody>
            </table>
          </div>
        )}
      </Card>

      <Card
        title="All API tokens"
        actions={
          <span className="text-[12px] text-muted-foreground">
            {tokens.filter((t) => t.state === "active").length} active of {tokens.length}
          </span>
        }
        bodyClassName="p-0"
      >
        <TokenTable tokens={tokens} showOwner onRevoked={reload} emptyText="Nobody has an API token yet." />
      </Card>
    </div>
  );
}

/** The first admin (admin@localhost, random password) names themselves and picks a password. */
function WelcomeCard({ me, done, onDone }: { me: UserInfo; done: string | null; onDone: (email: string) => Promise<void> }) {
  const id = useId();
  const [form, setForm] = useState({ name: me.name, email: "", password: "" });
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [fields, setFields] = useState<Record<string, string>>({});

  const save = async (e: React.FormEvent) => {
    e.preventDefault();
    setError(null);
    setFields({});
    const local: Record<string, string> = {};
    if (!form.name.trim()) local["/name"] = "must not be empty";
    if (!form.email.trim()) local["/email"] = "must be an email address such as ana@example.com";
    if (form.password.length < 8) local["/password"] = "must be at least 8 characters";
    if (Object.keys(local).length) {
      setFields(local);
      return;
    }
    setBusy(true);
    try {
      const { user } = await callApi<{ user: UserInfo }>("PATCH", `/api/users/${encodeURIComponent(me.id)}`, {
        name: form.name.trim(),
        email: form.email.trim(),
        password: form.password,
      });
      await onDone(user.email);
    } catch (err) {
      setError(messageOf(err));
      if (err instanceof ApiError) setFields(err.fields);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section aria-labelledby={`${id}-title`} className="space-y-3 rounded-lg border border-primary/40 bg-primary/5 p-4 shadow-xs" data-testid="welcome-card">
      <div className="flex items-center gap-2">
        <PartyPopper className="size-4 text-primary" aria-hidden />
        <h2 id={`${id}-title`} className="text-[15px] font-semibold tracking-tight">
          Welcome — you are the first admin. Set your email and password so you can sign in again
        </h2>
      </div>
      {done ? (
        <p role="status" className="text-success" data-testid="welcome-done">
          Saved. Next time, sign in as <strong className="font-mono">{done}</strong> with the password you just chose.
        </p>
      ) : (
        <>
          <p className="text-muted-foreground">
            The link you opened signed you in as <code className="font-mono text-[12px]">{me.email}</code> with a random password nobody knows. Until you set
            your own, you cannot sign in again once this session ends.
          </p>
          <form method="post" onSubmit={save} className="grid gap-3 md:grid-cols-3" aria-label="Set your name, email and password" noValidate>
            <label className="space-y-1">
              <span className={labelTextClass}>Name</span>
              <input
                required
                value={form.name}
                onChange={(e) => setForm({ ...form, name: e.target.value })}
                className={fieldClass}
                autoComplete="name"
                aria-invalid={!!fields["/name"]}
                aria-describedby={`${id}-name-err`}
              />
              <FieldError id={`${id}-name-err`} message={fields["/name"]} />
            </label>
            <label className="space-y-1">
              <span className={labelTextClass}>Email</span>
              <input
                required
                type="email"
                value={form.email}
                onChange={(e) => setForm({ ...form, email: e.target.value })}
                className={fieldClass}
                placeholder="ana@example.com"
                autoComplete="email"
                aria-invalid={!!fields["/email"]}
                aria-describedby={`${id}-email-err`}
              />
              <FieldError id={`${id}-email-err`} message={fields["/email"]} />
            </label>
            <label className="space-y-1">
              <span className={labelTextClass}>Password (at least 8 characters)</span>
              <input
                required
                type="password"
                minLength={8}
                value={form.password}
                onChange={(e) => setForm({ ...form, password: e.target.value })}
                className={fieldClass}
                autoComplete="new-password"
                aria-invalid={!!fields["/password"]}
                aria-describedby={`${id}-pw-err`}
              />
              <FieldError id={`${id}-pw-err`} message={fields["/password"]} />
            </label>
            <div className="flex flex-wrap items-center gap-2 md:col-span-3">
              <button type="submit" className={buttonClass.primary} disabled={busy}>
                {busy ? "Saving…" : "Save and keep me signed in"}
              </button>
              {error && (
                <span role="alert" className="text-destructive">
                  {error}
                </span>
              )}
            </div>
          </form>
        </>
      )}
    </section>
  );
}

function AddUserForm({ onAdded }: { onAdded: () => Promise<void> }) {
  const id = useId();
  const empty = { email: "", name: "", password: "", role: "viewer" as Role };
  const [form, setForm] = useState(empty);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [fields, setFields] = useState<Record<string, string>>({});
  const [added, setAdded] = useState<string | null>(null);

  const add = async (e: React.FormEvent) => {
    e.preventDefault();
    setError(null);
    setFields({});
    setAdded(null);
    const local: Record<string, string> = {};
    if (!form.email.trim()) local["/email"] = "must be an email address such as ana@example.com";
    if (form.password.length < 8) local["/password"] = "must be at least 8 characters";
    if (Object.keys(local).length) {
      setFields(local);
      return;
    }
    setBusy(true);
    try {
      const { user } = await callApi<{ user: UserInfo }>("POST", "/api/users", {
        email: form.email.trim(),
        ...(form.name.trim() ? { name: form.name.trim() } : {}),
        password: form.password,
        role: form.role,
      });
      setAdded(`Added ${user.email} as ${user.role}. Give them their password through a safe channel; they can sign in now.`);
      setForm(empty);
      await onAdded();
    } catch (err) {
      setError(messageOf(err));
      if (err instanceof ApiError) setFields(err.fields);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card
      title={
        <span className="inline-flex items-center gap-1.5">
          <UserPlus className="size-3.5" aria-hidden /> Add a user
        </span>
      }
    >
      <form
        method="post"
        onSubmit={add}
        className="grid gap-3 md:grid-cols-[minmax(0,2fr)_minmax(0,1.5fr)_minmax(0,1.5fr)_minmax(0,1fr)_auto] md:items-start"
        aria-label="Add a user"
        noValidate
      >
        <label className="space-y-1">
          <span className={labelTextClass}>Email</span>
          <input
            required
            type="email"
            value={form.email}
            onChange={(e) => setForm({ ...form, email: e.target.value })}
            className={fieldClass}
            placeholder="ana@example.com"
            autoComplete="off"
            aria-invalid={!!fields["/email"]}
            aria-describedby={`${id}-email-err`}
          />
          <FieldError id={`${id}-email-err`} message={fields["/email"]} />
        </label>
        <label className="space-y-1">
          <span className={labelTextClass}>Name (optional)</span>
          <input
            value={form.name}
            onChange={(e) => setForm({ ...form, name: e.target.value })}
            className={fieldClass}
            placeholder="Ana"
            autoComplete="off"
            aria-invalid={!!fields["/name"]}
            aria-describedby={`${id}-name-err`}
          />
          <FieldError id={`${id}-name-err`} message={fields["/name"]} />
        </label>
        <label className="space-y-1">
          <span className={labelTextClass}>Password (at least 8 characters)</span>
          <input
            required
            type="password"
            minLength={8}
            value={form.password}
            onChange={(e) => setForm({ ...form, password: e.target.value })}
            className={fieldClass}
            autoComplete="new-password"
            aria-invalid={!!fields["/password"]}
            aria-describedby={`${id}-pw-err`}
          />
          <FieldError id={`${id}-pw-err`} message={fields["/password"]} />
        </label>
        <label className="space-y-1">
          <span className={labelTextClass}>Role</span>
          <select
            value={form.role}
            onChange={(e) => setForm({ ...form, role: e.target.value as Role })}
            className={fieldClass}
            aria-invalid={!!fields["/role"]}
            aria-describedby={`${id}-role-err`}
          >
            {ROLES.map((r) => (
              <option key={r} value={r}>
                {r}
              </option>
            ))}
          </select>
          <FieldError id={`${id}-role-err`} message={fields["/role"]} />
        </label>
        <div className="space-y-1">
          <span className={`${labelTextClass} invisible hidden md:block`} aria-hidden>
            &nbsp;
          </span>
          <button type="submit" className={buttonClass.primary} disabled={busy}>
            {busy ? "Adding…" : "Add user"}
          </button>
        </div>
        {error && (
          <p role="alert" className="text-destructive md:col-span-5">
            {error}
          </p>
        )}
        {added && (
          <p role="status" className="text-success md:col-span-5">
            {added}
          </p>
        )}
      </form>
    </Card>
  );
}

function SetPasswordForm({ user, isMe, onCancel, onSaved }: { user: UserInfo; isMe: boolean; onCancel: () => void; onSaved: () => Promise<void> }) {
  const id = useId();
  const [password, setPassword] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const save = async (e: React.FormEvent) => {
    e.preventDefault();
    setError(null);
    if (password.length < 8) {
      setError("The password must be at least 8 characters.");
      return;
    }
    setBusy(true);
    try {
      await callApi("PATCH", `/api/users/${encodeURIComponent(user.id)}`, { password });
      await onSaved();
    } catch (err) {
      const fieldMsg = err instanceof ApiError ? err.fields["/password"] : undefined;
      setError(fieldMsg ? `Password ${fieldMsg}` : messageOf(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form method="post" onSubmit={save} className="flex flex-wrap items-center gap-2" aria-label={`Set the password of ${user.email}`} noValidate>
      <label htmlFor={`${id}-pw`} className={labelTextClass}>
        New password for {isMe ? "yourself" : user.email}
      </label>
      <input
        id={`${id}-pw`}
        type="password"
        required
        minLength={8}
        autoFocus
        value={password}
        onChange={(e) => setPassword(e.target.value)}
        className={`${fieldClass} w-56`}
        autoComplete="new-password"
        aria-invalid={!!error}
        aria-describedby={error ? `${id}-err` : undefined}
      />
      <button type="submit" className={buttonClass.primary} disabled={busy}>
        {busy ? "Saving…" : "Save password"}
      </button>
      <button type="button" className={buttonClass.ghost} disabled={busy} onClick={onCancel}>
        Cancel
      </button>
      <span className="text-[12px] text-muted-foreground">{isMe ? "Your other browsers stay signed in." : "Their browsers will be signed out."}</span>
      {error && (
        <span id={`${id}-err`} role="alert" className="basis-full text-[12px] text-destructive">
          {error}
        </span>
      )}
    </form>
  );
}
