/**
 * Does this input schema leave nothing to fill in? No properties and nothing that could add
 * fields (composition, conditionals, pattern or additional properties): the form would be an empty
 * card, so the page says "takes no arguments" instead.
 */
export function takesNoArguments(schema: unknown): boolean {
  if (typeof schema !== "object" || schema === null) return false;
  const s = schema as Record<string, unknown>;
  const props = s.properties;
  if (props !== undefined && (typeof props !== "object" || props === null || Object.keys(props).length > 0)) return false;
  if (["oneOf", "anyOf", "allOf", "if", "then", "else", "$ref", "dependentSchemas"].some((k) => s[k] !== undefined)) return false;
  if (s.patternProperties && Object.keys(s.patternProperties).length > 0) return false;
  // additionalProperties: a schema (or true) lets the form add keys; absent or false does not.
  return s.additionalProperties === undefined || s.additionalProperties === false;
}
