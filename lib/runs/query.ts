import { Prisma } from "../db/generated/client";
import type { ErrorKind } from "../tools/errors";
import type { RunOrigin, RunStatus } from "./types";

/** Everything the history can be filtered by. */
export interface RunFilter {
  tool?: string;
  source?: string;
  status?: RunStatus;
  errorKind?: ErrorKind;
  origin?: RunOrigin;
  actor?: string;
  /** Started at or after. */
  since?: Date;
  /** Started before. */
  until?: Date;
  /**
   * Text inside the arguments, the error message or the output (case-insensitive substring) of
   * the run's search text: the first 1,000 characters of the arguments' JSON, 500 of the error
   * message, 2,000 of the content's JSON and 1,000 of structuredContent's. The API asks for at
   * least 3 characters (MIN_SEARCH in filter-params.ts): shorter terms have no trigram, so no index could find them.
   */
  q?: string;
}

const likeEscape = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * The SQL conditions of a filter. Each equality filter has an index on
 * (column, started_at desc, id desc), so a page is an index range scan however many runs exist.
 */
export function whereSql(f: RunFilter, cursor?: { startedAt: Date; id: string }): Prisma.Sql {
  const parts = filterConditions(f, cursor);
  return parts.length ? Prisma.sql`WHERE ${Prisma.join(parts, " AND ")}` : Prisma.empty;
}

/** The conditions of whereSql, to AND with others. */
export function filterConditions(f: RunFilter, cursor?: { startedAt: Date; id: string }): Prisma.Sql[] {
  const parts: Prisma.Sql[] = [];
  if (f.tool) parts.push(Prisma.sql`tool_name = ${f.tool}`);
  if (f.source) parts.push(Prisma.sql`tool_source = ${f.source}`);
  if (f.status) parts.push(Prisma.sql`status = ${f.status}::"RunStatus"`);
  if (f.errorKind) parts.push(Prisma.sql`error_kind = ${f.errorKind}::"ErrorKind"`);
  if (f.origin) parts.push(Prisma.sql`origin = ${f.origin}::"RunOrigin"`);
  if (f.actor) parts.push(Prisma.sql`actor = ${f.actor}`);
  if (f.since) parts.push(Prisma.sql`started_at >= ${f.since}`);
  if (f.until) parts.push(Prisma.sql`started_at < ${f.until}`);
  if (f.q) parts.push(searchSql(f.q));
  if (cursor) parts.push(Prisma.sql`(started_at, id) < (${cursor.startedAt}, ${cursor.id}::uuid)`);
  return parts;
}

/**
 * `q` as SQL: a substring of runs.search_text (lower-cased at capture by a trigger), which the
 * trigram GIN index answers for terms of 3 characters or more.
 */
export function searchSql(q: string): Prisma.Sql {
  // lower() in SQL, as the trigger does, so both sides fold case the same way.
  return Prisma.sql`search_text LIKE lower(${likePattern(q)})`;
}

/** `%q%` with LIKE's wildcards in q taken literally. */
export function likePattern(q: string): string {
  return `%${likeEscape(q)}%`;
}
