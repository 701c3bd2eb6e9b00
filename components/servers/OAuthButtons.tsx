"use client";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { LogIn, LogOut } from "lucide-react";
import { buttonClass } from "@/components/ui/button-styles";
import { reportError } from "@/components/ui/report-error";

/**
 * Signing the studio in to (and out of) an OAuth-protected MCP server: "Sign in" starts the
 * authorization-code flow and sends the browser to the server's authorization server, which
 * sends it back to the server's page; "Sign out" forgets the tokens. Admin only: for anyone
 * else the buttons are disabled with `reason`.
 */
export function OAuthButtons({
  server,
  authRequired,
  signedIn,
  canAdmin,
  reason,
}: {
  server: string;
  authRequired: boolean;
  signedIn: boolean;
  canAdmin: boolean;
  reason?: string | null;
}) {
  const router = useRouter();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const url = `/api/servers/${encodeURIComponent(server)}/oauth`;
  const locked = canAdmin ? undefined : (reason ?? undefined);

  const call = async (method: "POST" | "DELETE") => {
    setBusy(true);
    setError(null);
    try {
      const res = await fetch(url, { method });
      const body = (await res.json()) as { authorizationUrl?: string; error?: { message?: string } };
      if (!res.ok) throw new Error(body.error?.message ?? `HTTP ${res.status}`);
      if (body.authorizationUrl) {
        window.location.assign(body.authorizationUrl);
        return;
      }
      router.refresh();
    } catch (err) {
      setError((err as Error).message);
    }
    setBusy(false);
  };

  if (!authRequired && !signedIn) return null;
  return (
    <span className="inline-flex flex-wrap items-center gap-2">
      {authRequired && (
        <button
          type="button"
          className={buttonClass.primary}
          disabled={!canAdmin || busy}
          title={locked}
          onClick={() => call("POST").catch(reportError)}
          aria-label={`Sign in to ${server}`}
        >
          <LogIn className="size-3.5" /> {busy ? "Opening sign-in…" : "Sign in"}
        </button>
      )}
      {signedIn && (
        <button
          type="button"
          className={buttonClass.secondary}
          disabled={!canAdmin || busy}
          title={locked}
          onClick={() => call("DELETE").catch(reportError)}
          aria-label={`Sign out of ${server}`}
        >
          <LogOut className="size-3.5" /> Sign out
        </button>
      )}
      {error && (
        <span role="alert" className="text-destructive">
          {error}
        </span>
      )}
    </span>
  );
}
