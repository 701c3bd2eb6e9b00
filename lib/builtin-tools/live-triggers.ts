/** Config names as trigger phrases: lowercase, trimmed, de-duplicated; names under 3 characters are dropped (too ambiguous). */
export function liveNames(names: string[]): string[] {
  return [...new Set(names.map((n) => n.trim().toLowerCase()).filter((n) => [...n].length >= 3))];
}
