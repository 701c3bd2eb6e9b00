/**
 * The JSON Schema (2020-12) derived on read from shape statistics, and a per-field summary for
 * the UI. Pure: no I/O.
 *
 * Rules (each path on its own):
 * - type: every JSON type seen, as a union when more than one (`["string", "null"]` for a
 *   nullable string); all numbers integral -> "integer", any fraction -> "number".
 * - objects: `properties` for every key named at that path (in code-point order); `required` = keys
 *   present in every object seen at that path (sorted). A path that folds keys (a map, or one that
 *   hit MAX_KEYS: see lib/inference/stats.ts) also gets `additionalProperties`: the schema merged
 *   over the values of every other key; and `propertyNames` with a pattern when every key seen
 *   there matched one of KEY_PATTERNS. Other objects get no additionalProperties constraint.
 * - arrays: `items` = one schema merged over all items seen (none when every array was empty).
 * - enum: only for scalar-only paths with at least ENUM_MIN_VALUES values, fewer than √n distinct
 *   values, and no overflow of the distinct-value set; never when a boolean was seen (the type
 *   says it all), and never for a dense integer range (integers only, at least half the integers
 *   between the smallest and the largest seen): that gets a `description` with the observed
 *   minimum and maximum instead, a hint and not a bound. Enum values are sorted: null, numbers
 *   (numerically), strings (code-point order).
 * - format: only when every string seen at the path matched it (ajv-formats checks).
 */
