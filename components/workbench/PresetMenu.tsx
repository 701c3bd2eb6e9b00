"use client";
import { lazy, Suspense, useCallback, useEffect, useId, useLayoutEffect, useRef, useState } from "react";
import { Save, Settings2 } from "lucide-react";
import type { Preset } from "@/lib/runs/presets";
import { buttonClass } from "@/components/ui/button-styles";
import { LoadBoundary } from "@/components/ui/LoadBoundary";
import { reportError } from "@/components/ui/report-error";

type Panel = null | "save" | "manage";

// The panels are fetched when one is first opened, not with the tool page.
let panelsChunk: Promise<typeof import("./PresetPanels")> | undefined;
const loadPanels = () => (panelsChunk ??= import("./PresetPanels"));
const SaveForm = lazy(() => loadPanels().then((m) => ({ default: m.SaveForm })));
const ManageList = lazy(() => loadPanels().then((m) => ({ default: m.ManageList })));
/** What a failed request said: beside the name field when it is about the name, else as a message. */
export type Problem = { field?: string; message?: string };

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
export function PresetMenu({
  tool,
  args,
  agent,
  onLoad,
  canSave = true,
  reason = null,
}: {
  tool: string;
  args: unknown;
  agent: string | null;
  onLoad(p: Preset): void;
  canSave?: boolean;
  reason?: string | null;
}) {
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
    loadPanels().catch(() => {}); // a failure shows in the panel, through its boundary
    setPanel((p) => (p === which ? null : which));
  };
  const close = () => {
    setPanel(null);
    // Back to the button that opened it (or Save preset, when deleting the last preset removed Manage).
    requestAnimationFrame(() =>
      (triggerRef.current?.isConnected ? triggerRef.current : anchorRef.current?.querySelector<HTMLButtonElement>("[data-testid=save-preset]"))?.focus(),
    );
  };

  return (
    <span ref={anchorRef} className="relative flex flex-wrap items-center gap-1.5">
      {note && (
        <span className="text-[12px] text-muted-foreground" role="status" data-testid="preset-note">
          {note}
        </span>
      )}
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
          {presets.map((p) => (
            <option key={p.id} value={p.id}>
              {p.name}
            </option>
          ))}
        </select>
      )}
      <button
        type="button"
        className={buttonClass.ghost}
        onClick={(e) => canSave && toggle("save", e.currentTarget)}
        disabled={!canSave}
        title={!canSave ? (reason ?? undefined) : undefined}
        aria-describedby={!canSave && reason ? reasonId : undefined}
        aria-expanded={canSave ? panel === "save" : undefined}
        data-testid="save-preset"
      >
        <Save className="size-3.5" />
        Save preset
      </button>
      {canSave && presets.length > 0 && (
        <button
          type="button"
          className={buttonClass.ghost}
          onClick={(e) => toggle("manage", e.currentTarget)}
          aria-expanded={panel === "manage"}
          data-testid="manage-presets"
        >
          <Settings2 className="size-3.5" />
          Manage
        </button>
      )}
      {!canSave && reason && (
        <span id={reasonId} className="sr-only" data-testid="save-preset-reason">
          {reason}
        </span>
      )}
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
          <LoadBoundary
            key={panel}
            what="the preset panel"
            fallback={(e) => (
              <p role="alert" className="text-[13px] text-destructive">
                The panel could not load ({e.message}); reload the page to try again.
              </p>
            )}
          >
            <Suspense
              fallback={
                <p role="status" className="text-[13px] text-muted-foreground">
                  Loading…
                </p>
              }
            >
              {panel === "save" ? (
                <SaveForm
                  existing={presets.map((p) => p.name)}
                  onCancel={close}
                  onSave={async (name) => {
                    const res = await fetch(url, {
                      method: "POST",
                      headers: { "Content-Type": "application/json" },
                      body: JSON.stringify({ name, arguments: args ?? {}, agent }),
                    });
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
                    const res = await fetch(`${url}/${encodeURIComponent(p.name)}`, {
                      method: "PATCH",
                      headers: { "Content-Type": "application/json" },
                      body: JSON.stringify({ name }),
                    });
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
            </Suspense>
          </LoadBoundary>
        </div>
      )}
    </span>
  );
}
