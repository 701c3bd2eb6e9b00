import { z } from "zod";
import { ERROR_KINDS } from "../tools/errors";
import type { RunFilter } from "./query";
import { RUN_ORIGINS, RUN_STATUSES } from "./types";
import { cleanQuery } from "../url/clean-query";

/** The shortest `q` (text search) the API accepts: a trigram (shorter terms have none for the index to look up). */
export const MIN_SEARCH = 3;

const date = z
  .string()
  .min(1)
  .transform((s, ctx) => {
    const d = new Date(s);
    // PostgreSQL's timestamptz spans 4713 BC to 294276 AD; JavaScript's Date reaches further.
    if (Number.isNaN(d.getTime()) || d.getUTCFullYear() < 1 || d.getUTCFullYear() > 9999) {
      ctx.addIssue({ code: "custom", message: "must be an ISO 8601 date or date-time between the years 1 and 9999" });
      return z.NEVER;
    }
    return d;
  });

/** The history filters as URL query parameters (API, export, stats and the history page share them). */
export const RunFilterParams = z.object({
  tool: z.string().min(1).optional(),
  source: z.string().min(1).optional(),
  status: z.enum(RUN_STATUSES).optional(),
  errorKind: z.enum(ERROR_KINDS).optional(),
  origin: z.enum(RUN_ORIGINS).optional(),
  actor: z.string().min(1).optional(),
  since: date.optional(),
  until: date.optional(),
  q: z.string().min(MIN_SEARCH, `must be at least ${MIN_SEARCH} characters: the text search looks for trigrams`).max(200).optional(),
});

export const FILTER_KEYS = ["tool", "source", "status", "errorKind", "origin", "actor", "since", "until", "q"] as const;

/** Query-string entries with empty values dropped (an empty form field means "any"). */
export function queryEntries(search: URLSearchParams | Record<string, string | string[] | undefined>): Record<string, string> {
  const entries = search instanceof URLSearchParams ? [...search] : Object.entries(search).map(([k, v]) => [k, Array.isArray(v) ? v[0] : v] as const);
  return Object.fromEntries(entries.filter((e): e is [string, string] => typeof e[1] === "string" && e[1] !== ""));
}

export type RunFilterInput = z.output<typeof RunFilterParams> & RunFilter;

/**
 * The history page's URL for these filter values: only the filters that are set, in FILTER_KEYS
 * order (no `?tool=&status=`); paging starts over, so no cursor.
 */
export function runsHref(values: Partial<Record<(typeof FILTER_KEYS)[number], string | undefined>>, path = "/runs"): string {
  return `${path}${cleanQuery(FILTER_KEYS.map((k) => [k, values[k]] as const))}`;
}