import type { JsonSchema } from "../tools/spec";
import {
  FORMATS,
  JSON_TYPES,
  KEY_PATTERNS,
  MAX_DEPTH,
  MAX_KEYS,
  MAX_PATHS,
  OTHER,
  keyValue,
  splitPath,
  unescapeKey,
  type FormatName,
  type JsonType,
  type PathStats,
  type KeyPattern,
  type Range,
  type ShapeStatsData,
  type Truncation,
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
  // The other keys of a map (OTHER) come last.
  const rank = (seg: string) => (seg === "*" ? 0 : seg === OTHER ? 2 : 1);
  for (const list of children.values()) list.sort((a, b) => rank(a) - rank(b) || compareKeys(unescapeKey(a), unescapeKey(b)));
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

/** Sort order of enum values: null, false, true, numbers numerically, strings by code point. */
export function compareScalars(a: Scalar, b: Scalar): number {
  const rank = (v: Scalar) => (v === null ? 0 : typeof v === "boolean" ? 1 : typeof v === "number" ? 2 : 3);
  const d = rank(a) - rank(b);
  if (d) return d;
  if (typeof a === "number" && typeof b === "number") return a - b;
  if (typeof a === "boolean" && typeof b === "boolean") return Number(a) - Number(b);
  return compareKeys(String(a), String(b));
}

/**
 * The observed range of a dense integer path: integers only (nulls aside), and at least half of
 * the integers from the smallest to the largest were seen.
 */
export function denseIntegerRange(p: PathStats): Range | undefined {
  if (!p.values || !p.number || p.types.number || p.types.string || p.types.boolean || p.types.object || p.types.array) return undefined;
  const distinct = Object.keys(p.values).filter((k) => k !== "null").length;
  if (distinct < 2) return undefined;
  const span = p.number.max - p.number.min + 1;
  return span <= 2 * distinct ? p.number : undefined;
}

/** Few distinct values, often seen: what the enum rule asks before its exceptions. */
function fewValues(p: PathStats): boolean {
  if (!p.values || p.types.object || p.types.array) return false;
  return p.scalars >= ENUM_MIN_VALUES && Object.keys(p.values).length < Math.sqrt(p.scalars);
}

/** The enum values of a path when the rule allows one (see the module comment), sorted. */
export function enumOf(p: PathStats): Scalar[] | undefined {
  if (!fewValues(p) || p.types.boolean || denseIntegerRange(p)) return undefined;
  return Object.keys(p.values!).map(keyValue).sort(compareScalars);
}

/** The observed range given instead of an enum, for a dense integer range (see the module comment). */
export function rangeHintOf(p: PathStats): Range | undefined {
  return fewValues(p) ? denseIntegerRange(p) : undefined;
}

/** The pattern every key of a path that folds keys matched (named keys included), if any. */
export function keyPatternOf(stats: ShapeStatsData, path: string, named: string[]): { name: KeyPattern; pattern: string } | undefined {
  const o = stats.paths[path]?.other;
  if (!o || !o.keys) return undefined;
  for (const name of Object.keys(KEY_PATTERNS) as KeyPattern[]) {
    if (o.patterns[name] !== o.keys) continue;
    const re = new RegExp(KEY_PATTERNS[name]);
    if (named.every((k) => re.test(k))) return { name, pattern: KEY_PATTERNS[name] };
  }
  return undefined;
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
        if (seg === "*" || seg === OTHER) continue;
        const key = unescapeKey(seg);
        const child = path + "/" + seg;
        // defineProperty: a key named __proto__ must stay an ordinary key
        Object.defineProperty(properties, key, { value: node(child), enumerable: true, writable: true, configurable: true });
        if (stats.paths[child].present === p.types.object) required.push(key);
      }
      s.properties = properties;
      if (required.length) s.required = required.sort(compareKeys);
      if (p.other && segs.includes(OTHER)) {
        s.additionalProperties = node(path + "/" + OTHER);
        const kp = keyPatternOf(stats, path, Object.keys(properties));
        if (kp) s.propertyNames = { pattern: kp.pattern };
      }
    }
    if (p.types.array && segs.includes("*")) s.items = node(path + "/*");
    const e = enumOf(p);
    if (e) s.enum = e;
    const dense = rangeHintOf(p);
    if (dense) s.description = `observed from ${dense.min} to ${dense.max}`;
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
   * array items and for the values of a map's other keys (see `perObject`).
   */
  presence: number;
  /**
   * Set on an object path that folds keys: "map" (its keys vary) or "cap" (it reached the
   * per-object key limit); with how many key occurrences were folded and the pattern all keys
   * matched, if any.
   */
  map: { reason: "map" | "cap"; keys: number; keyPattern: KeyPattern | null } | null;
  /** For the values of a map's other keys (path ending in `~3`): how many such keys an object has on average. */
  perObject: number | null;
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
  const walk = (path: string, depth: number, presence: number, required: boolean, perObject: number | null = null) => {
    const p = stats.paths[path];
    const segs = children.get(path) ?? [];
    const named = segs.filter((seg) => seg !== "*" && seg !== OTHER).map(unescapeKey);
    out.push({
      path,
      depth,
      presence,
      required,
      map: p.other ? { reason: p.other.reason, keys: p.other.keys, keyPattern: keyPatternOf(stats, path, named)?.name ?? null } : null,
      perObject,
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
    for (const seg of segs) {
      const child = path + "/" + seg;
      if (seg === "*") walk(child, depth + 1, 1, true);
      else if (seg === OTHER) walk(child, depth + 1, 1, false, objects ? stats.paths[child].present / objects : 0);
      else {
        const c = stats.paths[child];
        walk(child, depth + 1, objects ? c.present / objects : 0, c.present === objects);
      }
    }
  };
  walk("", 0, 1, true);
  return out;
}

// ------------------------------------------------------------------ truncations

export interface TruncationSummary extends Truncation {
  message: string;
}

/** Where a limit was hit, said in words (for the API and the page). */
export function describeTruncations(stats: ShapeStatsData): TruncationSummary[] {
  return (stats.truncated ?? []).map((t) => ({
    ...t,
    message:
      t.reason === "keys"
        ? `more than ${MAX_KEYS} distinct keys: further keys are merged into one schema for the other keys (additionalProperties)`
        : t.reason === "paths"
          ? `more than ${MAX_PATHS} paths in all: new fields below this one are not tracked (the schema leaves them open)`
          : `nested deeper than ${MAX_DEPTH} levels: not described below this point (left open)`,
  }));
}
