"use client";
import { useCallback, useEffect, useId, useState } from "react";
import { Save } from "lucide-react";
import type { Preset } from "@/lib/runs/presets";
import { buttonClass } from "@/components/ui/button-styles";
import { reportError } from "@/components/ui/report-error";

/**
 * Load saved arguments into the form, or save the current ones under a name. Loading is for
 * everyone; saving needs the runner role (`canSave`; `reason` says why not, as the button's title
 * and for screen readers).
 */
export function PresetMenu({ tool, args, agent, onLoad, canSave = true, reason = null }: { tool: string; args: unknown; agent: string | null; onLoad(p: Preset): void; canSave?: boolean; reason?: string | null }) {
  const reasonId = useId();
  const [presets, setPresets] = useState<Preset[]>([]);
  const [note, setNote] = useState<string | null>(null);
  const url = `/api/tools/${encodeURIComponent(tool)}/presets`;

  const reload = useCallback(async () => {
    const res = await fetch(url, { cache: "no-store" }).catch(() => null);
    if (res?.ok) setPresets((await res.json()).presets);
  }, [url]);
  useEffect(() => {
    reload().catch(reportError);
  }, [reload]);

  const save = async () => {
    if (!canSave) return;
    const name = prompt("Save these arguments as a preset named:");
    if (!name?.trim()) return;
    if (presets.some((p) => p.name === name.trim()) && !confirm(`Replace the preset "${name.trim()}"?`)) return;
    const res = await fetch(url, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ name: name.trim(), arguments: args ?? {}, agent }) });
    const body = await res.json();
    setNote(res.ok ? `Saved “${body.preset.name}”` : body.error?.message ?? `HTTP ${res.status}`);
    await reload();
  };

  return (
    <span className="flex items-center gap-1.5">
      {note && <span className="text-[12px] text-muted-foreground" role="status">{note}</span>}
      {presets.length > 0 && (
        <select
          aria-label="Load a preset"
          value=""
          onChange={(e) => {
            const p = presets.find((x) => x.id === e.target.value);
            if (p) {
              onLoad(p);
              setNote(`Loaded “${p.name}”`);
            }
          }}
          className="h-7 max-w-40 rounded-md border bg-background px-1.5 text-[12px]"
        >
          <option value="">Presets…</option>
          {presets.map((p) => <option key={p.id} value={p.id}>{p.name}</option>)}
        </select>
      )}
      <button
        type="button"
        className={buttonClass.ghost}
        onClick={save}
        disabled={!canSave}
        title={!canSave ? reason ?? undefined : undefined}
        aria-describedby={!canSave && reason ? reasonId : undefined}
        data-testid="save-preset"
      >
        <Save className="size-3.5" />Save preset
      </button>
      {!canSave && reason && <span id={reasonId} className="sr-only" data-testid="save-preset-reason">{reason}</span>}
    </span>
  );
}
