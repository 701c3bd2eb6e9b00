"use client";
import { useCallback, useEffect, useId, useLayoutEffect, useRef, useState, type FormEvent, type ReactNode, type Ref } from "react";
import { Pencil, Save, Settings2, Trash2 } from "lucide-react";
import type { Preset } from "@/lib/runs/presets";
import { buttonClass } from "@/components/ui/button-styles";
import { reportError } from "@/components/ui/report-error";

type Panel = null | "save" | "manage";
/** What a failed request said: beside the name field when it is about the name, else as a message. */
type Problem = { field?: string; message?: string };

async function problemOf(res: Response): Promise<Problem> {
  const body = (await res.json().catch(() => null)) as { error?: { message?: string; details?: { path: string; message: string }[] } } | null;
  const onName = body?.error?.details?.find((d) => d.path === "/name");
  return onName ? { field: onName.message } : { message: body?.error?.message ?? `HTTP ${res.status}` };
}

/**
 * Load saved arguments into the form, save the current ones under a name, rename and delete
 * presets. Loading is for everyone; the rest needs the runner role (`canSave`; `reason` says why
 * not, as the button's title and for screen readers). Names are typed inline and checked by the
 * server, whose answer shows beside the field.
 */
export function PresetMenu({ tool, args, agent, onLoad, canSave = true, reason = null }: { tool: string; args: unknown; agent: string | null; onLoad(p: Preset): void; canSave?: boolean; reason?: string | null }) {
  const reasonId = useId();
  const [presets, setPresets] = useState<Preset[]>([]);
  const [note, setNote] = useState<string | null>(null);
  const [panel, setPanel] = useState<Panel>(null);
  const anchorRef = useRef<HTMLSpanElement>(null);
  const panelRef = useRef<HTMLDivElement>(null);
  const triggerRef = useRef<HTMLButtonElement | null>(null);
  const [shift, setShift] = useState(0);
  const url = `/api/tools/${encodeURIComponent(tool)}/presets`;

  const reload = useCallback(async () => {
    const res = await fetch(url, { cache: "no-store" }).catch(() => null);
    if (res?.ok) setPresets((await res.json()).presets);
  }, [url]);
  useEffect(() => {
    reload().catch(reportError);
  }, [reload]);

  // Keep the panel on screen: it hangs from the right of the buttons, which may sit near the left edge on a phone.
  useLayoutEffect(() => {
    const anchor = anchorRef.current?.getBoundingClientRect();
    if (!panel || !anchor) return;
    const width = Math.min(320, window.innerWidth - 16);
    setShift(Math.min(0, anchor.right - width - 8));
  }, [panel]);

  const toggle = (which: Exclude<Panel, null>, trigger: HTMLButtonElement) => {
    triggerRef.current = trigger;
    setPanel((p) => (p === which ? null : which));
  };
  const close = () => {
    setPanel(null);
    // Back to the button that opened it (or Save preset, when deleting the last preset removed Manage).
    requestAnimationFrame(() => (triggerRef.current?.isConnected ? triggerRef.current : anchorRef.current?.querySelector<HTMLButtonElement>("[data-testid=save-preset]"))?.focus());
  };

  return (
    <span ref={anchorRef} className="relative flex flex-wrap items-center gap-1.5">
      {note && <span className="text-[12px] text-muted-foreground" role="status" data-testid="preset-note">{note}</span>}
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
        onClick={(e) => canSave && toggle("save", e.currentTarget)}
        disabled={!canSave}
        title={!canSave ? reason ?? undefined : undefined}
        aria-describedby={!canSave && reason ? reasonId : undefined}
        aria-expanded={canSave ? panel === "save" : undefined}
        data-testid="save-preset"
      >
        <Save className="size-3.5" />Save preset
      </button>
      {canSave && presets.length > 0 && (
        <button type="button" className={buttonClass.ghost} onClick={(e) => toggle("manage", e.currentTarget)} aria-expanded={panel === "manage"} data-testid="manage-presets">
          <Settings2 className="size-3.5" />Manage
        </button>
      )}
      {!canSave && reason && <span id={reasonId} className="sr-only" data-testid="save-preset-reason">{reason}</span>}
      {panel && (
        <div
          ref={panelRef}
          className="absolute right-0 top-full z-30 mt-1 w-[min(20rem,calc(100vw-1rem))] rounded-lg border bg-popover p-3 text-popover-foreground shadow-md"
          style={shift ? { right: shift } : undefined}
          onKeyDown={(e) => {
            if (e.key === "Escape") {
              e.preventDefault();
              e.stopPropagation();
              close();
            }
          }}
        >
          {panel === "save" ? (
            <SaveForm
              existing={presets.map((p) => p.name)}
              onCancel={close}
              onSave={async (name) => {
                const res = await fetch(url, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ name, arguments: args ?? {}, agent }) });
                if (!res.ok) return problemOf(res);
                setNote(`Saved “${(await res.json()).preset.name}”`);
                await reload();
                close();
                return null;
              }}
            />
          ) : (
            <ManageList
              presets={presets}
              onDone={close}
              onRename={async (p, name) => {
                const res = await fetch(`${url}/${encodeURIComponent(p.name)}`, { method: "PATCH", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ name }) });
                if (!res.ok) return problemOf(res);
                setNote(`Renamed “${p.name}” to “${(await res.json()).preset.name}”`);
                await reload();
                return null;
              }}
              onDelete={async (p) => {
                const res = await fetch(`${url}/${encodeURIComponent(p.name)}`, { method: "DELETE" });
                if (!res.ok && res.status !== 404) return problemOf(res);
                setNote(`Deleted “${p.name}”`);
                await reload();
                if (presets.length <= 1) close();
                return null;
              }}
            />
          )}
        </div>
      )}
    </span>
  );
}

