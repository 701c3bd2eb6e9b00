/**
 * Where the observed shape and a declared JSON Schema (a tool's outputSchema or inputSchema)
 * differ. Pure: no I/O. The declared schema is read for what matters here — type, properties,
 * required, items, additionalProperties, patternProperties — through local $refs, allOf (merged)
 * and anyOf/oneOf (as a union); anything else is taken as "any".
 */
import { fragmentSegments } from "../json-pointer/pointer";
import type { JsonSchema } from "../tools/spec";
import { JSON_TYPES, OTHER, splitPath, unescapeKey, escapeKey, type JsonType, type ShapeStatsData } from "./stats";
import { linearRegExp } from "../schema/regexp";

export type DifferenceKind = "missing_in_observed" | "undeclared" | "type_mismatch" | "required_mismatch";

export interface Difference {
  /** Path as in the field table (`*` for array items). */
  path: string;
  kind: DifferenceKind;
  message: string;
  declared?: unknown;
  observed?: unknown;
}

/** The parts of a declared schema we compare, with combinators resolved. */
interface Decl {
  /** null: any type. */
  types: Set<JsonType> | null;
  properties: Map<string, unknown>;
  patternProperties: [{ test(s: string): boolean }, unknown][];
  required: Set<string>;
  /** undefined/true: anything goes; false: nothing else; a schema: others must match it. */
  additional: unknown;
  items: unknown;
}

const ANY: Decl = { types: null, properties: new Map(), patternProperties: [], required: new Set(), additional: undefined, items: undefined };

function typeOfValue(v: unknown): JsonType {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  if (typeof v === "number") return Number.isInteger(v) ? "integer" : "number";
  return typeof v as JsonType;
}

function deref(root: JsonSchema, ref: string): unknown {
  const keys = fragmentSegments(ref);
  if (!keys) return true; // remote refs: not followed
  let cur: unknown = root;
  for (const key of keys) {
    if (typeof cur !== "object" || cur === null || !Object.prototype.hasOwnProperty.call(cur, key)) return true;
    cur = (cur as Record<string, unknown>)[key];
  }
  return cur;
}

function own(o: Record<string, unknown>, k: string): unknown {
  return Object.prototype.hasOwnProperty.call(o, k) ? o[k] : undefined;
}

function resolve(schema: unknown, root: JsonSchema, depth = 0): Decl {
  if (schema === false) return { ...ANY, types: new Set() };
  if (typeof schema !== "object" || schema === null || depth > 32) return ANY;
  const s = schema as Record<string, unknown>;
  let d: Decl = {
    types: null,
    properties: new Map(),
    patternProperties: [],
    required: new Set(),
    additional: own(s, "additionalProperties"),
    items: own(s, "items"),
  };
  const t = own(s, "type");
  if (typeof t === "string") d.types = new Set([t as JsonType]);
  else if (Array.isArray(t)) d.types = new Set(t as JsonType[]);
  else if (own(s, "const") !== undefined) d.types = new Set([typeOfValue(s.const)]);
  else if (Array.isArray(own(s, "enum"))) d.types = new Set((s.enum as unknown[]).map(typeOfValue));
  const props = own(s, "properties");
  if (typeof props === "object" && props !== null) for (const k of Object.keys(props)) d.properties.set(k, (props as Record<string, unknown>)[k]);
  const pp = own(s, "patternProperties");
  if (typeof pp === "object" && pp !== null) {
    for (const k of Object.keys(pp)) {
      try {
        // The linear-time engine: these patterns come from tools' schemas, which are untrusted.
        d.patternProperties.push([linearRegExp(k, "u"), (pp as Record<string, unknown>)[k]]);
      } catch {
        // not a pattern the linear engine accepts: that key cannot be compared, so it is left out
      }
    }
  }
  const req = own(s, "required");
  if (Array.isArray(req)) for (const k of req) if (typeof k === "string") d.required.add(k);

  const ref = own(s, "$ref");
  if (typeof ref === "string") d = intersect(d, resolve(deref(root, ref), root, depth + 1));
  const all = own(s, "allOf");
  if (Array.isArray(all)) for (const sub of all) d = intersect(d, resolve(sub, root, depth + 1));
  for (const key of ["anyOf", "oneOf"]) {
    const branches = own(s, key);
    if (Array.isArray(branches) && branches.length) d = intersect(d, branches.map((b) => resolve(b, root, depth + 1)).reduce(union));
  }
  return d;
}

const allows = (types: Set<JsonType> | null, t: JsonType) => !types || types.has(t) || (t === "integer" && types.has("number"));

