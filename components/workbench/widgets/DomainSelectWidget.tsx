"use client";
import { useEffect, useId, useMemo, useRef, useState } from "react";
import type { WidgetProps } from "@rjsf/utils";
import { ariaDescribedByIds } from "@rjsf/utils";
import { AlertTriangle, Check, ChevronDown } from "lucide-react";
import type { DomainOption } from "@/lib/domains/client-types";
import { optionsForWidget, type DomainFormContext } from "../domain-options";

const SEARCH_FROM = 8;

/**
 * A parameter whose choices live in the runtime config. Shows labels, hints and groups, searches
 * long lists, and flags a value that is no longer a choice instead of keeping or dropping it silently.
 */
export function DomainSelectWidget(props: WidgetProps) {
  const { id, value, required, disabled, readonly, onChange, onBlur, onFocus, options: ui, registry, rawErrors = [] } = props;
  const ctx = registry.formContext as DomainFormContext | undefined;
  const path = String(ui.domainPath ?? "");
  const domain = String(ui.domain ?? "");
  const options = optionsForWidget(ctx, id, path);
  const [open, setOpen] = useState(false);
  const [query, setQuery] = useState("");
  const [active, setActive] = useState(0);
  const box = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const list = useRef<HTMLUListElement>(null);
  const listId = useId();
  const optionId = (i: number) => `${listId}-${i}`;

  const current = typeof value === "string" && value !== "" ? value : undefined;
  const selected = options?.find((o) => o.value === current);
  const stale = current !== undefined && options !== null && !ctx?.loading && (!selected || selected.disabled);

  const shown = useMemo(() => {
    const q = query.trim().toLowerCase();
    return (options ?? []).filter((o) => !q || [o.value, o.label, o.hint, o.group].some((s) => s?.toLowerCase().includes(q)));
  }, [options, query]);

  useEffect(() => {
    if (!open) return;
    const close = (e: MouseEvent) => {
      if (box.current && !box.current.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener("mousedown", close);
    return () => document.removeEventListener("mousedown", close);
  }, [open]);

  const clearable = !required && current !== undefined;
  const searchable = (options?.length ?? 0) >= SEARCH_FROM;

  // Opened, the list (or its search box) takes the focus and marks the active choice; closed, the focus is back on the button.
  useEffect(() => {
    if (open && !searchable) list.current?.focus();
  }, [open, searchable]);
  useEffect(() => {
    if (open) document.getElementById(optionId(active))?.scrollIntoView({ block: "nearest" });
  });

  const show = () => {
    const at = shown.findIndex((o) => o.value === current);
    setActive(at >= 0 ? at : 0);
    setOpen(true);
  };
  const close = (refocus: boolean) => {
    setOpen(false);
    setQuery("");
    if (refocus) requestAnimationFrame(() => button.current?.focus());
  };
  const choose = (o: DomainOption | null) => {
    if (o?.disabled) return;
    onChange(o ? o.value : undefined);
    close(true);
  };

  const onKey = (e: React.KeyboardEvent) => {
    if (e.key === "Escape" && open) {
      e.preventDefault();
      e.stopPropagation();
      return close(true);
    }
    if (e.key === "Tab" && open) return close(false);
    if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      e.preventDefault();
      if (!open) return show();
      // -1 is "Clear", offered above the choices when the field is optional and set.
      setActive((a) => Math.max(clearable ? -1 : 0, Math.min(shown.length - 1, a + (e.key === "ArrowDown" ? 1 : -1))));
    }
    if (open && (e.key === "Home" || e.key === "End")) {
      e.preventDefault();
      setActive(e.key === "Home" ? 0 : shown.length - 1);
    }
    if (open && (e.key === "Enter" || (e.key === " " && !searchable))) {
      e.preventDefault();
      if (active === -1) return choose(null);
      const o = shown[active];
      if (o) choose(o);
    }
  };
  const activeId = open && (active === -1 ? clearable : shown[active]) ? optionId(active) : undefined;

  let lastGroup: string | undefined;
  return (
    <div ref={box} className="relative" onKeyDown={onKey} data-testid={`domain-${path}`} data-domain={domain}>
      <button
        id={id}
        ref={button}
        type="button"
        disabled={disabled || readonly}
        aria-haspopup="listbox"
        aria-expanded={open}
        aria-controls={open ? listId : undefined}
        aria-invalid={stale || rawErrors.length > 0 || undefined}
        aria-describedby={ariaDescribedByIds(id)}
        onClick={() => (open ? close(false) : show())}
        onFocus={() => onFocus(id, current)}
        onBlur={() => onBlur(id, current)}
        className="flex h-9 w-full items-center gap-2 rounded-md border border-input bg-background px-2.5 text-left text-sm shadow-xs outline-none focus-visible:ring-2 focus-visible:ring-ring aria-invalid:border-destructive dark:bg-input/30"
      >
        <span className={`min-w-0 flex-1 truncate ${current ? "" : "text-muted-foreground"}`}>
          {current ? (selected?.label ?? current) : ctx?.loading && !options ? "Loading choices…" : "Choose…"}
          {selected?.label && selected.label !== current && <span className="ml-1.5 font-mono text-[11px] text-muted-foreground">{current}</span>}
        </span>
        {selected?.hint && <span className="truncate text-[12px] text-muted-foreground max-sm:hidden">{selected.hint}</span>}
        <span className="rounded bg-muted px-1 font-mono text-[10px] text-muted-foreground" title="option domain">
          {domain}
        </span>
        <ChevronDown className="size-4 shrink-0 opacity-50" aria-hidden />
      </button>

      {open && (
        <div className="absolute z-40 mt-1 w-full overflow-hidden rounded-md border bg-popover text-popover-foreground shadow-lg">
          {searchable && (
            <input
              autoFocus
              aria-controls={listId}
              aria-activedescendant={activeId}
              value={query}
              onChange={(e) => {
                setQuery(e.target.value);
                setActive(0);
              }}
              placeholder="Search choices…"
              aria-label={`Search ${domain} choices`}
              className="w-full border-b bg-transparent px-3 py-2 text-sm outline-none focus-visible:ring-2 focus-visible:ring-inset focus-visible:ring-ring"
            />
          )}
          <ul
            ref={list}
            id={listId}
            role="listbox"
            tabIndex={-1}
            aria-label={`${domain} choices`}
            aria-activedescendant={searchable ? undefined : activeId}
            className="max-h-72 overflow-auto py-1 outline-none max-sm:max-h-96"
          >
            {clearable && (
              <li
                id={optionId(-1)}
                role="option"
                aria-selected={false}
                onMouseDown={(e) => e.preventDefault()}
                onClick={() => choose(null)}
                className={`cursor-pointer px-3 py-1.5 text-muted-foreground hover:bg-accent ${active === -1 ? "bg-accent" : ""}`}
              >
                Clear
              </li>
            )}
            {shown.length === 0 && (
              <li className="px-3 py-2 text-muted-foreground">
                {options === null ? "Choices are loading…" : options.length ? "No choice matches." : "No choices in the current config."}
              </li>
            )}
            {shown.map((o, i) => {
              const header = o.group && o.group !== lastGroup ? o.group : null;
              lastGroup = o.group;
              return (
                <li key={o.value} role="presentation">
                  {header && <div className="px-3 pb-0.5 pt-2 text-[11px] font-semibold uppercase tracking-wide text-muted-foreground">{header}</div>}
                  <div
                    id={optionId(i)}
                    role="option"
                    aria-selected={o.value === current}
                    aria-disabled={o.disabled || undefined}
                    onMouseEnter={() => setActive(i)}
                    onMouseDown={(e) => e.preventDefault()}
                    onClick={() => choose(o)}
                    className={`flex cursor-pointer items-center gap-x-2 px-3 py-1.5 max-sm:flex-wrap ${i === active ? "bg-accent shadow-[inset_3px_0_0_var(--ring)]" : ""} ${o.disabled ? "cursor-not-allowed text-muted-foreground line-through decoration-muted-foreground/60" : ""}`}
                  >
                    <Check className={`size-3.5 ${o.value === current ? "" : "invisible"}`} aria-hidden />
                    <span className="truncate">{o.label ?? o.value}</span>
                    {o.label && o.label !== o.value && <span className="font-mono text-[11px] text-muted-foreground">{o.value}</span>}
                    {o.hint && (
                      <span className="ml-auto truncate pl-2 text-[12px] text-muted-foreground max-sm:ml-0 max-sm:w-full max-sm:pl-5.5">{o.hint}</span>
                    )}
                  </div>
                </li>
              );
            })}
          </ul>
        </div>
      )}

      {stale && (
        <p
          role="alert"
          data-testid="stale-value"
          className="mt-1 flex items-center gap-1.5 rounded-md border border-warning/50 bg-warning/10 px-2 py-1 text-[12px]"
        >
          <AlertTriangle className="size-3.5 shrink-0" aria-hidden />
          <span>
            <b className="font-mono">{current}</b> {selected?.disabled ? "is disabled" : "is no longer a choice"} in the current config; the server will reject
            it.
          </span>
          <button type="button" className="ml-auto underline" onClick={() => choose(null)}>
            Clear
          </button>
        </p>
      )}
      {ctx?.error && <p className="mt-1 text-[12px] text-destructive">Choices could not be loaded: {ctx.error}</p>}
    </div>
  );
}
