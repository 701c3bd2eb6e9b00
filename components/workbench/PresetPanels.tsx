"use client";
// The preset panels, fetched when one is opened (PresetMenu): the tool page does not load them otherwise.
import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode, type Ref } from "react";
import { Pencil, Trash2 } from "lucide-react";
import type { Preset } from "@/lib/runs/presets";
import { buttonClass } from "@/components/ui/button-styles";
import { reportError } from "@/components/ui/report-error";
import type { Problem } from "./PresetMenu";

/** A name field with the server's complaint beside it. */
function NameField({
  label,
  value,
  onChange,
  error,
  hint,
  inputRef,
}: {
  label: string;
  value: string;
  onChange(v: string): void;
  error?: string;
  hint?: ReactNode;
  inputRef?: Ref<HTMLInputElement>;
}) {
  const id = useId();
  return (
    <div className="space-y-1">
      <label htmlFor={id} className="block text-[12px] font-medium">
        {label}
      </label>
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
      {error ? (
        <p id={`${id}-error`} className="text-[12px] text-destructive" data-testid="preset-name-error">
          {error}
        </p>
      ) : (
        hint && (
          <p id={`${id}-hint`} className="text-[12px] text-muted-foreground">
            {hint}
          </p>
        )
      )}
    </div>
  );
}

function useFocusOnMount<T extends HTMLElement>() {
  const ref = useRef<T>(null);
  useEffect(() => ref.current?.focus(), []);
  return ref;
}

export function SaveForm({ existing, onSave, onCancel }: { existing: string[]; onSave(name: string): Promise<Problem | null>; onCancel(): void }) {
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
      {problem?.message && (
        <p role="alert" className="text-[12px] text-destructive">
          {problem.message}
        </p>
      )}
      <div className="flex justify-end gap-2">
        <button type="button" className={buttonClass.ghost} onClick={onCancel}>
          Cancel
        </button>
        <button type="submit" className={buttonClass.primary} disabled={busy} data-testid="preset-save-submit">
          {replaces ? "Replace" : "Save"}
        </button>
      </div>
    </form>
  );
}

export function ManageList({
  presets,
  onRename,
  onDelete,
  onDone,
}: {
  presets: Preset[];
  onRename(p: Preset, name: string): Promise<Problem | null>;
  onDelete(p: Preset): Promise<Problem | null>;
  onDone(): void;
}) {
  const [editing, setEditing] = useState<{ id: string; mode: "rename" | "delete" } | null>(null);
  const doneRef = useFocusOnMount<HTMLButtonElement>();
  return (
    <div className="space-y-2" role="group" aria-label="Manage presets">
      <div className="flex items-center justify-between">
        <p className="text-[12px] font-medium">Presets of this tool</p>
        <button ref={doneRef} type="button" className={buttonClass.ghost} onClick={onDone}>
          Done
        </button>
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
                <span className="min-w-0 flex-1 truncate text-[13px]" title={p.name}>
                  {p.name}
                </span>
                <button
                  type="button"
                  className={buttonClass.ghost}
                  aria-label={`Rename preset ${p.name}`}
                  onClick={() => setEditing({ id: p.id, mode: "rename" })}
                >
                  <Pencil className="size-3.5" aria-hidden />
                  Rename
                </button>
                <button
                  type="button"
                  className={buttonClass.ghost}
                  aria-label={`Delete preset ${p.name}`}
                  onClick={() => setEditing({ id: p.id, mode: "delete" })}
                >
                  <Trash2 className="size-3.5" aria-hidden />
                  Delete
                </button>
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
      <NameField
        label={`New name for “${preset.name}”`}
        value={name}
        onChange={(v) => {
          setName(v);
          setProblem(null);
        }}
        error={problem?.field}
        inputRef={inputRef}
      />
      {problem?.message && (
        <p role="alert" className="text-[12px] text-destructive">
          {problem.message}
        </p>
      )}
      <div className="flex justify-end gap-2">
        <button type="button" className={buttonClass.ghost} onClick={onClose}>
          Cancel
        </button>
        <button type="submit" className={buttonClass.primary} data-testid="preset-rename-submit">
          Rename
        </button>
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
      <p id={messageId} className="text-[13px]">
        Delete the preset “{preset.name}”? This cannot be undone.
      </p>
      {problem && (
        <p role="alert" className="text-[12px] text-destructive">
          {problem.field ?? problem.message}
        </p>
      )}
      <div className="flex justify-end gap-2">
        <button type="button" className={buttonClass.ghost} onClick={onClose}>
          Cancel
        </button>
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
