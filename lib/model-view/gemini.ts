/**
 * Gemini: a FunctionDeclaration `{ name, description, parameters }` whose `parameters` is Gemini's
 * Schema, "a select subset of an OpenAPI 3.0 schema object" (https://ai.google.dev/api/caching#Schema,
 * https://ai.google.dev/api/caching#FunctionDeclaration). The API refuses fields outside that
 * subset ("Unknown name ..."), so the schema is rewritten: `$ref`s inlined (a recursive one cut
 * to an object described in words), `oneOf` as `anyOf`, type lists and null members as
 * `nullable`, `const` as a one-value enum, tuples as arrays of the members' union, and the rest
 * moved into the description. Hand-written (@samchon/openapi 6 no longer has a Gemini schema;
 * @ai-sdk/google does not export its converter). Types stay lowercase JSON Schema names
 * ("object", "string"), as Google's REST examples and the AI SDK send them. Pure.
 */
import { describedWith, distinctLint, esc, isObj, resolveRef, show } from "./schema-util";
import type { Converted, ConvertOptions, JsonSchema, LintItem } from "./types";

export const GEMINI_SCHEMA_DOC = "https://ai.google.dev/api/caching#Schema";
export const GEMINI_DECLARATION_DOC = "https://ai.google.dev/api/caching#FunctionDeclaration";

/** The fields of Gemini's Schema. */
export const GEMINI_KEYWORDS = new Set([
  "type",
  "format",
  "title",
  "description",
  "nullable",
  "enum",
  "maxItems",
  "minItems",
  "properties",
  "required",
  "minProperties",
  "maxProperties",
  "minLength",
  "maxLength",
  "pattern",
  "example",
  "anyOf",
  "propertyOrdering",
  "default",
  "items",
  "minimum",
  "maximum",
]);
const FORMATS = new Set(["float", "double", "int32", "int64", "enum", "date-time"]);