function intersect(a: Decl, b: Decl): Decl {
  let types: Set<JsonType> | null;
  if (!a.types) types = b.types;
  else if (!b.types) types = a.types;
  else types = new Set([...a.types].filter((t) => allows(b.types, t)).concat([...b.types].filter((t) => t === "integer" && a.types!.has("number"))));
  const properties = new Map(a.properties);
  for (const [k, v] of b.properties) properties.set(k, properties.has(k) ? { allOf: [properties.get(k), v] } : v);
  return {
    types,
    properties,
    patternProperties: [...a.patternProperties, ...b.patternProperties],
    required: new Set([...a.required, ...b.required]),
    // other keys are allowed only if both allow them; keep the stricter
    additional: a.additional === false || b.additional === false ? false : (a.additional ?? b.additional),
    items: a.items === undefined ? b.items : b.items === undefined ? a.items : { allOf: [a.items, b.items] },
  };
}

function union(a: Decl, b: Decl): Decl {
  const properties = new Map(a.properties);
  for (const [k, v] of b.properties) properties.set(k, properties.has(k) ? { anyOf: [properties.get(k), v] } : v);
  return {
    types: a.types && b.types ? new Set([...a.types, ...b.types]) : null,
    properties,
    patternProperties: [...a.patternProperties, ...b.patternProperties],
    required: new Set([...a.required].filter((k) => b.required.has(k))),
    additional: a.additional === false && b.additional === false ? false : undefined,
    items: a.items === undefined || b.items === undefined ? undefined : { anyOf: [a.items, b.items] },
  };
}

const typeList = (types: Set<JsonType> | null) => (types ? [...types] : ["any"]);

/** Differences between what was observed (stats) and what `declared` says, parents first. */
export function compareWithDeclared(declared: JsonSchema, stats: ShapeStatsData): Difference[] {
  const out: Difference[] = [];
  if (!stats.samples || !stats.paths[""]) return out;
  const children = new Map<string, string[]>();
  for (const path in stats.paths) {
    if (path === "") continue;
    const [parent, seg] = splitPath(path);
    (children.get(parent) ?? children.set(parent, []).get(parent)!).push(seg);
  }

  const walk = (path: string, schema: unknown) => {
    const p = stats.paths[path];
    const d = resolve(schema, declared);
    const observed = JSON_TYPES.filter((t) => p.types[t]);
    const bad = observed.filter((t) => !allows(d.types, t));
    if (bad.length) {
      out.push({
        path,
        kind: "type_mismatch",
        message: `observed ${bad.join(", ")} where the declaration allows ${typeList(d.types).join(", ") || "nothing"}`,
        declared: typeList(d.types),
        observed,
      });
    }
    const segs = children.get(path) ?? [];
    const objects = p.types.object ?? 0;
    if (objects) {
      const seen = new Set(segs.filter((s) => s !== "*" && s !== OTHER).map(unescapeKey));
      for (const key of new Set([...d.properties.keys(), ...d.required])) {
        const child = path + "/" + escapeKey(key);
        const isRequired = d.required.has(key);
        if (!seen.has(key)) {
          out.push({
            path: child,
            kind: "missing_in_observed",
            message: isRequired ? "declared as required but never observed" : "declared but never observed",
            declared: { required: isRequired },
          });
          continue;
        }
        const always = stats.paths[child].present === objects;
        if (always !== isRequired) {
          out.push({
            path: child,
            kind: "required_mismatch",
            message: isRequired
              ? `declared as required but missing in ${objects - stats.paths[child].present} of ${objects} observed objects`
              : "always present but not declared as required",
            declared: { required: isRequired },
            observed: { required: always, present: stats.paths[child].present, of: objects },
          });
        }
      }
      for (const seg of segs) {
        if (seg === "*") continue;
        const child = path + "/" + seg;
        if (seg === OTHER) {
          // the values of a map's keys (or of keys beyond the per-object limit)
          if (typeof d.additional === "object" && d.additional !== null) walk(child, d.additional);
          else if (d.patternProperties.length === 1) walk(child, d.patternProperties[0][1]);
          else if (d.additional === false || (!d.patternProperties.length && (d.properties.size || d.types?.has("object")))) {
            out.push({
              path: child,
              kind: "undeclared",
              message: "observed as a map (keys that vary) but the declaration names its keys",
              observed: { present: stats.paths[child].present, of: objects },
            });
          }
          continue;
        }
        const key = unescapeKey(seg);
        if (d.properties.has(key)) {
          walk(child, d.properties.get(key));
          continue;
        }
        const pattern = d.patternProperties.find(([re]) => re.test(key));
        if (pattern) walk(child, pattern[1]);
        else if (typeof d.additional === "object" && d.additional !== null) walk(child, d.additional);
        else if (d.properties.size || d.patternProperties.length || d.additional !== undefined || d.types?.has("object")) {
          out.push({
            path: child,
            kind: "undeclared",
            message: d.additional === false ? "observed but not declared (additionalProperties: false)" : "observed but not declared",
            observed: { present: stats.paths[child].present, of: objects },
          });
        }
      }
    }
    if (p.types.array && segs.includes("*") && d.items !== undefined && typeof d.items !== "boolean") walk(path + "/*", d.items);
  };
  walk("", declared);
  return out;
}
