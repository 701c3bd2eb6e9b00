"use client";
import Link from "next/link";
import { useDeferredValue, useEffect, useMemo, useRef, useState, useSyncExternalStore } from "react";
import { useWindowVirtualizer } from "@tanstack/react-virtual";
import { useSearchParams } from "next/navigation";
import { Search } from "lucide-react";
import { displayName } from "@/lib/tools/spec";
import type { ToolSummary } from "@/lib/tools/summary";
import { HINT_FILTERS, isHintFilter, parseToolListQuery, searchText, toolFilter, toolListHref } from "@/lib/tools/list-query";
import { Badge } from "@/components/ui/Badge";
import { AnnotationBadges } from "./AnnotationBadges";
import { ExportDefinitions } from "./ExportDefinitions";
import { ToolIcons } from "./ToolIcons";
import { useSlashKey } from "./slash-key";
import type { NameCollision } from "@/lib/registry/registry";

const byName = new Intl.Collator();

// Up to this many matches every card is rendered (find-in-page keeps working); past it only the
// rows near the viewport are (5,000 cards took seconds to render and each keystroke half a second).
const VIRTUALIZE_ABOVE = 120;

/** Two columns from Tailwind's md breakpoint, as the grid below. */
function useColumns(): number {
  return useSyncExternalStore(
    (change) => {
      const mq = window.matchMedia("(min-width: 768px)");
      mq.addEventListener("change", change);
      return () => mq.removeEventListener("change", change);
    },
    () => (window.matchMedia("(min-width: 768px)").matches ? 2 : 1),
    () => 2,
  );
}

type Props = {
  tools: ToolSummary[];
  collisions?: NameCollision[];
  excluded?: { server: string; tool: string; reason: string }[];
  /** Tools whose observed output shape changed recently: name -> ISO time of the latest change. */
  shapeChanged?: Record<string, string>;
};

export function ToolList({ tools, collisions = [], excluded = [], shapeChanged = {} }: Props) {
  // The search and filters live in the URL (read from the browser's URL, not the page's props: Back
  // may restore a cached page rendered before the filters were set).
  const searchParams = useSearchParams();
  const [initial] = useState(() => parseToolListQuery(searchParams));
  const [query, setQuery] = useState(initial.q);
  const [source, setSource] = useState<string>(initial.source);
  const [hints, setHints] = useState<string[]>(initial.hints.filter(isHintFilter));
  const searchRef = useRef<HTMLInputElement>(null);
  useSlashKey(() => {
    searchRef.current?.focus();
    searchRef.current?.select();
  });
  // Replace, not push: each keystroke is not a page of its own, and Back from a tool returns here.
  useEffect(() => {
    const href = toolListHref({ q: query, source, hints });
    if (href !== window.location.pathname + window.location.search) window.history.replaceState(null, "", href);
  }, [query, source, hints]);
  const sources = useMemo(() => [...new Set(tools.map((t) => t.source.id))].sort(), [tools]);
  // Sorted and lower-cased once, not on every keystroke.
  const indexed = useMemo(() => tools.map((t) => ({ t, text: searchText(t) })).sort((a, b) => byName.compare(a.t.name, b.t.name)), [tools]);
  // The input shows each keystroke at once; the filtering follows when React has time.
  const deferredQuery = useDeferredValue(query);

  const shown = useMemo(() => {
    const matches = toolFilter({ q: deferredQuery, source, hints });
    return indexed.filter(({ t, text }) => matches(t, text)).map(({ t }) => t);
  }, [indexed, deferredQuery, source, hints]);

  const toggleHint = (id: string) => setHints((h) => (h.includes(id) ? h.filter((x) => x !== id) : [...h, id]));

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-end gap-3">
        <div>
          <h1 className="text-lg font-semibold tracking-tight">Tools</h1>
          <p className="text-muted-foreground">
            {tools.length} registered from {sources.length} source{sources.length === 1 ? "" : "s"}. Open one to read its schemas, fill its form and run it.
          </p>
        </div>
        <div className="ml-auto">
          <ExportDefinitions q={query} source={source} hints={hints} shown={shown.length} />
        </div>
      </div>

      <div className="flex flex-wrap items-center gap-2 rounded-lg border bg-card p-2">
        <label className="relative flex min-w-64 flex-1 items-center">
          <Search className="pointer-events-none absolute left-2.5 size-4 text-muted-foreground" />
          <input
            ref={searchRef}
            type="search"
            value={query}
            onChange={(e) => setQuery(e.target.value)}
            placeholder="Search name, title or description…"
            aria-label="Search tools"
            aria-keyshortcuts="/"
            className="h-8 w-full rounded-md border bg-background pl-8 pr-8 outline-none focus-visible:ring-2 focus-visible:ring-ring"
          />
          <kbd className="pointer-events-none absolute right-2 rounded border bg-muted px-1 font-mono text-[11px] text-muted-foreground" aria-hidden>
            /
          </kbd>
        </label>
        <select value={source} onChange={(e) => setSource(e.target.value)} aria-label="Filter by source" className="h-8 rounded-md border bg-background px-2">
          <option value="all">All sources</option>
          {sources.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </select>
        <div className="flex flex-wrap gap-1" role="group" aria-label="Filter by annotations">
          {HINT_FILTERS.map((f) => (
            <button
              key={f.id}
              type="button"
              aria-pressed={hints.includes(f.id)}
              onClick={() => toggleHint(f.id)}
              className="h-8 rounded-md border px-2.5 text-[12px] text-muted-foreground hover:bg-accent aria-pressed:border-primary/50 aria-pressed:bg-primary/10 aria-pressed:text-primary"
            >
              {f.id}
            </button>
          ))}
        </div>
      </div>

      {(collisions.length > 0 || excluded.length > 0) && (
        <div role="status" className="rounded-lg border border-warning/50 bg-warning/10 px-3 py-2 text-[13px]" data-testid="tool-warnings">
          {collisions.map((c) => (
            <p key={`${c.name}-${c.droppedFrom}`}>
              Name clash: <code className="font-mono">{c.name}</code> from {c.droppedFrom} is hidden by the one from {c.keptFrom}.
            </p>
          ))}
          {excluded.map((x) => (
            <p key={`${x.server}-${x.tool}`}>
              Excluded: <code className="font-mono">{x.tool}</code> of server {x.server}: {x.reason}
            </p>
          ))}
        </div>
      )}

      {shown.length === 0 ? (
        <div className="rounded-lg border border-dashed p-10 text-center text-muted-foreground">
          No tool matches these filters.{" "}
          <button
            type="button"
            className="text-primary underline"
            onClick={() => {
              setQuery("");
              setSource("all");
              setHints([]);
            }}
          >
            Clear filters
          </button>
        </div>
      ) : (
        <Cards tools={shown} shapeChanged={shapeChanged} />
      )}
    </div>
  );
}