export function geminiSchema(input: JsonSchema): { schema: JsonSchema; lint: LintItem[] } {
  const lint: LintItem[] = [];
  const note = (severity: LintItem["severity"], pointer: string, keyword: string, message: string, fix?: string) =>
    lint.push({ severity, pointer, keyword, message, doc: GEMINI_SCHEMA_DOC, ...(fix ? { fix } : {}) });

  const visit = (s: unknown, ptr: string, refs: string[]): JsonSchema => {
    if (!isObj(s) || Object.keys(s).length === 0) {
      if (s === false) note("rejected", ptr, "false", "A schema that allows nothing: Gemini's Schema has no such value.", "left without a type");
      else note("dropped", ptr, "type", "A value of any type: Gemini's Schema has no 'any' type.", "left without a type (Gemini decides)");
      return {};
    }
    if (typeof s.$ref === "string") {
      const ref = s.$ref;
      const { $ref: _, ...siblings } = s;
      if (refs.includes(ref)) {
        note("changed", ptr, "$ref", `A recursive reference ${show(ref)}: Gemini's Schema has no references.`, "cut here to an object, described in words");
        return { type: "object", description: `${typeof s.description === "string" ? `${s.description} ` : ""}(Recursive: the same shape as ${ref}.)` };
      }
      const target = resolveRef(input, ref);
      if (target === undefined) {
        note("rejected", ptr, "$ref", `A reference ${show(ref)} that is not inside the schema.`, "left without a type");
        return {};
      }
      note("changed", ptr, "$ref", "Gemini's Schema has no `$ref`.", "the referenced schema inlined");
      // What is found inside is reported where it is written (the definition), once however often it is inlined.
      const inner = visit(target, ref.slice(1), [...refs, ref]);
      return Object.keys(siblings).length ? { ...inner, ...visit(siblings, ptr, refs) } : inner;
    }

    const out: JsonSchema = {};
    const notes: string[] = [];
    const moved = (k: string, v: unknown, severity: LintItem["severity"] = "rejected") => {
      notes.push(`${k}: ${show(v)}`);
      note(
        severity,
        ptr,
        k,
        `Gemini's Schema has no \`${k}\` field${severity === "rejected" ? " (the API refuses unknown fields)" : ""}.`,
        "moved into the description (not enforced)",
      );
    };

    // Types: a list (with null) becomes one type plus nullable, or a union.
    let nullable = s.nullable === true;
    const type = s.type;
    if (Array.isArray(type)) {
      const nonNull = (type as string[]).filter((t) => t !== "null");
      if (nonNull.length < type.length) nullable = true;
      if (nonNull.length === 1) out.type = nonNull[0];
      else if (nonNull.length > 1) out.anyOf = nonNull.map((t) => ({ type: t }));
      note(
        "changed",
        ptr,
        "type",
        `A list of types ${show(type)}: Gemini's \`type\` is one type.`,
        nonNull.length > 1 ? "written as anyOf of the types" : "one type, with nullable",
      );
    } else if (type === "null") {
      nullable = true;
      note("changed", ptr, "type", 'Gemini has no `"null"` type alone.', "nullable: true");
    } else if (typeof type === "string") out.type = type;

    for (const [k, v] of Object.entries(s)) {
      if (["type", "properties", "required", "items", "prefixItems", "anyOf", "oneOf", "allOf", "nullable", "const", "enum", "format", "examples"].includes(k))
        continue;
      if (GEMINI_KEYWORDS.has(k)) out[k] = v;
      else if (k === "$defs" || k === "definitions")
        note("changed", `${ptr}/${k}`, k, `Gemini's Schema has no \`${k}\`.`, "references to them inlined, the definitions removed");
      else if (k === "$schema" || k === "$id" || k === "$comment" || k === "$anchor")
        note("rejected", ptr, k, `Gemini's Schema has no \`${k}\` field (the API refuses unknown fields).`, "removed");
      else if (k === "additionalProperties" && v === false)
        note("dropped", ptr, k, "Gemini's Schema has no `additionalProperties`: extra keys are not refused.", "removed");
      else moved(k, v);
    }
    if (s.format !== undefined) {
      if (typeof s.format === "string" && FORMATS.has(s.format)) out.format = s.format;
      else {
        notes.push(`format: ${show(s.format)}`);
        note(
          "rejected",
          ptr,
          "format",
          `Gemini takes the formats ${[...FORMATS].join(", ")}, not ${show(s.format)}.`,
          "moved into the description (not enforced)",
        );
      }
    }
    if (Array.isArray(s.examples) && s.examples.length) {
      if (out.example === undefined) out.example = s.examples[0];
      note("changed", ptr, "examples", "Gemini's Schema has `example` (one), not `examples`.", "the first example kept as example");
    }
    if (s.const !== undefined) {
      if (typeof s.const === "string") {
        out.type ??= "string";
        out.enum = [s.const];
        note("changed", ptr, "const", "Gemini's Schema has no `const`.", "written as an enum of one value");
      } else moved("const", s.const);
    }
    if (Array.isArray(s.enum)) {
      const values = s.enum.filter((e) => e !== null);
      if (values.length < s.enum.length) nullable = true;
      if (values.every((e) => typeof e === "string")) out.enum = values;
      else moved("enum", s.enum);
    }

    const union = Array.isArray(s.anyOf) ? "anyOf" : Array.isArray(s.oneOf) ? "oneOf" : undefined;
    if (union) {
      if (union === "oneOf") note("changed", ptr, "oneOf", "Gemini's Schema has no `oneOf`.", "written as anyOf");
      const members = (s[union] as unknown[]).filter((m) => {
        if (isObj(m) && m.type === "null" && Object.keys(m).length === 1) {
          nullable = true;
          return false;
        }
        return true;
      });
      const conv = members.map((m, i) => visit(m, `${ptr}/${union}/${i}`, refs));
      if (conv.length === 1 && Object.keys(out).every((k) => k === "description" || k === "title"))
        Object.assign(out, conv[0], out.description ? { description: out.description } : {});
      else if (conv.length) out.anyOf = [...((out.anyOf as JsonSchema[]) ?? []), ...conv];
    }
    if (Array.isArray(s.allOf)) {
      const members = s.allOf.map((m, i) => visit(m, `${ptr}/allOf/${i}`, refs));
      note("changed", ptr, "allOf", "Gemini's Schema has no `allOf`.", "the members merged into one schema");
      for (const m of members) {
        const { properties, required, ...rest } = m;
        Object.assign(out, { ...rest, ...out });
        if (isObj(properties)) out.properties = { ...(out.properties as JsonSchema), ...properties };
        if (Array.isArray(required)) out.required = [...new Set([...((out.required as string[]) ?? []), ...required])];
      }
    }

    const tuple = Array.isArray(s.prefixItems) ? s.prefixItems : Array.isArray(s.items) ? s.items : undefined;
    if (tuple) {
      const key = Array.isArray(s.prefixItems) ? "prefixItems" : "items";
      const members = tuple.map((m, i) => visit(m, `${ptr}/${key}/${i}`, refs));
      const distinct = [...new Map(members.map((m) => [JSON.stringify(m), m])).values()];
      out.items = distinct.length === 1 ? distinct[0]! : { anyOf: distinct };
      if (s.items === false || key === "items") {
        out.minItems ??= tuple.length;
        out.maxItems ??= tuple.length;
      }
      notes.push(`positions: ${members.map((m, i) => `${i + 1}. ${show(m)}`).join("; ")}`);
      note(
        "changed",
        ptr,
        key,
        `Gemini's Schema has no tuples (\`${key}\`).`,
        "items are the union of the positions' schemas; which goes where is in the description",
      );
    } else if (s.items !== undefined) out.items = visit(s.items, `${ptr}/items`, refs);

    if (isObj(s.properties)) {
      const props: JsonSchema = {};
      for (const [n, ps] of Object.entries(s.properties)) props[n] = visit(ps, `${ptr}/properties/${esc(n)}`, refs);
      out.properties = { ...(out.properties as JsonSchema), ...props };
      out.type ??= "object";
    }
    if (Array.isArray(s.required)) {
      const known = (s.required as string[]).filter((n) => isObj(out.properties) && n in out.properties);
      if (known.length) out.required = [...new Set([...((out.required as string[]) ?? []), ...known])];
    }
    if (nullable) out.nullable = true;
    if (notes.length) out.description = describedWith(out.description, notes);
    return out;
  };

  const schema = visit(input, "", []);
  return { schema, lint: distinctLint(lint) };
}

/** The Gemini function declaration; a tool without parameters leaves `parameters` out, as the API asks. */
export function toGemini(spec: { description?: string; inputSchema: JsonSchema }, opts: ConvertOptions): Converted {
  const { schema, lint } = geminiSchema(spec.inputSchema);
  if (schema.type !== "object")
    lint.push({ severity: "rejected", pointer: "", keyword: "type", message: "Gemini's parameters must describe an object.", doc: GEMINI_DECLARATION_DOC });
  const hasParams = schema.properties && Object.keys(schema.properties as JsonSchema).length > 0;
  const definition: Record<string, unknown> = { name: opts.name };
  if (spec.description) definition.description = spec.description;
  if (hasParams) definition.parameters = schema;
  return { definition, strict: false, ...(opts.strict ? { strictReason: "Gemini function declarations have no strict mode." } : {}), lint };
}
