"use client";

import { FileCheck2 } from "lucide-react";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { buttonClass } from "@/components/ui/button-styles";

/** Adopts the inferred output shape as the runtime tool's declared outputSchema (a config change, audited). */
export function AdoptSchema({ toolName, allowed, reason }: { toolName: string; allowed: boolean; reason?: string }) {
  const router = useRouter();
  const [state, setState] = useState<{ busy: boolean; error: string | null }>({ busy: false, error: null });

  async function adopt() {
    setState({ busy: true, error: null });
    const res = await fetch(`/api/tools/${encodeURIComponent(toolName)}/inferred-schema/adopt`, { method: "POST" }).catch(() => null);
    if (res?.ok) {
      setState({ busy: false, error: null });
      router.refresh();
      return;
    }
    const body = (await res?.json().catch(() => null)) as { error?: { message?: string } } | null;
    setState({ busy: false, error: body?.error?.message ?? "The schema could not be adopted." });
  }

  return (
    <span className="flex items-center gap-2">
      <button
        type="button"
        className={buttonClass.secondary}
        onClick={adopt}
        disabled={!allowed || state.busy}
        title={allowed ? "Save this shape as the tool's outputSchema in the config" : reason}
        data-testid="schema-adopt"
      >
        <FileCheck2 className="size-3.5" /> {state.busy ? "Adopting…" : "Adopt as outputSchema"}
      </button>
      {state.error && (
        <span role="alert" className="text-[12px] text-destructive">
          {state.error}
        </span>
      )}
    </span>
  );
}
