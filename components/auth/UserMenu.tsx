"use client";
import { useDismiss } from "@/components/ui/use-dismiss";
import Link from "next/link";
import { useCallback, useId, useRef, useState } from "react";
import { ChevronDown, KeyRound, LogOut, MonitorX, UserRound, Users } from "lucide-react";
import { actorLabel } from "@/lib/auth/principal";
import { Badge, type Tone } from "@/components/ui/Badge";

const ROLE_TONE: Record<string, Tone> = { viewer: "neutral", runner: "primary", admin: "warning" };
const VIA_LABEL: Record<string, string> = { token: "API token", "admin-token": "environment admin token", "mcp-token": "environment MCP token" };

const itemClass = "flex w-full items-center gap-2 rounded-md px-2 py-1.5 text-left text-[13px] hover:bg-accent disabled:opacity-50";

/** The signed-in person in the header: who, which role, their tokens, and the ways out. */
export function UserMenu({ name, actor, role, via }: { name: string; actor: string; role: string; via: string }) {
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState<"sign-out" | "revoke-sessions" | null>(null);
  const [error, setError] = useState<string | null>(null);
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const closeMenu = useCallback(() => setOpen(false), []);
  const menuId = useId();
  const isSession = via === "session";

  useDismiss(open, closeMenu, root, button);

  /** better-auth's sign-out (this browser) or revoke-sessions (every browser), then the sign-in page. */
  const leave = async (what: "sign-out" | "revoke-sessions") => {
    setBusy(what);
    setError(null);
    try {
      const res = await fetch(`/api/auth/${what}`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}", cache: "no-store" });
      if (!res.ok) {
        const body = (await res.json().catch(() => null)) as { error?: { message?: string }; message?: string } | null;
        throw new Error(body?.error?.message || body?.message || `The studio answered ${res.status} ${res.statusText}`.trim());
      }
      window.location.href = "/sign-in";
    } catch (err) {
      setError(`Could not sign out: ${(err as Error).message || "network error"}.`);
      setBusy(null);
    }
  };

  return (
    <div ref={root} className="relative" data-testid="user-menu">
      <button
        ref={button}
        type="button"
        onClick={() => setOpen((o) => !o)}
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        aria-haspopup="true"
        className="inline-flex max-w-[260px] items-center gap-1.5 rounded-md px-2 py-1 hover:bg-accent aria-expanded:bg-accent"
        title={isSession ? actor : `${actorLabel(actor)} (${VIA_LABEL[via] ?? via})`}
      >
        {/* Below `sm` a name would be cut to a few letters: an icon stands for it (the menu shows it whole). */}
        <UserRound className="size-4 shrink-0 sm:hidden" aria-hidden />
        <span className="sr-only sm:not-sr-only sm:min-w-0 sm:truncate sm:font-medium">{name}</span>
        <Badge tone={ROLE_TONE[role] ?? "neutral"}>{role}</Badge>
        <ChevronDown className="size-3.5 text-muted-foreground" aria-hidden />
        <span className="sr-only">Account menu</span>
      </button>

      {open && (
        <div
          id={menuId}
          className="absolute right-0 top-full z-40 mt-1 w-64 max-w-[calc(100vw-2rem)] rounded-lg border bg-popover p-1 text-popover-foreground shadow-md"
        >
          <div className="border-b px-2 pb-2 pt-1.5">
            <p className="truncate font-medium" title={name}>
              {name}
            </p>
            <p className="break-words font-mono text-[12px] text-muted-foreground" title={actor}>
              {actorLabel(actor)}
            </p>
            {!isSession && (
              <p className="mt-1 text-[12px] text-muted-foreground">Signed in with {VIA_LABEL[via] ?? via}: there is no browser session to end.</p>
            )}
          </div>
          <nav aria-label="Account" className="py-1">
            <Link href="/tokens" className={itemClass} onClick={() => setOpen(false)}>
              <KeyRound className="size-3.5 text-muted-foreground" aria-hidden /> API tokens
            </Link>
            {role === "admin" && (
              <Link href="/users" className={itemClass} onClick={() => setOpen(false)}>
                <Users className="size-3.5 text-muted-foreground" aria-hidden /> Users
              </Link>
            )}
          </nav>
          {isSession && (
            <div className="border-t pt-1">
              <button type="button" className={itemClass} disabled={busy !== null} onClick={() => leave("sign-out")}>
                <LogOut className="size-3.5 text-muted-foreground" aria-hidden /> {busy === "sign-out" ? "Signing out…" : "Sign out"}
              </button>
              <button
                type="button"
                className={itemClass}
                disabled={busy !== null}
                onClick={() => leave("revoke-sessions")}
                title="Ends your sessions in every browser; your API tokens stay valid"
              >
                <MonitorX className="size-3.5 text-muted-foreground" aria-hidden /> {busy === "revoke-sessions" ? "Signing out…" : "Sign out everywhere"}
              </button>
            </div>
          )}
          {error && (
            <p role="alert" className="px-2 pb-1.5 pt-1 text-[12px] text-destructive">
              {error}
            </p>
          )}
        </div>
      )}
    </div>
  );
}
