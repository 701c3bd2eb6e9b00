/**
 * Strict mode: a tool's input schema rewritten so a provider's constrained decoding takes it.
 * Every object closed (`additionalProperties: false`), every property required with optional
 * ones as a union with null (OpenAI), `oneOf` as `anyOf`, tuples as arrays of the members'
 * union, unsupported keywords moved into the description, each change reported. When the meaning
 * cannot be kept (open maps, `patternProperties`, values of any type, recursion where the
 * provider has none, limits), the answer is `strict: false` with the reason.
 *
 * Hand-written: @samchon/openapi 6 (checked) refuses optional properties and tuples in strict mode
 * instead of rewriting them and reports no per-keyword changes; the AI SDK providers pass
 * schemas through unchanged. Pure: no I/O.
 */
import { describedWith, distinctLint, esc, isObj, resolveRef, show } from "./schema-util";
import type { JsonSchema, LintItem } from "./types";

export interface StrictProfile {
  provider: string;
  doc: string;
  /** Keywords kept as they are (beside the structural ones handled here). */
  keywords: ReadonlySet<string>;
  formats: ReadonlySet<string>;
  /** Every property must be in `required` (optional ones become nullable). */
  requireAll: boolean;
  recursion: boolean;
  allOf: boolean;
  /** Largest `minItems` taken (Anthropic: 0 or 1); undefined: any. */
  maxMinItems?: number;
  limits?: { properties: number; depth: number; enumValues: number; stringChars: number };
}

/** https://platform.openai.com/docs/guides/structured-outputs#supported-schemas */
export const OPENAI_STRICT: StrictProfile = {
  provider: "OpenAI",
  doc: "https://platform.openai.com/docs/guides/structured-outputs#supported-schemas",
  keywords: new Set([
    "description",
    "title",
    "enum",
    "const",
    "pattern",
    "format",
    "multipleOf",
    "maximum",
    "exclusiveMaximum",
    "minimum",
    "exclusiveMinimum",
    "minItems",
    "maxItems",
  ]),
  formats: new Set(["date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"]),
  requireAll: true,
  recursion: true,
  allOf: false,
  limits: { properties: 5000, depth: 10, enumValues: 1000, stringChars: 120_000 },
};

/** https://docs.anthropic.com/en/docs/build-with-claude/structured-outputs#json-schema-limitations */
export const ANTHROPIC_STRICT: StrictProfile = {
  provider: "Anthropic",
  doc: "https://docs.anthropic.com/en/docs/build-with-claude/structured-outputs#json-schema-limitations",
  keywords: new Set(["description", "title", "enum", "const", "format", "minItems", "default", "pattern"]),
  formats: new Set(["date-time", "time", "date", "duration", "email", "hostname", "uri", "ipv4", "ipv6", "uuid"]),
  requireAll: false,
  recursion: false,
  allOf: true,
  maxMinItems: 1,
};

export interface StrictResult {
  schema: JsonSchema;
  /** False when the schema cannot be made strict without changing its meaning. */
  strict: boolean;
  reason?: string;
  lint: LintItem[];
}

const ANNOTATIONS = new Set(["$schema", "$id", "$comment", "$anchor", "$vocabulary"]);
const STRUCTURAL = new Set([
  "type",
  "properties",
  "required",
  "additionalProperties",
  "items",
  "prefixItems",
  "anyOf",
  "oneOf",
  "allOf",
  "$ref",
  "$defs",
  "definitions",
  "nullable",
  "patternProperties",
]);
const TYPES = new Set(["string", "number", "integer", "boolean", "object", "array", "null"]);

/** The `$ref`s of the root's `$defs`/`definitions` that reach themselves, and whether `#` is used. */
function recursiveRefs(root: JsonSchema): Set<string> {
  const refsOf = (s: unknown, acc: Set<string>): Set<string> => {
    if (Array.isArray(s)) for (const x of s) refsOf(x, acc);
    else if (isObj(s)) {
      for (const [k, v] of Object.entries(s)) {
        if (k === "$ref" && typeof v === "string") acc.add(v);
        else refsOf(v, acc);
      }
    }
    return acc;
  };
  const defs = new Map<string, unknown>();
  for (const key of ["$defs", "definitions"]) {
    const d = root[key];
    if (isObj(d)) for (const [n, s] of Object.entries(d)) defs.set(`#/${key}/${esc(n)}`, s);
  }
  defs.set("#", root);
  const direct = new Map<string, Set<string>>();
  for (const [ref, s] of defs) direct.set(ref, refsOf(ref === "#" ? { ...root, $defs: undefined, definitions: undefined } : s, new Set()));
  const out = new Set<string>();
  for (const start of defs.keys()) {
    const seen = new Set<string>();
    const stack = [...(direct.get(start) ?? [])];
    while (stack.length) {
      const r = stack.pop()!;
      if (r === start) {
        out.add(start);
        break;
      }
      if (seen.has(r)) continue;
      seen.add(r);
      stack.push(...(direct.get(r) ?? []));
    }
  }
  return out;
}

