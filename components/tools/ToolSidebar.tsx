"use client";
import Link from "next/link";
import { useRouter, useSearchParams } from "next/navigation";
import { useEffect, useId, useMemo, useRef, useState, type KeyboardEvent as ReactKeyboardEvent } from "react";
import { ChevronDown, Search } from "lucide-react";
import { useSlashKey } from "./slash-key";

export type SidebarTool = { name: string; title: string; source: string };

/** A tool's page, carrying the sidebar's search (`?find=`) so it stays as the user moves between tools. */
const toolHref = (name: string, find = "") => `/tools/${encodeURIComponent(name)}${find.trim() ? `?find=${encodeURIComponent(find.trim())}` : ""}`;

/** This page's URL with the search set (or dropped when empty), other parameters kept: no navigation, no server round trip. */
function keepFindInUrl(find: string): void {
  const url = new URL(window.location.href);
  if (find.trim()) url.searchParams.set("find", find.trim());
  else url.searchParams.delete("find");
  window.history.replaceState(window.history.state, "", url);
}

/**
 * Every tool, searchable, beside the workbench: "/" focuses the search, arrow keys move through the
 * matches and Enter opens one. Below the lg breakpoint it folds into a "Tools" disclosure, so it
 * never makes a narrow page wider than the screen. The search is kept in the URL (`?find=`) and
 * carried to the tool opened from it, so moving between tools keeps the list as it was.
 */
export function ToolSidebar({ tools, current }: { tools: SidebarTool[]; current: string }) {
  const params = useSearchParams();
  const [query, setQueryState] = useState(() => params.get("find") ?? "");
  const setQuery = (v: string) => {
    setQueryState(v);
    keepFindInUrl(v);
  };
  const [open, setOpen] = useState(false);
  const [focusRequest, setFocusRequest] = useState(0);
  const searchRef = useRef<HTMLInputElement>(null);
  const listRef = useRef<HTMLUListElement>(null);
  const scrollRef = useRef<HTMLDivElement>(null);
  const router = useRouter();
  const panelId = useId();

  const shown = useMemo(() => {
    const q = query.trim().toLowerCase();
    return q ? tools.filter((t) => [t.name, t.title, t.source].some((s) => s.toLowerCase().includes(q))) : tools;
  }, [tools, query]);

  useSlashKey(() => {
    setOpen(true);
    setFocusRequest((n) => n + 1);
  });

  // Focus after the panel is shown (a hidden input cannot take focus on narrow screens).
  useEffect(() => {
    if (focusRequest) searchRef.current?.select();
  }, [focusRequest]);

  // The current tool in view inside the list, without scrolling the page.
  useEffect(() => {
    const box = scrollRef.current;
    const item = box?.querySelector<HTMLElement>('[aria-current="page"]');
    if (box && item && box.scrollHeight > box.clientHeight) box.scrollTop = item.offsetTop - box.clientHeight / 2;
  }, [current]);

  const links = () => [...(listRef.current?.querySelectorAll<HTMLAnchorElement>("a") ?? [])];

  const onSearchKey = (e: ReactKeyboardEvent<HTMLInputElement>) => {
    if (e.key === "ArrowDown" && shown.length) {
      e.preventDefault();
      links()[0]?.focus();
    } else if (e.key === "Enter" && shown.length) {
      e.preventDefault();
      router.push(toolHref(shown[0].name, query));
    } else if (e.key === "Escape" && query) {
      e.preventDefault();
      setQuery("");
    }
  };

  const onListKey = (e: ReactKeyboardEvent<HTMLUListElement>) => {
    const all = links();
    const at = all.indexOf(document.activeElement as HTMLAnchorElement);
    if (at < 0) return;
    const to = { ArrowDown: at + 1, ArrowUp: at - 1, Home: 0, End: all.length - 1 }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    if (to < 0) searchRef.current?.focus();
    else all[Math.min(to, all.length - 1)].focus();
  };

  return (
    <nav aria-label="Switch tool" className="min-w-0 lg:sticky lg:top-16 lg:self-start" data-testid="tool-sidebar">
      <button
        type="button"
        className="flex h-9 w-full items-center gap-2 rounded-md border bg-card px-3 text-left font-medium lg:hidden"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen((o) => !o)}
        data-testid="tool-sidebar-toggle"
      >
        Tools
        <span className="truncate font-normal text-muted-foreground">· {tools.length}</span>
        <ChevronDown className={`ml-auto size-4 transition-transform ${open ? "rotate-180" : ""}`} aria-hidden />
      </button>
      <div id={panelId} className={`${open ? "mt-2 block" : "hidden"} rounded-lg border bg-card lg:mt-0 lg:block`}>
        <div className="border-b p-2">
          <label className="relative flex items-center">
            <Search className="pointer-events-none absolute left-2 size-4 text-muted-foreground" aria-hidden />
            <input
              ref={searchRef}
              type="search"
              value={query}
              onChange={(e) => setQuery(e.target.value)}
              onKeyDown={onSearchKey}
              placeholder="Find a tool"
              aria-label="Find a tool"
              aria-describedby={`${panelId}-hint`}
              aria-keyshortcuts="/"
              className="h-8 w-full rounded-md border bg-background pl-7 pr-8 outline-none focus-visible:ring-2 focus-visible:ring-ring"
              data-testid="tool-sidebar-search"
            />
            <kbd className="pointer-events-none absolute right-2 rounded border bg-muted px-1 font-mono text-[11px] text-muted-foreground" aria-hidden>
              /
            </kbd>
          </label>
          <p id={`${panelId}-hint`} className="sr-only">
            Press slash to search from anywhere; arrow keys move through the matches, Enter opens one.
          </p>
        </div>
        <div ref={scrollRef} className="relative max-h-80 overflow-y-auto p-1 lg:max-h-[calc(100vh-9rem)]">
          <p role="status" className="sr-only">
            {shown.length} tool{shown.length === 1 ? "" : "s"} match
          </p>
          {shown.length === 0 ? (
            <p className="px-2 py-3 text-[13px] text-muted-foreground">No tool matches.</p>
          ) : (
            <ul ref={listRef} onKeyDown={onListKey} className="space-y-0.5">
              {shown.map((t) => {
                const here = t.name === current;
                // One Tab stop for the whole list (the current tool, else the first match): the
                // arrow keys move inside it, so a long registry is not hundreds of Tabs to cross.
                const stop = shown.some((x) => x.name === current) ? here : t === shown[0];
                return (
                  <li key={t.name}>
                    <Link
                      href={toolHref(t.name, query)}
                      aria-current={here ? "page" : undefined}
                      tabIndex={stop ? 0 : -1}
                      data-testid="tool-sidebar-item"
                      className={`block min-w-0 rounded-md px-2 py-1.5 outline-none hover:bg-accent focus-visible:ring-2 focus-visible:ring-ring ${here ? "bg-primary/10 font-medium text-foreground" : ""}`}
                    >
                      <span className="flex items-baseline gap-2">
                        <span className="truncate">{t.title}</span>
                        <span className={`ml-auto shrink-0 text-[11px] ${here ? "text-foreground" : "text-muted-foreground"}`}>{t.source}</span>
                      </span>
                      <code className={`block truncate font-mono text-[11px] ${here ? "text-foreground" : "text-muted-foreground"}`}>{t.name}</code>
                    </Link>
                  </li>
                );
              })}
            </ul>
          )}
        </div>
      </div>
    </nav>
  );
}
