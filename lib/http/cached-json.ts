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

const cache = new WeakMap<object, Map<string, Encoded>>();

function encoded(key: object, variant: string, make: () => unknown): Encoded {
  let variants = cache.get(key);
  if (!variants) cache.set(key, (variants = new Map()));
  let e = variants.get(variant);
  if (!e) {
    const json = new TextEncoder().encode(JSON.stringify(make()));
    e = { json, etag: `"${createHash("sha256").update(json).digest("base64url").slice(0, 27)}"` };
    variants.set(variant, e);
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

/** `variant`: another body made from the same key (e.g. another view of the same list). */
export function cachedJson(req: Request, key: object, make: () => unknown, variant = ""): Response {
  const e = encoded(key, variant, make);
  // The list depends on who may see it: never shared by caches, always revalidated.
  const headers: Record<string, string> = { etag: e.etag, "cache-control": "private, no-cache", vary: "Authorization, Cookie" };
  if (etagMatches(req.headers.get("if-none-match"), e.etag)) return new Response(null, { status: 304, headers });
  return new Response(e.json, { headers: { ...headers, "content-type": "application/json" } });
}