/** The schema as `schema | null`: for an optional property that strict mode makes required. */
export function withNull(s: JsonSchema): JsonSchema {
  const t = s.type;
  if (typeof t === "string" && s.const === undefined) {
    const out: JsonSchema = { ...s, type: t === "null" ? t : [t, "null"] };
    if (Array.isArray(s.enum) && !s.enum.includes(null)) out.enum = [...(s.enum as unknown[]), null];
    return out;
  }
  if (Array.isArray(t) && s.const === undefined) {
    const out: JsonSchema = { ...s, type: t.includes("null") ? t : [...(t as string[]), "null"] };
    if (Array.isArray(s.enum) && !s.enum.includes(null)) out.enum = [...(s.enum as unknown[]), null];
    return out;
  }
  if (Array.isArray(s.anyOf) && Object.keys(s).every((k) => k === "anyOf" || k === "description" || k === "title")) {
    return (s.anyOf as JsonSchema[]).some((m) => m.type === "null") ? s : { ...s, anyOf: [...(s.anyOf as JsonSchema[]), { type: "null" }] };
  }
  const { description, ...rest } = s;
  return { ...(description !== undefined ? { description } : {}), anyOf: [rest, { type: "null" }] };
}

/** Rewrites `input` for the profile's strict mode; never mutates it. */
export function strictSchema(input: JsonSchema, profile: StrictProfile): StrictResult {
  const lint: LintItem[] = [];
  const blockers: string[] = [];
  const recursive = recursiveRefs(input);
  const counts = { properties: 0, enumValues: 0, stringChars: 0, depth: 0 };
  const inlining = new Set<string>();
  const note = (severity: LintItem["severity"], pointer: string, keyword: string, message: string, fix?: string) =>
    lint.push({ severity, pointer, keyword, message, doc: profile.doc, ...(fix ? { fix } : {}) });
  const block = (pointer: string, keyword: string, why: string) => {
    blockers.push(`${pointer || "(root)"}: ${why}`);
    note("rejected", pointer, keyword, `${profile.provider} strict mode cannot express this: ${why}.`, "strict mode off for this tool");
  };

  const visit = (s: unknown, ptr: string, depth: number, root = false): JsonSchema => {
    if (s === true || (isObj(s) && Object.keys(s).length === 0)) {
      block(ptr, "type", "a value of any type (strict mode needs a type)");
      return {};
    }
    if (s === false || !isObj(s)) {
      block(ptr, "type", "a schema that allows nothing");
      return {};
    }
    const out: JsonSchema = {};
    const notes: string[] = [];
    const moved = (keyword: string, value: unknown, severity: LintItem["severity"] = "rejected") => {
      notes.push(`${keyword}: ${show(value)}`);
      note(severity, ptr, keyword, `${profile.provider} strict mode does not support \`${keyword}\`.`, "moved into the description (not enforced)");
    };

    let type = s.type;
    if (s.nullable === true) {
      type = typeof type === "string" ? [type, "null"] : Array.isArray(type) ? [...new Set([...(type as string[]), "null"])] : type;
      note("changed", ptr, "nullable", "OpenAPI's `nullable` is not JSON Schema.", "written as a union with null");
    }
    if (type !== undefined) {
      const list = (Array.isArray(type) ? type : [type]) as unknown[];
      if (list.some((t) => typeof t !== "string" || !TYPES.has(t))) block(ptr, "type", `unknown type ${show(type)}`);
      out.type = type;
    }
    const isObject = type === "object" || (Array.isArray(type) && type.includes("object")) || (type === undefined && (isObj(s.properties) || root));
    if (isObject && type === undefined) {
      out.type = "object";
      note("changed", ptr, "type", "An object schema without `type`.", 'given `type: "object"`');
    }

    if (typeof s.$ref === "string") {
      const ref = s.$ref;
      if (!(ref === "#" || ref.startsWith("#/$defs/") || ref.startsWith("#/definitions/")))
        block(ptr, "$ref", `a reference ${show(ref)} outside the schema's own $defs`);
      else if (!profile.recursion && recursive.has(ref))
        block(ptr, "$ref", `a recursive reference ${show(ref)} (${profile.provider} strict mode has no recursive schemas)`);
      out.$ref = ref;
    }

    for (const [k, v] of Object.entries(s)) {
      const p = `${ptr}/${esc(k)}`;
      if (STRUCTURAL.has(k)) continue;
      if (ANNOTATIONS.has(k)) {
        note("changed", ptr, k, `\`${k}\` is not part of what ${profile.provider} takes.`, "removed");
        continue;
      }
      if (k === "format") {
        if (typeof v === "string" && profile.formats.has(v)) out.format = v;
        else moved(k, v);
        continue;
      }
      if (k === "minItems" && profile.maxMinItems !== undefined && typeof v === "number" && v > profile.maxMinItems) {
        moved(k, v);
        continue;
      }
      if (profile.keywords.has(k)) {
        if (k === "enum" && Array.isArray(v)) {
          counts.enumValues += v.length;
          for (const e of v) if (typeof e === "string") counts.stringChars += e.length;
          if (v.some((e) => e !== null && typeof e === "object")) block(p, "enum", "an enum of objects or arrays");
        }
        if (k === "const" && typeof v === "string") counts.stringChars += v.length;
        if (k === "pattern" && typeof v === "string") {
          try {
            new RegExp(v, "u");
          } catch {
            moved(k, v);
            continue;
          }
        }
        out[k] = v;
        continue;
      }
      // if/then/else, not, dependent*, string and object size limits, default, examples, x-...: described, not enforced.
      moved(k, v);
    }

    // Composition.
    if (Array.isArray(s.oneOf)) {
      note(
        "changed",
        ptr,
        "oneOf",
        `${profile.provider} strict mode has no \`oneOf\`.`,
        "written as anyOf (a value matching two members is no longer refused)",
      );
      if (Array.isArray(s.anyOf)) block(ptr, "oneOf", "both oneOf and anyOf on one schema");
    }
    const union = (Array.isArray(s.anyOf) ? s.anyOf : Array.isArray(s.oneOf) ? s.oneOf : undefined) as unknown[] | undefined;
    if (union) {
      const key = Array.isArray(s.anyOf) ? "anyOf" : "oneOf";
      if (root) block(ptr, key, `the root is a union (${profile.provider} needs the root to be an object)`);
      out.anyOf = union.map((m, i) => visit(m, `${ptr}/${key}/${i}`, depth));
    }
    if (Array.isArray(s.allOf)) {
      if (profile.allOf) out.allOf = s.allOf.map((m, i) => visit(m, `${ptr}/allOf/${i}`, depth));
      else if (s.allOf.length === 1 && isObj(s.allOf[0])) {
        note("changed", ptr, "allOf", `${profile.provider} strict mode has no \`allOf\`.`, "its one member merged into the schema");
        Object.assign(out, visit(s.allOf[0], `${ptr}/allOf/0`, depth), { ...out });
      } else block(ptr, "allOf", `\`allOf\` of ${s.allOf.length} schemas`);
    }

    // Arrays.
    const tuple = Array.isArray(s.prefixItems) ? s.prefixItems : Array.isArray(s.items) ? s.items : undefined;
    if (tuple) {
      const key = Array.isArray(s.prefixItems) ? "prefixItems" : "items";
      const members = tuple.map((m, i) => visit(m, `${ptr}/${key}/${i}`, depth));
      const distinct = [...new Map(members.map((m) => [JSON.stringify(m), m])).values()];
      const rest = key === "prefixItems" && s.items !== undefined && s.items !== false ? visit(s.items, `${ptr}/items`, depth) : undefined;
      if (rest) distinct.push(rest);
      out.items = distinct.length === 1 ? distinct[0]! : { anyOf: distinct };
      if (!rest) {
        if (profile.keywords.has("maxItems")) out.maxItems = tuple.length;
        if (profile.maxMinItems === undefined || tuple.length <= profile.maxMinItems) out.minItems = tuple.length;
      }
      notes.push(`positions: ${members.map((m, i) => `${i + 1}. ${show(m)}`).join("; ")}`);
      note(
        "changed",
        ptr,
        key,
        `${profile.provider} strict mode has no tuples (\`${key}\` as a list).`,
        "items are the union of the positions' schemas; which goes where is in the description",
      );
    } else if (s.items !== undefined) out.items = visit(s.items, `${ptr}/items`, depth);
    else if (type === "array" || (Array.isArray(type) && type.includes("array"))) block(ptr, "items", "an array of items of any type");

    // An object given by its union's members (`type: "object"` beside oneOf/anyOf, no properties of its own): the members say it.
    const unionShaped =
      isObject && !root && out.anyOf !== undefined && !isObj(s.properties) && s.additionalProperties === undefined && !isObj(s.patternProperties);
    if (unionShaped) {
      if (out.type === "object") delete out.type;
      note(
        "changed",
        ptr,
        "type",
        "An object whose shape is given by its union's members.",
        "the members carry the object (each closed); the outer `type` left to them",
      );
    }

    // Objects.
    if (isObject && !unionShaped) {
      if (depth + 1 > counts.depth) counts.depth = depth + 1;
      const props = isObj(s.properties) ? s.properties : {};
      const required = new Set(Array.isArray(s.required) ? (s.required as string[]) : []);
      const outProps: JsonSchema = {};
      for (const [name, ps] of Object.entries(props)) {
        counts.properties++;
        counts.stringChars += name.length;
        let v = visit(ps, `${ptr}/properties/${esc(name)}`, depth + 1);
        if (!required.has(name) && profile.requireAll) {
          v = withNull(v);
          note(
            "changed",
            `${ptr}/properties/${esc(name)}`,
            "required",
            `${profile.provider} strict mode needs every property in \`required\`.`,
            "made required; null stands for leaving it out",
          );
        }
        outProps[name] = v;
      }
      for (const name of required)
        if (!(name in props)) note("changed", ptr, "required", `\`required\` names "${name}", which is not among the properties.`, "left out of required");
      const ap = s.additionalProperties;
      if (isObj(ap) || (ap === true && Object.keys(props).length === 0))
        block(ptr, "additionalProperties", "an object with keys of any name (a map), which a closed object cannot express");
      if (isObj(s.patternProperties)) block(ptr, "patternProperties", "keys matched by a pattern, which a closed object cannot express");
      if (ap === undefined && Object.keys(props).length === 0 && !root && !isObj(s.patternProperties))
        block(ptr, "additionalProperties", "an object with any keys (no properties declared)");
      if (ap !== false && !isObj(ap) && !(ap === true && Object.keys(props).length === 0)) {
        if (Object.keys(props).length > 0 || root)
          note(
            "changed",
            ptr,
            "additionalProperties",
            `${profile.provider} strict mode needs every object closed.`,
            "additionalProperties: false (keys beyond the declared ones are refused)",
          );
      }
      out.properties = outProps;
      const req = profile.requireAll ? Object.keys(outProps) : [...required].filter((n) => n in props);
      if (req.length || profile.requireAll) out.required = req;
      out.additionalProperties = false;
    }

    for (const key of ["$defs", "definitions"]) {
      const defs = s[key];
      if (!isObj(defs)) continue;
      const od: JsonSchema = {};
      for (const [n, d] of Object.entries(defs)) {
        counts.stringChars += n.length;
        od[n] = visit(d, `${ptr}/${key}/${esc(n)}`, depth);
      }
      out[key] = od;
    }

    if (
      out.type === undefined &&
      out.anyOf === undefined &&
      out.$ref === undefined &&
      out.const === undefined &&
      out.enum === undefined &&
      out.allOf === undefined
    ) {
      block(ptr, "type", "a schema without a type");
    }
    if (notes.length) out.description = describedWith(out.description, notes);
    // OpenAI (and Anthropic) take no keywords beside a `$ref`: a reference is inlined where it can be, as the OpenAI SDK does.
    if (typeof out.$ref === "string" && Object.keys(out).length > 1) {
      const ref = out.$ref;
      const { $ref: _, description, ...siblings } = out;
      const target = resolveRef(input, ref);
      if (!recursive.has(ref) && ref !== "#" && isObj(target) && !inlining.has(ref)) {
        note("changed", ptr, "$ref", `${profile.provider} strict mode takes no keywords beside \`$ref\`.`, "the referenced schema inlined here");
        inlining.add(ref);
        const inner = visit(target, ref.slice(1), depth);
        inlining.delete(ref);
        const merged: JsonSchema = { ...inner, ...siblings };
        const text = [description, inner.description].filter((d) => typeof d === "string" && d).join(" ");
        if (text) merged.description = text;
        return merged;
      }
      note(
        "changed",
        ptr,
        "$ref",
        `${profile.provider} strict mode takes no keywords beside \`$ref\`, and this reference is recursive.`,
        `dropped beside it: ${Object.keys(out)
          .filter((k) => k !== "$ref")
          .join(", ")}`,
      );
      return { $ref: ref };
    }
    return out;
  };

  const schema = visit(input, "", 0, true);
  const lim = profile.limits;
  if (lim) {
    if (counts.properties > lim.properties) block("", "properties", `${counts.properties} object properties in all (the limit is ${lim.properties})`);
    if (counts.depth > lim.depth) block("", "properties", `${counts.depth} levels of nested objects (the limit is ${lim.depth})`);
    if (counts.enumValues > lim.enumValues) block("", "enum", `${counts.enumValues} enum values in all (the limit is ${lim.enumValues})`);
    if (counts.stringChars > lim.stringChars)
      block("", "enum", `${counts.stringChars} characters of names, enum and const values (the limit is ${lim.stringChars})`);
  }
  const findings = distinctLint(lint);
  return blockers.length ? { schema, strict: false, reason: [...new Set(blockers)].join("; "), lint: findings } : { schema, strict: true, lint: findings };
}
