"use client";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { RotateCw } from "lucide-react";
import type { Run } from "@/lib/runs/types";
import { buttonClass } from "@/components/ui/button-styles";

/** Runs the same arguments again, linked to this run, and opens the new run. */
export function RunAgainButton({ run }: { run: Run }) {
  const router = useRouter();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const again = async () => {
    setBusy(true);
    setError(null);
    try {
      const res = await fetch(`/api/tools/${encodeURIComponent(run.tool)}/run`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ arguments: run.arguments, replayOf: run.id, origin: "ui", ...(run.agent ? { agent: run.agent } : {}), ...(run.timeoutMs ? { timeoutMs: run.timeoutMs } : {}) }),
      });
      const body = await res.json();
      if (body.run) router.push(`/runs/${body.run.id}`);
      else setError(body.error?.message ?? `The studio answered ${res.status}`);
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <span className="flex items-center gap-2">
      {error && <span role="alert" className="text-destructive">{error}</span>}
      <button type="button" className={buttonClass.primary} onClick={again} disabled={busy} data-testid="run-again">
        <RotateCw className={`size-3.5 ${busy ? "animate-spin" : ""}`} /> {busy ? "Running…" : "Run again"}
      </button>
    </span>
  );
}
