"use client";

import { useEffect, useState } from "react";
import { buttonClass } from "@/components/ui/button-styles";

/**
 * Email and password, and single sign-on when it is configured. After signing in the browser
 * goes to `next` (a path on this studio), or reloads the page it is on.
 */
export function SignInForm({ sso, next }: { sso: { id: string; name: string } | null; next?: string }) {
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // Until React has hydrated, a submit would be the browser's own: keep the button off meanwhile.
  const [ready, setReady] = useState(false);
  useEffect(() => setReady(true), []);
  const target = () => (next && next.startsWith("/") && !next.startsWith("//") ? next : window.location.pathname + window.location.search);

  async function post(path: string, body: object): Promise<{ ok: boolean; data: Record<string, unknown> }> {
    const res = await fetch(path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    const data = (await res.json().catch(() => ({}))) as Record<string, unknown>;
    if (res.status === 429) {
      const wait = res.headers.get("x-retry-after");
      return { ok: false, data: { message: `Too many sign-in attempts. Try again${wait ? ` in ${wait} s` : " in a minute"}.` } };
    }
    return { ok: res.ok, data };
  }

  async function signIn(e: React.FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    const r = await post("/api/auth/sign-in/email", { email, password });
    if (r.ok) {
      window.location.assign(target());
      return;
    }
    setBusy(false);
    setError(messageOf(r.data) ?? "Sign-in failed.");
  }

  async function signInSso() {
    if (!sso) return;
    setBusy(true);
    setError(null);
    const r = await post("/api/auth/sign-in/social", { provider: sso.id, callbackURL: target(), errorCallbackURL: "/sign-in" });
    if (r.ok && typeof r.data.url === "string") {
      window.location.assign(r.data.url);
      return;
    }
    setBusy(false);
    setError(messageOf(r.data) ?? "Single sign-on is not available right now.");
  }

  return (
    <div className="mx-auto mt-10 max-w-sm rounded-lg border bg-card p-6 shadow-sm">
      <h1 className="mb-1 text-lg font-semibold">Sign in to Tool Studio</h1>
      <p className="mb-5 text-muted-foreground">Your role decides what you may see, run and change.</p>
      {/* method="post": even a submit before hydration never puts the password in the URL. */}
      <form onSubmit={signIn} method="post" className="space-y-3" noValidate>
        <label className="block">
          <span className="mb-1 block font-medium">Email</span>
          <input
            className="w-full rounded-md border bg-background px-2 py-1.5"
            type="email"
            name="email"
            autoComplete="username"
            required
            value={email}
            onChange={(e) => setEmail(e.target.value)}
          />
        </label>
        <label className="block">
          <span className="mb-1 block font-medium">Password</span>
          <input
            className="w-full rounded-md border bg-background px-2 py-1.5"
            type="password"
            name="password"
            autoComplete="current-password"
            required
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
        </label>
        {error && (
          <p role="alert" className="rounded-md border border-red-300 bg-red-50 px-2 py-1.5 text-red-800 dark:border-red-800 dark:bg-red-950 dark:text-red-200">
            {error}
          </p>
        )}
        <button type="submit" className={buttonClass.primary + " w-full justify-center"} disabled={busy || !ready}>
          Sign in
        </button>
      </form>
      {sso && (
        <>
          <div className="my-4 flex items-center gap-2 text-muted-foreground">
            <span className="h-px flex-1 bg-border" />
            or
            <span className="h-px flex-1 bg-border" />
          </div>
          <button type="button" className={buttonClass.secondary + " w-full justify-center"} onClick={signInSso} disabled={busy || !ready}>
            Continue with {sso.name}
          </button>
        </>
      )}
      <p className="mt-5 text-xs text-muted-foreground">
        Scripts and headless browsers can send <code>Authorization: Bearer &lt;token&gt;</code> instead: an API token, or STUDIO_ADMIN_TOKEN.
      </p>
    </div>
  );
}

function messageOf(data: Record<string, unknown>): string | null {
  if (typeof data.message === "string") return data.message;
  const e = data.error as { message?: unknown } | undefined;
  return typeof e?.message === "string" ? e.message : null;
}
