"use client";
import { useCallback, useId, useRef, useState } from "react";
import { ChevronDown, Download } from "lucide-react";
import { cleanQuery } from "@/lib/url/clean-query";
import { definitionsFileName, STRICT_TARGETS, TARGET_LABELS, TARGETS, type Target } from "@/lib/model-view/types";
import { useDismiss } from "@/components/ui/use-dismiss";
import { buttonClass } from "@/components/ui/button-styles";
import { reportError } from "@/components/ui/report-error";
import { attachmentName, saveBlob } from "@/components/ui/save-file";

const itemClass = "flex w-full items-center justify-between gap-3 rounded-md px-2 py-1.5 text-left text-[13px] hover:bg-accent";

/**
 * The tool list's "Export definitions": the tools it shows (same filters) as a file per target,
 * the files `npm run definitions` writes (GET /api/tools/definitions/export).
 */
export function ExportDefinitions({ q, source, hints, shown }: { q: string; source: string; hints: string[]; shown: number }) {
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const close = useCallback(() => setOpen(false), []);
  const menuId = useId();
  useDismiss(open, close, root, button);
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  const href = (target: Target, strict: boolean) =>
    `/api/tools/definitions/export${cleanQuery([
      ["for", target],
      ["strict", strict ? "true" : ""],
      ["source", source === "all" ? "" : source],
      ["q", q.trim()],
      ["hint", hints],
    ])}`;
  const filtered = source !== "all" || q.trim() !== "" || hints.length > 0;
  // The links keep their address (open or copy it), but a click fetches the file and saves it, so
  // a refusal is shown here instead of being saved as the file (components/ui/save-file.ts).
  async function save(target: Target, strict: boolean) {
    const name = definitionsFileName(target, strict);
    setBusy(name);
    setError(null);
    try {
      const res = await fetch(href(target, strict), { cache: "no-store" });
      if (!res.ok) {
        const body = (await res.json().catch(() => null)) as { error?: { message?: string } } | null;
        setError(`${name} could not be made: ${body?.error?.message ?? `the studio answered ${res.status}`}`);
        return;
      }
      saveBlob(await res.blob(), attachmentName(res, name));
      close();
    } catch {
      setError(`${name} could not be made: the studio did not answer.`);
    } finally {
      setBusy(null);
    }
  }
  const items = TARGETS.flatMap((t) => [{ t, strict: false }, ...(STRICT_TARGETS.includes(t) ? [{ t, strict: true }] : [])]);

  return (
    <div ref={root} className="relative" data-testid="export-definitions">
      <button
        ref={button}
        type="button"
        onClick={() => setOpen((o) => !o)}
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        className={`${buttonClass.secondary} h-8`}
      >
        <Download className="size-3.5" aria-hidden /> Export definitions <ChevronDown className="size-3.5 text-muted-foreground" aria-hidden />
      </button>
      {open && (
        <div
          id={menuId}
          className="absolute right-0 top-full z-40 mt-1 w-80 max-w-[calc(100vw-2rem)] rounded-lg border bg-popover p-1 text-popover-foreground shadow-md"
        >
          <p className="border-b px-2 pb-2 pt-1.5 text-[12px] text-muted-foreground">
            {shown} tool{shown === 1 ? "" : "s"}
            {filtered ? " (the list's filters)" : ""} as each provider is sent them, one file per provider;{" "}
            <code className="font-mono">npm run definitions</code> writes the same files.
          </p>
          <ul className="py-1" aria-label="Definition files">
            {items.map(({ t, strict }) => (
              <li key={`${t}${strict ? "-strict" : ""}`}>
                <a
                  href={href(t, strict)}
                  download={definitionsFileName(t, strict)}
                  className={itemClass}
                  aria-busy={busy === definitionsFileName(t, strict) || undefined}
                  onClick={(e) => {
                    e.preventDefault();
                    if (!busy) save(t, strict).catch(reportError);
                  }}
                >
                  <span>
                    {TARGET_LABELS[t]}
                    {strict ? " (strict)" : ""}
                    {busy === definitionsFileName(t, strict) ? "…" : ""}
                  </span>
                  <code className="shrink-0 whitespace-nowrap font-mono text-[11px] text-muted-foreground">{definitionsFileName(t, strict)}</code>
                </a>
              </li>
            ))}
          </ul>
          {error && (
            <p role="alert" className="border-t px-2 pb-1 pt-2 text-[12px] text-destructive">
              {error}
            </p>
          )}
        </div>
      )}
    </div>
  );
}