/** A name field with the server's complaint beside it. */
function NameField({ label, value, onChange, error, hint, inputRef }: { label: string; value: string; onChange(v: string): void; error?: string; hint?: ReactNode; inputRef?: Ref<HTMLInputElement> }) {
  const id = useId();
  return (
    <div className="space-y-1">
      <label htmlFor={id} className="block text-[12px] font-medium">{label}</label>
      <input
        ref={inputRef}
        id={id}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : hint ? `${id}-hint` : undefined}
        className="h-8 w-full rounded-md border bg-background px-2 text-[13px] aria-invalid:border-destructive"
        autoComplete="off"
      />
      {error ? <p id={`${id}-error`} className="text-[12px] text-destructive" data-testid="preset-name-error">{error}</p> : hint && <p id={`${id}-hint`} className="text-[12px] text-muted-foreground">{hint}</p>}
    </div>
  );
}

function useFocusOnMount<T extends HTMLElement>() {
  const ref = useRef<T>(null);
  useEffect(() => ref.current?.focus(), []);
  return ref;
}

function SaveForm({ existing, onSave, onCancel }: { existing: string[]; onSave(name: string): Promise<Problem | null>; onCancel(): void }) {
  const [name, setName] = useState("");
  const [problem, setProblem] = useState<Problem | null>(null);
  const [busy, setBusy] = useState(false);
  const inputRef = useFocusOnMount<HTMLInputElement>();
  const replaces = existing.includes(name.trim());
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setProblem(await onSave(name.trim()));
    setBusy(false);
  };
  return (
    <form onSubmit={(e) => submit(e).catch(reportError)} aria-label="Save preset" className="space-y-2">
      <NameField
        label="Preset name"
        value={name}
        onChange={(v) => {
          setName(v);
          setProblem(null);
        }}
        error={problem?.field}
        hint={replaces ? "A preset has this name: saving replaces its arguments." : undefined}
        inputRef={inputRef}
      />
      {problem?.message && <p role="alert" className="text-[12px] text-destructive">{problem.message}</p>}
      <div className="flex justify-end gap-2">
        <button type="button" className={buttonClass.ghost} onClick={onCancel}>Cancel</button>
        <button type="submit" className={buttonClass.primary} disabled={busy} data-testid="preset-save-submit">{replaces ? "Replace" : "Save"}</button>
      </div>
    </form>
  );
}

