"use client";
import { useRouter } from "next/navigation";
import { useId, useState } from "react";
import { Eraser } from "lucide-react";
import { buttonClass } from "@/components/ui/button-styles";

type Report = { byTool: Record<string, number>; total: number };

/**
 * Applies the retention rules of the runtime config: a preview first, then the purge (both audited).
 * Admins only (`canAdmin`); for anyone else the button is disabled and `reason` says why (its title,
 * and for screen readers: the element `reasonId` names when the page shows the reason itself).
 */
export function PurgeButton({ canAdmin, reason = null, reasonId }: { canAdmin: boolean; reason?: string | null; reasonId?: string }) {
  const ownReasonId = useId();
  const describedBy = reasonId ?? ownReasonId;
  const router = useRouter();
  const [note, setNote] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const post = async (dryRun: boolean): Promise<Report> => {
    const res = await fetch("/api/runs/purge", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ dryRun }) });
    const body = await res.json();
    if (!res.ok) throw new Error(body.error?.message ?? `HTTP ${res.status}`);
    return body;
  };
  const describe = (r: Report) =>
    Object.entries(r.byTool)
      .map(([t, n]) => `${t}: ${n}`)
      .join(", ");
  const run = async () => {
    if (!canAdmin) return;
    setBusy(true);
    setNote(null);
    try {
      const preview = await post(true);
      if (preview.total === 0) return setNote("Retention rules remove nothing now (set them under `retention` in Settings).");
      if (!confirm(`Purge ${preview.total} runs under the retention rules?\n${describe(preview)}`)) return;
      const done = await post(false);
      setNote(`Purged ${done.total} runs (${describe(done)}).`);
      router.refresh();
    } catch (e) {
      setNote((e as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <span className="flex items-center gap-2">
      {note && (
        <span role="status" className="text-[12px] text-muted-foreground">
          {note}
        </span>
      )}
      <button
        type="button"
        className={buttonClass.secondary}
        onClick={run}
        disabled={busy || !canAdmin}
        title={!canAdmin && reason ? reason : "Apply the retention rules of the runtime config"}
        aria-describedby={!canAdmin && reason ? describedBy : undefined}
        data-testid="apply-retention"
      >
        <Eraser className="size-3.5" /> Apply retention
      </button>
      {!canAdmin && reason && !reasonId && (
        <span id={ownReasonId} className="sr-only">
          {reason}
        </span>
      )}
    </span>
  );
}
