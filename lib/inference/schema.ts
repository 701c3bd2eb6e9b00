/**
 * The JSON Schema (2020-12) derived on read from shape statistics, and a per-field summary for
 * the UI. Pure: no I/O.
 *
 * Rules (each path on its own):
 * - type: every JSON type seen, as a union when more than one (`["string", "null"]` for a
 *   nullable string); all numbers integral -> "integer", any fraction -> "number".
 * - objects: `properties` for every key seen (in code-point order); `required` = keys present in every object seen at
 *   that path (sorted); no additionalProperties constraint.
 * - arrays: `items` = one schema merged over all items seen (none when every array was empty).
 * - enum: only for scalar-only paths with at least ENUM_MIN_VALUES values, fewer than √n distinct
 *   values, and no overflow of the distinct-value set.
 * - format: only when every string seen at the path matched it (ajv-formats checks).
 */
import type { JsonSchema } from "../tools/spec";
import {
  FORMATS,
  JSON_TYPES,
  keyValue,
  splitPath,
  unescapeKey,
  type FormatName,
  type JsonType,
  type PathStats,
  type Range,
  type ShapeStatsData,
} from "./stats";

export const SCHEMA_DIALECT = "https://json-schema.org/draft/2020-12/schema";
/** An enum is offered only once this many values were seen at the path. */
export const ENUM_MIN_VALUES = 10;

type Scalar = string | number | boolean | null;

/** Children of each path, in first-seen order: object keys and (as "*") array items. */
function childIndex(stats: ShapeStatsData): Map<string, string[]> {
  const children = new Map<string, string[]>();
  for (const path in stats.paths) {
    if (path === "") continue;
    const [parent, seg] = splitPath(path);
    let list = children.get(parent);
    if (!list) children.set(parent, (list = []));
    list.push(seg);
  }
  // Stored statistics come back from JSONB with their keys reordered, so first-seen order is not
  // kept: keys are listed in code-point order (array items, `*`, first) for a stable result.
  for (const list of children.values()) list.sort((a, b) => (a === "*" ? -1 : b === "*" ? 1 : compareKeys(unescapeKey(a), unescapeKey(b))));
  return children;
}

/** The JSON types seen at a path, integer folded into number when fractions were seen too. */
export function typesOf(p: PathStats): JsonType[] {
  const out: JsonType[] = [];
  for (const t of JSON_TYPES) {
    if (!p.types[t]) continue;
    if (t === "integer" && p.types.number) continue;
    out.push(t);
  }
  return out;
}

/** The format every string at the path matched, if any. */
export function formatOf(p: PathStats): FormatName | undefined {
  const strings = p.types.string ?? 0;
  if (!strings) return undefined;
  return FORMATS.find((f) => p.formats[f] === strings);
}

/** The enum values of a path when the rule allows one (see the module comment), sorted. */
export function enumOf(p: PathStats): Scalar[] | undefined {
  if (!p.values || p.types.object || p.types.array) return undefined;
  const n = p.scalars;
  if (n < ENUM_MIN_VALUES) return undefined;
  const keys = Object.keys(p.values);
  if (keys.length >= Math.sqrt(n)) return undefined;
  return keys.sort().map(keyValue);
}

function compareKeys(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The inferred JSON Schema. Every sample that went into `stats` validates against it. */
export function deriveSchema(stats: ShapeStatsData): JsonSchema {
  if (!stats.samples || !stats.paths[""]) return { $schema: SCHEMA_DIALECT };
  const children = childIndex(stats);
  const node = (path: string): JsonSchema => {
    const p = stats.paths[path];
    const s: JsonSchema = {};
    const types = typesOf(p);
    if (types.length) s.type = types.length === 1 ? types[0] : types;
    const segs = children.get(path) ?? [];
    if (p.types.object) {
      const properties: Record<string, JsonSchema> = {};
      const required: string[] = [];
      for (const seg of segs) {
        if (seg === "*") continue;
        const key = unescapeKey(seg);
        const child = path + "/" + seg;
        // defineProperty: a key named __proto__ must stay an ordinary key
        Object.defineProperty(properties, key, { value: node(child), enumerable: true, writable: true, configurable: true });
        if (stats.paths[child].present === p.types.object) required.push(key);
      }
      s.properties = properties;
      if (required.length) s.required = required.sort(compareKeys);
    }
    if (p.types.array && segs.includes("*")) s.items = node(path + "/*");
    const e = enumOf(p);
    if (e) s.enum = e;
    const f = formatOf(p);
    if (f) s.format = f;
    return s;
  };
  return { $schema: SCHEMA_DIALECT, ...node("") };
}

// ------------------------------------------------------------------ fields

export interface FieldSummary {
  /** JSON-pointer-like path, `*` for array items ("" is the value itself). */
  path: string;
  depth: number;
  /**
   * Share (0..1) of the parent objects that had this key (of the samples, for the root); 1 for
   * array items.
   */
  presence: number;
  /** Present in every parent object (always true for the root and array items). */
  required: boolean;
  /** Times seen. */
  count: number;
  /** JSON types in schema order, with how often each was seen. */
  types: { type: JsonType; count: number }[];
  format: FormatName | null;
  /** The first distinct scalar values seen (strings cut). */
  examples: Scalar[];
  /** Distinct scalar values seen (null when no scalar was seen or when `overflow`). */
  distinct: number | null;
  /** More distinct scalar values than the tracked cap (or a very long string). */
  overflow: boolean;
  enum: Scalar[] | null;
  number: Range | null;
  stringLength: Range | null;
  arrayLength: Range | null;
}

/** One row per path, parents before their children, for the UI's field table. */
export function describeFields(stats: ShapeStatsData): FieldSummary[] {
  const out: FieldSummary[] = [];
  if (!stats.paths[""]) return out;
  const children = childIndex(stats);
  const walk = (path: string, depth: number, presence: number, required: boolean) => {
    const p = stats.paths[path];
    out.push({
      path,
      depth,
      presence,
      required,
      count: p.present,
      types: JSON_TYPES.filter((t) => p.types[t]).map((t) => ({ type: t, count: p.types[t]! })),
      format: formatOf(p) ?? null,
      examples: p.examples,
      distinct: p.values && p.scalars ? Object.keys(p.values).length : null,
      overflow: p.values === null,
      enum: enumOf(p) ?? null,
      number: p.number ?? null,
      stringLength: p.stringLength ?? null,
      arrayLength: p.arrayLength ?? null,
    });
    const objects = p.types.object ?? 0;
    for (const seg of children.get(path) ?? []) {
      const child = path + "/" + seg;
      if (seg === "*") walk(child, depth + 1, 1, true);
      else {
        const c = stats.paths[child];
        walk(child, depth + 1, objects ? c.present / objects : 0, c.present === objects);
      }
    }
  };
  walk("", 0, 1, true);
  return out;
}
