import { ProtocolError, ProtocolErrorCode } from "@modelcontextprotocol/server";

/**
 * Cursor paging for the endpoint's lists (`tools/list`): pages of `pageSize` items and an opaque
 * cursor for the next page. A cursor this endpoint did not hand out is -32602, as the spec asks.
 */

/** Items per page of `tools/list` (STUDIO_MCP_PAGE_SIZE, default 100). */
export function pageSize(env: Record<string, string | undefined> = process.env): number {
  const n = Number(env.STUDIO_MCP_PAGE_SIZE);
  return Number.isInteger(n) && n > 0 ? Math.min(n, 10_000) : 100;
}

const PREFIX = "ts1:";

export function encodeCursor(offset: number): string {
  return Buffer.from(`${PREFIX}${offset}`, "utf8").toString("base64url");
}

/** The offset a cursor stands for; -32602 for anything else. */
export function decodeCursor(cursor: string): number {
  const text = /^[A-Za-z0-9_-]{1,64}$/.test(cursor) ? Buffer.from(cursor, "base64url").toString("utf8") : "";
  const m = /^ts1:(\d{1,9})$/.exec(text);
  if (!m) throw new ProtocolError(ProtocolErrorCode.InvalidParams, "Invalid cursor: pass the nextCursor of an earlier page, or no cursor for the first page.");
  return Number(m[1]);
}

/** One page of `items` from `cursor` (none: the first), with the cursor of the next page if there is one. */
export function page<T>(items: readonly T[], cursor: string | undefined, size: number): { items: T[]; nextCursor?: string } {
  const from = cursor === undefined ? 0 : decodeCursor(cursor);
  // A cursor past the end (the list shrank between pages) is an empty last page, not an error.
  const slice = items.slice(from, from + size);
  const next = from + size;
  return next < items.length ? { items: slice, nextCursor: encodeCursor(next) } : { items: slice };
}