function ManageList({ presets, onRename, onDelete, onDone }: { presets: Preset[]; onRename(p: Preset, name: string): Promise<Problem | null>; onDelete(p: Preset): Promise<Problem | null>; onDone(): void }) {
  const [editing, setEditing] = useState<{ id: string; mode: "rename" | "delete" } | null>(null);
  const doneRef = useFocusOnMount<HTMLButtonElement>();
  return (
    <div className="space-y-2" role="group" aria-label="Manage presets">
      <div className="flex items-center justify-between">
        <p className="text-[12px] font-medium">Presets of this tool</p>
        <button ref={doneRef} type="button" className={buttonClass.ghost} onClick={onDone}>Done</button>
      </div>
      <ul className="max-h-72 space-y-1 overflow-y-auto" data-testid="preset-list">
        {presets.map((p) => (
          <li key={p.id} className="rounded-md border p-1.5" data-testid="preset-item">
            {editing?.id === p.id && editing.mode === "rename" ? (
              <RenameForm preset={p} onRename={onRename} onClose={() => setEditing(null)} />
            ) : editing?.id === p.id && editing.mode === "delete" ? (
              <ConfirmDelete preset={p} onDelete={onDelete} onClose={() => setEditing(null)} />
            ) : (
              <div className="flex items-center gap-1">
                <span className="min-w-0 flex-1 truncate text-[13px]" title={p.name}>{p.name}</span>
                <button type="button" className={buttonClass.ghost} aria-label={`Rename preset ${p.name}`} onClick={() => setEditing({ id: p.id, mode: "rename" })}><Pencil className="size-3.5" aria-hidden />Rename</button>
                <button type="button" className={buttonClass.ghost} aria-label={`Delete preset ${p.name}`} onClick={() => setEditing({ id: p.id, mode: "delete" })}><Trash2 className="size-3.5" aria-hidden />Delete</button>
              </div>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}

function RenameForm({ preset, onRename, onClose }: { preset: Preset; onRename(p: Preset, name: string): Promise<Problem | null>; onClose(): void }) {
  const [name, setName] = useState(preset.name);
  const [problem, setProblem] = useState<Problem | null>(null);
  const inputRef = useFocusOnMount<HTMLInputElement>();
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const p = await onRename(preset, name.trim());
    if (p) setProblem(p);
    else onClose();
  };
  return (
    <form onSubmit={(e) => submit(e).catch(reportError)} aria-label={`Rename preset ${preset.name}`} className="space-y-2">
      <NameField label={`New name for “${preset.name}”`} value={name} onChange={(v) => { setName(v); setProblem(null); }} error={problem?.field} inputRef={inputRef} />
      {problem?.message && <p role="alert" className="text-[12px] text-destructive">{problem.message}</p>}
      <div className="flex justify-end gap-2">
        <button type="button" className={buttonClass.ghost} onClick={onClose}>Cancel</button>
        <button type="submit" className={buttonClass.primary} data-testid="preset-rename-submit">Rename</button>
      </div>
    </form>
  );
}

/** Deleting cannot be undone: say so and wait for a second click. */
function ConfirmDelete({ preset, onDelete, onClose }: { preset: Preset; onDelete(p: Preset): Promise<Problem | null>; onClose(): void }) {
  const [problem, setProblem] = useState<Problem | null>(null);
  const confirmRef = useFocusOnMount<HTMLButtonElement>();
  const messageId = useId();
  return (
    <div role="alertdialog" aria-label={`Delete preset ${preset.name}`} aria-describedby={messageId} className="space-y-2" data-testid="confirm-delete-preset">
      <p id={messageId} className="text-[13px]">Delete the preset “{preset.name}”? This cannot be undone.</p>
      {problem && <p role="alert" className="text-[12px] text-destructive">{problem.field ?? problem.message}</p>}
      <div className="flex justify-end gap-2">
        <button type="button" className={buttonClass.ghost} onClick={onClose}>Cancel</button>
        <button
          ref={confirmRef}
          type="button"
          className={buttonClass.dangerSolid}
          onClick={() => {
            onDelete(preset)
              .then((p) => (p ? setProblem(p) : onClose()))
              .catch(reportError);
          }}
        >
          Delete
        </button>
      </div>
    </div>
  );
}
