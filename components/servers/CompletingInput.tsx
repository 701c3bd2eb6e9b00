"use client";
import { useEffect, useId, useRef, useState } from "react";
import type { CompletionRef } from "@/lib/servers/browse";
import { reportError } from "@/components/ui/report-error";
import { post } from "./studio-call";

/** How long typing must pause before the server is asked for suggestions. */
const DEBOUNCE_MS = 250;

export interface CompletionSource {
  /** POST /api/servers/{name}/complete */
  url: string;
  completionRef: CompletionRef;
}

/**
 * A text field that offers the server's `completion/complete` suggestions as you type (an ARIA
 * 1.2 combobox with a listbox popup: arrow keys move, Enter or a click picks, Escape closes).
 * The server is asked after a pause in typing, with the other fields already filled in as
 * `context.arguments`; a stale answer is dropped. Without `source` it is a plain field.
 */
export function CompletingInput({
  source,
  argument,
  value,
  onChange,
  context,
  label,
  className,
  required,
}: {
  source: CompletionSource | null;
  argument: string;
  value: string;
  onChange: (value: string) => void;
  context: Record<string, string>;
  label: string;
  className: string;
  required?: boolean;
}) {
  const listId = useId();
  const [options, setOptions] = useState<string[]>([]);
  const [more, setMore] = useState(false);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const [problem, setProblem] = useState<string | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const inFlight = useRef<AbortController | null>(null);
  const focused = useRef(false);

  useEffect(
    () => () => {
      clearTimeout(timer.current);
      inFlight.current?.abort();
    },
    [],
  );

  const ask = (typed: string) => {
    if (!source) return;
    clearTimeout(timer.current);
    const others = Object.fromEntries(Object.entries(context).filter(([k, v]) => k !== argument && v !== ""));
    timer.current = setTimeout(() => {
      inFlight.current?.abort();
      const controller = new AbortController();
      inFlight.current = controller;
      const body = {
        ref: source.completionRef,
        argument: { name: argument, value: typed },
        ...(Object.keys(others).length ? { context: { arguments: others } } : {}),
      };
      post(source.url, body, controller.signal)
        .then((r) => {
          if (controller.signal.aborted) return;
          inFlight.current = null;
          if (!r.ok) {
            setProblem(r.message);
            setOptions([]);
            setOpen(false);
            return;
          }
          const values = Array.isArray(r.body.values) ? r.body.values.filter((v): v is string => typeof v === "string") : [];
          setProblem(null);
          setOptions(values);
          setMore(r.body.hasMore === true);
          setActive(-1);
          setOpen(focused.current && values.length > 0 && !(values.length === 1 && values[0] === typed));
        })
        .catch(reportError);
    }, DEBOUNCE_MS);
  };

  const pick = (option: string) => {
    onChange(option);
    setOpen(false);
    setActive(-1);
  };

  if (!source)
    return (
      <input className={className} value={value} required={required} aria-required={required} onChange={(e) => onChange(e.target.value)} aria-label={label} />
    );

  const optionId = (i: number) => `${listId}-option-${i}`;
  return (
    <div className="relative">
      <input
        className={className}
        value={value}
        required={required}
        aria-required={required}
        aria-label={label}
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={open}
        aria-controls={listId}
        aria-activedescendant={open && active >= 0 ? optionId(active) : undefined}
        autoComplete="off"
        onChange={(e) => {
          onChange(e.target.value);
          ask(e.target.value);
        }}
        onFocus={() => {
          focused.current = true;
          ask(value);
        }}
        onBlur={() => {
          focused.current = false;
          setOpen(false);
        }}
        onKeyDown={(e) => {
          if (e.key === "ArrowDown") {
            e.preventDefault();
            if (!open && options.length) setOpen(true);
            setActive((a) => (options.length ? (a + 1) % options.length : -1));
          } else if (e.key === "ArrowUp") {
            e.preventDefault();
            setActive((a) => (options.length ? (a <= 0 ? options.length - 1 : a - 1) : -1));
          } else if (e.key === "Enter" && open && active >= 0) {
            e.preventDefault();
            pick(options[active]);
          } else if (e.key === "Escape" && open) {
            e.preventDefault();
            setOpen(false);
          }
        }}
      />
      <ul
        id={listId}
        role="listbox"
        aria-label={`Suggestions for ${argument}`}
        hidden={!open}
        className="absolute z-20 mt-1 max-h-56 w-full overflow-y-auto rounded-md border bg-background py-1 shadow-md"
      >
        {options.map((o, i) => (
          <li
            key={o}
            id={optionId(i)}
            role="option"
            aria-selected={i === active}
            className={`cursor-pointer truncate px-2 py-1 ${i === active ? "bg-primary/10 text-primary" : "hover:bg-muted"}`}
            // Picked on mouse down, before the field loses focus and closes the list.
            onMouseDown={(e) => {
              e.preventDefault();
              pick(o);
            }}
          >
            {o}
          </li>
        ))}
        {more && (
          <li role="presentation" className="px-2 py-1 text-[12px] text-muted-foreground">
            More on the server: keep typing to narrow them.
          </li>
        )}
      </ul>
      <span role="status" aria-live="polite" className="sr-only">
        {open ? `${options.length} suggestion${options.length === 1 ? "" : "s"}` : ""}
      </span>
      {problem && <span className="text-[12px] text-muted-foreground">No suggestions: {problem}</span>}
    </div>
  );
}
