"use client";
import { useRouter } from "next/navigation";
import { useId, useRef, useState } from "react";
import { RotateCw } from "lucide-react";
import type { Run } from "@/lib/runs/types";
import { buttonClass } from "@/components/ui/button-styles";
import { ConfirmDestructive } from "@/components/ui/ConfirmDestructive";
import { DisabledReason } from "@/components/ui/DisabledReason";
import { reportError } from "@/components/ui/report-error";

type Props = {
  run: Run;
  /** May the viewer run this tool (runner, and the tool's run policy). */
  canRun: boolean;
  /** Why not, shown beside the disabled button. */
  reason?: string | null;
  /** The tool is destructive (needsConfirmation): ask first, then send `confirm: true`. */
  confirmBeforeRun?: boolean;
};

/** Runs the same arguments again, linked to this run, and opens the new run. */
export function RunAgainButton({ run, canRun, reason = null, confirmBeforeRun = false }: Props) {
  const router = useRouter();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<{ message: string; denied: boolean } | null>(null);
  const [confirming, setConfirming] = useState(false);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const reasonId = useId();

  const again = async (confirmed: boolean) => {
    if (!canRun || busy) return;
    setConfirming(false);
    setBusy(true);
    setError(null);
    try {
      const res = await fetch(`/api/tools/${encodeURIComponent(run.tool)}/run`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({
          arguments: run.arguments,
          replayOf: run.id,
          ...(run.agent ? { agent: run.agent } : {}),
          ...(run.timeoutMs ? { timeoutMs: run.timeoutMs } : {}),
          ...(confirmed ? { confirm: true } : {}),
        }),
      });
      const body = await res.json().catch(() => null);
      // A refused call still has a run record (403 permission_denied, 400 without confirm): open it.
      if (body?.run) router.push(`/runs/${body.run.id}`);
      else setError({ message: body?.error?.message ?? `The studio answered ${res.status}`, denied: res.status === 403 });
    } catch (e) {
      setError({ message: (e as Error).message, denied: false });
    } finally {
      setBusy(false);
    }
  };

  const press = () => {
    if (!canRun || busy) return;
    if (confirmBeforeRun) setConfirming(true);
    else again(false).catch(reportError);
  };

  const cancel = () => {
    setConfirming(false);
    requestAnimationFrame(() => buttonRef.current?.focus());
  };

  return (
    <span className="flex flex-wrap items-center justify-end gap-2">
      {error && (
        <span role="alert" className="text-destructive" data-testid={error.denied ? "run-again-denied" : "run-again-error"}>
          {error.denied ? `Not allowed: ${error.message}` : error.message}
        </span>
      )}
      {!canRun && reason && <DisabledReason id={reasonId} reason={reason} testId="run-again-disabled-reason" className="max-w-sm" />}
      {confirming && canRun && <ConfirmDestructive toolName={run.tool} onConfirm={() => again(true).catch(reportError)} onCancel={cancel} />}
      <button
        ref={buttonRef}
        type="button"
        className={buttonClass.primary}
        onClick={press}
        disabled={!canRun || busy}
        title={!canRun ? (reason ?? undefined) : undefined}
        aria-describedby={!canRun && reason ? reasonId : undefined}
        aria-haspopup={canRun && confirmBeforeRun ? "dialog" : undefined}
        aria-expanded={canRun && confirmBeforeRun ? confirming : undefined}
        data-testid="run-again"
        data-confirm={confirmBeforeRun ? "destructive" : undefined}
      >
        <RotateCw className={`size-3.5 ${busy ? "animate-spin" : ""}`} /> {busy ? "Running…" : "Run again"}
      </button>
    </span>
  );
}
