import { cleanQuery } from "../url/clean-query";

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
  return `/${cleanQuery([["q", q], ["source", source === "all" ? "" : source], ["hint", hints]])}`;
}
