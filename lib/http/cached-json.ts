import { createHash } from "node:crypto";

/**
 * A JSON body made once per `key` object (an immutable value, e.g. the registry's frozen spec list)
 * and sent as stored bytes: with 5,000 tools GET /api/tools spent most of its time in
 * JSON.stringify of 9 MB on every call (issue 12, item 6). Answers 304 to a matching
 * If-None-Match. (Compression stays Next's: it drops a route's own Content-Encoding header.)
 */
interface Encoded {
  json: Uint8Array<ArrayBuffer>;
  etag: string;
}

const cache = new WeakMap<object, Encoded>();

function encoded(key: object, make: () => unknown): Encoded {
  let e = cache.get(key);
  if (!e) {
    const json = new TextEncoder().encode(JSON.stringify(make()));
    e = { json, etag: `"${createHash("sha256").update(json).digest("base64url").slice(0, 27)}"` };
    cache.set(key, e);
  }
  return e;
}

/** Whether an If-None-Match header names this entity tag (or is `*`). */
export function etagMatches(ifNoneMatch: string | null, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch.split(",").some((t) => {
    const tag = t.trim().replace(/^W\//, "");
    return tag === "*" || tag === etag;
  });
}

export function cachedJson(req: Request, key: object, make: () => unknown): Response {
  const e = encoded(key, make);
  // The list depends on who may see it: never shared by caches, always revalidated.
  const headers: Record<string, string> = { etag: e.etag, "cache-control": "private, no-cache", vary: "Authorization, Cookie" };
  if (etagMatches(req.headers.get("if-none-match"), e.etag)) return new Response(null, { status: 304, headers });
  return new Response(e.json, { headers: { ...headers, "content-type": "application/json" } });
}
