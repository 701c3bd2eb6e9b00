import { cleanQuery } from "../url/clean-query";
import { annotationHint, type ToolSpec } from "./spec";

/** The tool list's search and filters, as kept in its URL (`/?q=…&source=…&hint=…`). */
export interface ToolListQuery {
  q: string;
  /** A source id, or "all". */
  source: string;
  /** Annotation filters that must all hold. */
  hints: string[];
}

type Search = { get(key: string): string | null; getAll(key: string): string[] };

export function parseToolListQuery(search: Search): ToolListQuery {
  return { q: search.get("q") ?? "", source: search.get("source") || "all", hints: [...new Set(search.getAll("hint").filter(Boolean))] };
}

/** The list's URL for these filters: only what is set, so an unfiltered list is plain "/". */
export function toolListHref({ q, source, hints }: ToolListQuery): string {
  return `/${cleanQuery([
    ["q", q],
    ["source", source === "all" ? "" : source],
    ["hint", hints],
  ])}`;
}

/** What of a tool the filters read: a full spec and the list's summary both have it. */
export type Filterable = Pick<ToolSpec, "name" | "title" | "annotations" | "description"> & { source: { id: string } };

/** The annotation filters, by the id the URL and the buttons carry. */
export const HINT_FILTERS: readonly { id: string; test: (t: Filterable) => boolean }[] = [
  { id: "read-only", test: (t) => annotationHint(t, "readOnlyHint") },
  { id: "writes", test: (t) => !annotationHint(t, "readOnlyHint") },
  { id: "destructive", test: (t) => !annotationHint(t, "readOnlyHint") && annotationHint(t, "destructiveHint") },
  { id: "idempotent", test: (t) => annotationHint(t, "idempotentHint") },
  { id: "closed world", test: (t) => !annotationHint(t, "openWorldHint") },
];

export const isHintFilter = (id: string) => HINT_FILTERS.some((f) => f.id === id);

/** The lower-cased text the search looks in: name, title, annotation title, description. */
export function searchText(t: Filterable): string {
  return [t.name, t.title, t.annotations?.title, t.description]
    .filter((s) => typeof s === "string")
    .join("\n")
    .toLowerCase();
}

/**
 * The list's filter as one test, shared by the page and the routes that take the same query (so
 * a download is the set the list shows). `text` is searchText(t), passed when already made.
 */
export function toolFilter(query: ToolListQuery): (t: Filterable, text?: string) => boolean {
  const q = query.q.trim().toLowerCase();
  const tests = query.hints.flatMap((h) => HINT_FILTERS.find((f) => f.id === h)?.test ?? []);
  return (t, text) => (query.source === "all" || t.source.id === query.source) && tests.every((test) => test(t)) && (!q || (text ?? searchText(t)).includes(q));
}
