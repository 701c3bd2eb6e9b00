import { isAnyJsonSchema } from "./hints";

/**
 * Form data to arguments: a field the user left unset must not be sent as "", null, [] or {}
 * (RJSF fills such placeholders in). Array items keep their places (only blank, undefined ones go);
 * empty members of objects are dropped. A field whose schema takes any JSON value keeps what was
 * typed there (`null`, `{}` and `[]` are values then). Values typed in the JSON editor do not pass through here.
 */
export function pruneUnset(value: unknown, schema?: unknown): unknown {
  if (isAnyJsonSchema(schema)) return value;
  const s = isPlainObject(schema) ? schema : undefined;
  // An item the user added but left blank has no JSON value (it would go out as null): leave it out.
  if (Array.isArray(value)) {
    const items = s?.items;
    return value.filter((v) => v !== undefined).map((v) => (isPlainObject(v) ? pruneUnset(v, items) : v));
  }
  if (!isPlainObject(value)) return value;
  const props = isPlainObject(s?.properties) ? s.properties : undefined;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    const sub = props?.[k];
    if (sub !== undefined && isAnyJsonSchema(sub)) {
      if (v !== undefined) out[k] = v;
      continue;
    }
    const pruned = pruneUnset(v, sub);
    if (isEmpty(pruned)) continue;
    out[k] = pruned;
  }
  return out;
}

function isEmpty(v: unknown): boolean {
  if (v === undefined || v === null || v === "") return true;
  if (Array.isArray(v)) return v.length === 0;
  return isPlainObject(v) && Object.keys(v).length === 0;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