function Cards({ tools, shapeChanged }: { tools: ToolSummary[]; shapeChanged: Record<string, string> }) {
  if (tools.length <= VIRTUALIZE_ABOVE) {
    return (
      <ul className="grid gap-2 md:grid-cols-2" aria-label="Tools">
        {tools.map((t) => (
          <li key={t.name}>
            <ToolCard t={t} shapeChanged={shapeChanged[t.name]} />
          </li>
        ))}
      </ul>
    );
  }
  return <VirtualCards tools={tools} shapeChanged={shapeChanged} />;
}

/** Only the rows near the viewport are in the DOM; the list keeps its full height, so the page scrolls as if all were. */
function VirtualCards({ tools, shapeChanged }: { tools: ToolSummary[]; shapeChanged: Record<string, string> }) {
  const columns = useColumns();
  const listRef = useRef<HTMLUListElement>(null);
  const [scrollMargin, setScrollMargin] = useState(0);
  // Where the list starts on the page: moves when the filter bar above it wraps differently.
  useEffect(() => {
    const measure = () => setScrollMargin(listRef.current?.offsetTop ?? 0);
    measure();
    window.addEventListener("resize", measure);
    return () => window.removeEventListener("resize", measure);
  }, []);
  const rows = Math.ceil(tools.length / columns);
  const virtualizer = useWindowVirtualizer({ count: rows, estimateSize: () => 124, overscan: 6, gap: 8, scrollMargin });
  const items = virtualizer.getVirtualItems();
  return (
    <ul ref={listRef} role="list" aria-label="Tools" data-testid="tool-list-virtual" className="relative" style={{ height: virtualizer.getTotalSize() }}>
      {items.map((row) => (
        // The row is layout only: the list's items are the cards, each saying its place in the whole list.
        <li
          key={row.key}
          role="none"
          data-index={row.index}
          ref={virtualizer.measureElement}
          className="absolute left-0 grid w-full gap-2 md:grid-cols-2"
          style={{ top: row.start - virtualizer.options.scrollMargin }}
        >
          {tools.slice(row.index * columns, row.index * columns + columns).map((t, i) => (
            <div key={t.name} role="listitem" aria-setsize={tools.length} aria-posinset={row.index * columns + i + 1}>
              <ToolCard t={t} shapeChanged={shapeChanged[t.name]} />
            </div>
          ))}
        </li>
      ))}
    </ul>
  );
}

function ToolCard({ t, shapeChanged }: { t: ToolSummary; shapeChanged?: string }) {
  return (
    <Link
      href={`/tools/${encodeURIComponent(t.name)}`}
      data-testid="tool-card"
      className="group flex h-full flex-col gap-1.5 rounded-lg border bg-card p-3 shadow-xs transition hover:border-primary/40 hover:shadow-sm"
    >
      <div className="flex items-baseline gap-2">
        <ToolIcons icons={t.icons} size={18} />
        <span className="font-semibold group-hover:text-primary">{displayName(t)}</span>
        <code className="truncate font-mono text-[12px] text-muted-foreground">{t.name}</code>
        <span className="ml-auto flex gap-1">
          {t.unavailable && (
            <Badge tone="warning" title={t.unavailable}>
              unavailable
            </Badge>
          )}
          {shapeChanged && (
            <Badge tone="warning" title={`Its observed output shape changed at ${shapeChanged.replace("T", " ").slice(0, 16)}Z: see the tool page`}>
              <span data-testid="shape-changed">shape changed</span>
            </Badge>
          )}
          <Badge>{t.source.id}</Badge>
        </span>
      </div>
      {t.description && <p className="line-clamp-2 text-muted-foreground">{t.description}</p>}
      <div className="mt-auto flex flex-wrap items-center gap-1 pt-1">
        <AnnotationBadges spec={t} />
        <span className="ml-auto text-[11px] text-muted-foreground">
          {t.params} param{t.params === 1 ? "" : "s"}
          {t.outputSchema ? " · output schema" : ""}
        </span>
      </div>
    </Link>
  );
}
