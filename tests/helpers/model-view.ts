/**
 * OpenAI's strict-mode rules as the structured-outputs guide documents them
 * (https://platform.openai.com/docs/guides/structured-outputs#supported-schemas), checked on a
 * function's name and parameters: written from the docs, apart from lib/model-view/strict.ts,
 * so a test does not check the rewrite against itself (no keywords beside `$ref`: as the OpenAI
 * SDK's to_strict_json_schema has it). Answers the violations (none: []).
 */
type Schema = Record<string, unknown>;

const NAME = /^[a-zA-Z0-9_-]{1,64}$/;
const SUPPORTED = new Set([
  "type",
  "properties",
  "required",
  "additionalProperties",
  "items",
  "anyOf",
  "enum",
  "const",
  "$ref",
  "$defs",
  "definitions",
  "description",
  "title",
  "pattern",
  "format",
  "multipleOf",
  "maximum",
  "exclusiveMaximum",
  "minimum",
  "exclusiveMinimum",
  "minItems",
  "maxItems",
]);
const FORMATS = new Set(["date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"]);

export function checkOpenAiStrict(name: string, parameters: Schema): string[] {
  const out: string[] = [];
  if (!NAME.test(name)) out.push(`name ${name} does not match ^[a-zA-Z0-9_-]{1,64}$`);
  if (parameters.anyOf !== undefined) out.push("(root): the root must be an object, not anyOf");
  else if (parameters.type !== "object") out.push("(root): the root must be type object");
  const walk = (s: unknown, ptr: string) => {
    if (!s || typeof s !== "object" || Array.isArray(s)) {
      out.push(`${ptr || "(root)"}: not a schema object`);
      return;
    }
    const o = s as Schema;
    const types = Array.isArray(o.type) ? o.type : o.type === undefined ? [] : [o.type];
    if (types.includes("object") || o.properties !== undefined) {
      if (o.additionalProperties !== false) out.push(`${ptr || "(root)"}: object not closed with additionalProperties: false`);
      const props = Object.keys((o.properties as Schema) ?? {});
      const req = new Set((o.required as string[]) ?? []);
      const missing = props.filter((p) => !req.has(p));
      if (missing.length) out.push(`${ptr || "(root)"}: properties ${missing.join(", ")} not in required`);
      for (const p of props) walk((o.properties as Schema)[p], `${ptr}/properties/${p}`);
    }
    if (types.length === 0 && o.anyOf === undefined && o.$ref === undefined && o.const === undefined && o.enum === undefined)
      out.push(`${ptr || "(root)"}: no type`);
    if (types.includes("array") && o.items === undefined) out.push(`${ptr}: array without items`);
    for (const k of Object.keys(o)) if (!SUPPORTED.has(k)) out.push(`${ptr}: unsupported keyword ${k}`);
    if (typeof o.format === "string" && !FORMATS.has(o.format)) out.push(`${ptr}: unsupported format ${o.format}`);
    if (typeof o.$ref === "string" && o.$ref !== "#" && !/^#\/(\$defs|definitions)\/[^/]+$/.test(o.$ref)) out.push(`${ptr}: reference ${o.$ref} outside $defs`);
    if (o.$ref !== undefined && Object.keys(o).length > 1) out.push(`${ptr}: keywords beside $ref`);
    if (typeof o.$ref === "string" && o.$ref !== "#") {
      const [, key, def] = /^#\/(\$defs|definitions)\/(.+)$/.exec(o.$ref) ?? [];
      if (!key || !(parameters[key] as Schema | undefined)?.[def!]) out.push(`${ptr}: reference ${o.$ref} to nothing`);
    }
    if (o.items !== undefined) walk(o.items, `${ptr}/items`);
    if (Array.isArray(o.anyOf)) o.anyOf.forEach((m, i) => walk(m, `${ptr}/anyOf/${i}`));
    for (const key of ["$defs", "definitions"]) if (o[key]) for (const [n, d] of Object.entries(o[key] as Schema)) walk(d, `${ptr}/${key}/${n}`);
  };
  walk(parameters, "");
  return out;
}

/** Every keyword used anywhere in a schema (property names aside, and not inside values such as enum or default). */
export function schemaKeys(s: unknown, acc = new Set<string>()): Set<string> {
  if (Array.isArray(s)) s.forEach((x) => schemaKeys(x, acc));
  else if (s && typeof s === "object") {
    for (const [k, v] of Object.entries(s)) {
      if (k === "properties") Object.values(v as object).forEach((x) => schemaKeys(x, acc));
      else {
        acc.add(k);
        if (!["enum", "required", "default", "example", "const"].includes(k)) schemaKeys(v, acc);
      }
    }
  }
  return acc;
}
