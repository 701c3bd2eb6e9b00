/** Pure helpers for how the parameter form labels and hints fields (no React here, so they are unit-tested). */

type Schema = Record<string, unknown>;

/**
 * An array item's label: its own title (or "Item") and its 1-based position, e.g. "Tag 2", "Person 1".
 * `null` when the field is not an array item (the last segment of its path is a property name).
 */
export function itemLabel(path: readonly (string | number)[], ownTitle?: unknown): string | null {
  const last = path.at(-1);
  if (typeof last !== "number") return null;
  const title = typeof ownTitle === "string" && ownTitle.trim() ? ownTitle.trim() : "Item";
  return `${title} ${last + 1}`;
}

/** "default: normal": what the tool uses when an optional field is left unset (shown, never sent). */
export function defaultHint(schema: Schema | undefined): string | null {
  if (!schema || !("default" in schema) || schema.default === undefined) return null;
  const d = schema.default;
  if (typeof d === "boolean") return `default: ${d ? "on" : "off"}`;
  return `default: ${typeof d === "string" ? d : JSON.stringify(d)}`;
}

const STRUCTURE = ["type", "enum", "const", "oneOf", "anyOf", "allOf", "$ref", "properties", "items", "not", "if"];

/** A schema that accepts any JSON value (`{}` or only annotations): the form edits it as JSON text. */
export function isAnyJsonSchema(schema: unknown): boolean {
  if (schema === true) return true;
  if (typeof schema !== "object" || schema === null || Array.isArray(schema)) return false;
  return !STRUCTURE.some((k) => k in schema);
}

export type JsonTextResult = { ok: true; value: unknown } | { ok: false; error: string };

/** JSON typed into a field: empty means unset; otherwise it must parse. */
export function parseJsonText(text: string): JsonTextResult {
  if (!text.trim()) return { ok: true, value: undefined };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (e) {
    return { ok: false, error: `Not valid JSON: ${(e as Error).message}` };
  }
}
