/**
 * Keyset cursors (`?cursor=` of /api/runs, /api/audit and the pages over them): the timestamp and
 * key of the last row of a page, base64url of `<ISO time>|<key>`. Only a cursor exactly as
 * `encodeKeyset` writes it is taken: canonical base64url, the ISO form `toISOString` gives for a
 * real calendar time between the years 1 and 9999 (PostgreSQL's timestamptz starts at 4713 BC,
 * JavaScript's Date at 271821 BC: a date between them reached the database and failed there),
 * and a key of the caller's form. Anything else was not given out by the studio: null.
 */
const ISO = /^(\d{4})-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const BASE64URL = /^[A-Za-z0-9_-]{1,400}$/;

export function encodeKeyset(at: Date, key: string): string {
  return Buffer.from(`${at.toISOString()}|${key}`).toString("base64url");
}

export function decodeKeyset(cursor: string, key: RegExp): { at: Date; key: string } | null {
  if (!BASE64URL.test(cursor)) return null;
  const text = Buffer.from(cursor, "base64url").toString("utf8");
  const parts = text.split("|");
  if (parts.length !== 2) return null;
  const [iso, k] = parts as [string, string];
  const m = ISO.exec(iso);
  if (!m || Number(m[1]) < 1 || !key.test(k)) return null;
  const at = new Date(iso);
  // Feb 30 or 25:61 parse to another time (or none); and only the canonical encoding of this text.
  if (Number.isNaN(at.getTime()) || at.toISOString() !== iso || encodeKeyset(at, k) !== cursor) return null;
  return { at, key: k };
}
