"use client";
import Link from "next/link";
import { useRouter, useSearchParams } from "next/navigation";
import { useEffect, useEffectEvent, useRef, useState, useTransition } from "react";
import { actorLabel } from "@/lib/auth/principal";
import { FILTER_KEYS, MIN_SEARCH, runsHref } from "@/lib/runs/filter-params";
import { buttonClass } from "@/components/ui/button-styles";

type Key = (typeof FILTER_KEYS)[number];
type Values = Partial<Record<Key, string>>;
type SelectKey = "tool" | "source" | "status" | "errorKind" | "origin" | "actor";

/** Typing waits this long before the list follows; a choice in a select applies at once. */
const TEXT_DEBOUNCE_MS = 300;
const input = "h-8 rounded-md border bg-background px-2";

const SELECTS: { key: SelectKey; label: string; any: string }[] = [
  { key: "tool", label: "Tool", any: "All tools" },
  { key: "source", label: "Source", any: "Any source" },
  { key: "status", label: "Status", any: "Any status" },
  { key: "errorKind", label: "Error kind", any: "Any error kind" },
  { key: "origin", label: "Origin", any: "Any origin" },
  { key: "actor", label: "Actor", any: "Any actor" },
];

function fromSearch(search: URLSearchParams): Values {
  return Object.fromEntries(FILTER_KEYS.map((k) => [k, search.get(k) ?? ""]));
}

/**
 * The history filters: each change applies by itself (text after a short pause) and the URL keeps
 * only the filters that are set. Without JavaScript it is a plain GET form with an Apply button.
 */
export function RunFilters({ options }: { options: Record<SelectKey, readonly string[]> }) {
  const router = useRouter();
  const search = useSearchParams();
  const [values, setValues] = useState<Values>(() => fromSearch(search));
  const [pending, startTransition] = useTransition();
  const requested = useRef(runsHref(fromSearch(search)));
  // URLs this form asked for that have not arrived yet: when one arrives it is ours, even if the
  // user has typed on since (it must not reset the fields to an older filter).
  const inFlight = useRef<string[]>([]);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  // The URL changed from elsewhere (Clear, Back): the fields follow it.
  useEffect(() => {
    const href = runsHref(fromSearch(search));
    const ours = inFlight.current.indexOf(href);
    if (ours >= 0) {
      inFlight.current.splice(0, ours + 1);
      return;
    }
    if (href === requested.current) return;
    requested.current = href;
    inFlight.current = [];
    clearTimeout(timer.current);
    setValues(fromSearch(search));
  }, [search]);
  useEffect(() => () => clearTimeout(timer.current), []);

  const apply = (next: Values) => {
    clearTimeout(timer.current);
    const href = runsHref(next);
    if (href === requested.current) return;
    requested.current = href;
    inFlight.current.push(href);
    startTransition(() => router.replace(href, { scroll: false }));
  };

  const change = (key: Key, value: string, debounce: boolean) => {
    const next = { ...values, [key]: value };
    setValues(next);
    // A text of 1 or 2 characters is not searched (the API asks for a trigram): wait for more.
    if (key === "q" && value.length > 0 && value.length < MIN_SEARCH) clearTimeout(timer.current);
    else if (!debounce) apply(next);
    else {
      clearTimeout(timer.current);
      timer.current = setTimeout(() => apply(next), TEXT_DEBOUNCE_MS);
    }
  };

  // A choice made before the page's script ran lives only in the DOM (hydration keeps a field's
  // value but not its change event): adopt it, or the next change would drop it.
  const form = useRef<HTMLFormElement>(null);
  const adoptDom = useEffectEvent(() => {
    const fields = form.current?.elements;
    if (!fields) return;
    const dom = Object.fromEntries(FILTER_KEYS.map((k) => [k, (fields.namedItem(k) as HTMLInputElement | HTMLSelectElement | null)?.value ?? ""])) as Values;
    if (FILTER_KEYS.every((k) => (dom[k] ?? "") === (values[k] ?? ""))) return;
    setValues(dom);
    apply(dom);
  });
  useEffect(() => adoptDom(), []);

  const filtered = FILTER_KEYS.some((k) => values[k]);
  return (
    <form
      ref={form}
      method="get"
      action="/runs"
      className="flex flex-wrap items-center gap-2 rounded-lg border bg-card p-2"
      aria-label="Filter runs"
      aria-busy={pending}
      onSubmit={(e) => {
        e.preventDefault();
        apply(values);
      }}
    >
      {SELECTS.map((s) => (
        <select
          key={s.key}
          name={s.key}
          value={values[s.key] ?? ""}
          onChange={(e) => change(s.key, e.target.value, false)}
          aria-label={s.label}
          className={`${input} max-w-full`}
        >
          <option value="">{s.any}</option>
          {options[s.key].map((o) => (
            <option key={o} value={o}>
              {s.key === "actor" ? actorLabel(o) : o}
            </option>
          ))}
        </select>
      ))}
      <label className="flex items-center gap-1 text-muted-foreground">
        From{" "}
        <input
          type="datetime-local"
          name="since"
          value={values.since ?? ""}
          onChange={(e) => change("since", e.target.value, true)}
          aria-label="Started from"
          className={`${input} min-w-0`}
        />
      </label>
      <label className="flex items-center gap-1 text-muted-foreground">
        to{" "}
        <input
          type="datetime-local"
          name="until"
          value={values.until ?? ""}
          onChange={(e) => change("until", e.target.value, true)}
          aria-label="Started before"
          className={`${input} min-w-0`}
        />
      </label>
      <input
        type="search"
        name="q"
        value={values.q ?? ""}
        onChange={(e) => change("q", e.target.value, true)}
        onKeyDown={(e) => {
          if (e.key === "Enter") {
            e.preventDefault();
            apply(values);
          }
        }}
        minLength={MIN_SEARCH}
        title={`At least ${MIN_SEARCH} characters`}
        placeholder="Text in arguments or output…"
        aria-label="Text"
        className={`${input} min-w-0 flex-1 basis-56`}
      />
      <noscript>
        <button type="submit" className={buttonClass.secondary}>
          Apply
        </button>
      </noscript>
      {filtered && (
        <Link href="/runs" className={buttonClass.ghost}>
          Clear
        </Link>
      )}
      <span role="status" className="text-[12px] text-muted-foreground" data-testid="filters-status">
        {pending ? "Updating…" : ""}
      </span>
    </form>
  );
}
