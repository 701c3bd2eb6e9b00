/** JSON Pointers (RFC 6901) and the `#/...` URI fragments of local `$ref`s (RFC 6901 §6): the one copy. */

/** One reference token: `~` as `~0`, `/` as `~1`. */
export function escapeSegment(s: string): string {
  return s.indexOf("~") < 0 && s.indexOf("/") < 0 ? s : s.replace(/~/g, "~0").replace(/\//g, "~1");
}

/** A reference token back to its key (`~1` before `~0`, so `~01` stays `~1`). */
export function unescapeSegment(s: string): string {
  return s.indexOf("~") < 0 ? s : s.replace(/~1/g, "/").replace(/~0/g, "~");
}

/** The pointer of a path of keys: "" for the root, else "/a/b~1c". */
export function toPointer(segments: readonly (string | number)[]): string {
  return segments.length ? "/" + segments.map((s) => escapeSegment(String(s))).join("/") : "";
}

/** The keys of a pointer ("" is the root: none). */
export function pointerSegments(pointer: string): string[] {
  if (pointer === "") return [];
  return pointer.replace(/^\//, "").split("/").map(unescapeSegment);
}

/**
 * The keys of a local `$ref` or instance location written as a URI fragment ("#", "#/a/b"):
 * percent-decoded, then unescaped. A token that is not valid percent-encoding is taken as written
 * (a schema from a server is untrusted: it must not throw). Null for anything but a local fragment.
 */
export function fragmentSegments(ref: string): string[] | null {
  if (ref === "#") return [];
  if (!ref.startsWith("#/")) return null;
  return ref
    .slice(2)
    .split("/")
    .map((raw) => unescapeSegment(safeDecode(raw)));
}

function safeDecode(s: string): string {
  if (s.indexOf("%") < 0) return s;
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
