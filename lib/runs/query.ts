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
  /** Text inside the arguments or the output (case-insensitive substring). */
  q?: string;
}

const likeEscape = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * The SQL conditions of a filter. Each equality filter has an index on
 * (column, started_at desc, id desc), so a page is an index range scan however many runs exist.
 */
export function whereSql(f: RunFilter, cursor?: { startedAt: Date; id: string }): Prisma.Sql {
  const parts: Prisma.Sql[] = [];
  if (f.tool) parts.push(Prisma.sql`tool_name = ${f.tool}`);
  if (f.source) parts.push(Prisma.sql`tool_source = ${f.source}`);
  if (f.status) parts.push(Prisma.sql`status = ${f.status}::"RunStatus"`);
  if (f.errorKind) parts.push(Prisma.sql`error_kind = ${f.errorKind}::"ErrorKind"`);
  if (f.origin) parts.push(Prisma.sql`origin = ${f.origin}::"RunOrigin"`);
  if (f.actor) parts.push(Prisma.sql`actor = ${f.actor}`);
  if (f.since) parts.push(Prisma.sql`started_at >= ${f.since}`);
  if (f.until) parts.push(Prisma.sql`started_at < ${f.until}`);
  if (f.q) {
    const like = `%${likeEscape(f.q)}%`;
    parts.push(
      Prisma.sql`(arguments::text ILIKE ${like} OR content::text ILIKE ${like} OR structured_content::text ILIKE ${like} OR error_message ILIKE ${like})`,
    );
  }
  if (cursor) parts.push(Prisma.sql`(started_at, id) < (${cursor.startedAt}, ${cursor.id}::uuid)`);
  return parts.length ? Prisma.sql`WHERE ${Prisma.join(parts, " AND ")}` : Prisma.empty;
}
