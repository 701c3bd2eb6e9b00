type Value = string | readonly string[] | null | undefined;

/**
 * A query string holding only the parameters that are set: "", null and undefined mean "any" and
 * are left out, so URLs never carry `?tool=&status=`. "" when nothing is set, else "?a=1&b=2" in
 * the order given (a list value repeats its key).
 */
export function cleanQuery(params: Record<string, Value> | Iterable<readonly [string, Value]>): string {
  const entries = Symbol.iterator in params ? [...(params as Iterable<readonly [string, Value]>)] : Object.entries(params as Record<string, Value>);
  const search = new URLSearchParams();
  for (const [key, value] of entries) {
    for (const v of typeof value === "string" ? [value] : (value ?? [])) if (v.trim() !== "") search.append(key, v);
  }
  const s = search.toString();
  return s ? `?${s}` : "";
}
