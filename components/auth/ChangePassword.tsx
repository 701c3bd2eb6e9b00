"use client";

import { useId, useState } from "react";
import { Card } from "@/components/ui/Card";
import { buttonClass } from "@/components/ui/button-styles";
import { fieldClass, labelTextClass } from "./TokensView";

/** A signed-in person changes their own password (better-auth checks the current one); their other browsers are signed out. */
export function ChangePassword() {
  const id = useId();
  const [current, setCurrent] = useState("");
  const [next, setNext] = useState("");
  const [state, setState] = useState<{ tone: "ok" | "error"; text: string } | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(e: React.FormEvent) {
    e.preventDefault();
    if (next.length < 8) {
      setState({ tone: "error", text: "The new password must be at least 8 characters." });
      return;
    }
    setBusy(true);
    setState(null);
    try {
      const res = await fetch("/api/auth/change-password", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ currentPassword: current, newPassword: next, revokeOtherSessions: true }),
      });
      const body = (await res.json().catch(() => ({}))) as { message?: string };
      if (res.ok) {
        setState({ tone: "ok", text: "Password changed. Your other browsers were signed out." });
        setCurrent("");
        setNext("");
      } else {
        setState({ tone: "error", text: body.message ?? `The studio answered ${res.status}.` });
      }
    } catch (err) {
      setState({ tone: "error", text: `Could not reach the studio: ${(err as Error).message}` });
    } finally {
      setBusy(false);
    }
  }

  return (
    <Card title="Your password">
      <form method="post" onSubmit={submit} className="grid gap-3 md:grid-cols-[1fr_1fr_auto] md:items-end" aria-label="Change your password" noValidate>
        <label className="space-y-1">
          <span className={labelTextClass}>Current password</span>
          <input className={fieldClass} type="password" autoComplete="current-password" value={current} onChange={(e) => setCurrent(e.target.value)} required />
        </label>
        <label className="space-y-1">
          <span className={labelTextClass}>New password (at least 8 characters)</span>
          <input
            className={fieldClass}
            type="password"
            autoComplete="new-password"
            value={next}
            onChange={(e) => setNext(e.target.value)}
            required
            aria-describedby={`${id}-note`}
          />
        </label>
        <button type="submit" className={buttonClass.secondary} disabled={busy || !current || !next}>
          {busy ? "Changing…" : "Change password"}
        </button>
      </form>
      <p
        id={`${id}-note`}
        role={state?.tone === "error" ? "alert" : "status"}
        className={`mt-2 text-[12px] ${state?.tone === "error" ? "text-destructive" : "text-success"}`}
      >
        {state?.text}
      </p>
    </Card>
  );
}
