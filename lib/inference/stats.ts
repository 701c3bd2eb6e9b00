/**
 * Shape statistics: what was observed at each JSON path of many samples (tool outputs or
 * arguments), merged incrementally. Pure: no I/O. The value is plain JSON, so it is stored as is
 * (ShapeStats.stats) and read back without conversion.
 *
 * Paths are JSON pointers with `*` standing for "any item of the array here": `/items/*\/id`.
 * Object keys are escaped as in RFC 6901 (`~` -> `~0`, `/` -> `~1`), and a key that is exactly
 * `*` is written `~2`, so a path never confuses an object key with array items.
 *
 * `present` is exact and is what `required` is derived from:
 * - the root (`""`): the number of samples;
 * - an object key `P/k`: the number of objects seen at `P` that had the key `k`; the key is
 *   required iff `present(P/k) === types.object(P)`;
 * - array items `P/*`: the number of items of all arrays seen at `P`.
 *
 * `addSample` costs O(size of the sample). `mergeStats` is associative (and exact: merging batches
 * in order gives the same statistics as adding every sample one by one), so batches of samples can
 * be reduced independently and merged into the stored row; `mergeInto` does the same in place,
 * in O(paths of the batch).
 */
import { fullFormats } from "ajv-formats/dist/formats";

export const JSON_TYPES = ["object", "array", "string", "integer", "number", "boolean", "null"] as const;
export type JsonType = (typeof JSON_TYPES)[number];

/** Formats we look for, in the order of preference when more than one matches every value. */
export const FORMATS = ["uuid", "date-time", "date", "email", "uri"] as const;
export type FormatName = (typeof FORMATS)[number];

/** Distinct scalar values tracked per path; beyond this the path is marked overflowed. */
export const VALUE_CAP = 64;
/** A string longer than this is not tracked as a distinct value (the path overflows). */
export const MAX_TRACKED_STRING = 256;
/** Examples kept per path (first distinct scalars seen), each string cut to EXAMPLE_CHARS. */
export const EXAMPLES_CAP = 3;
export const EXAMPLE_CHARS = 80;
/** At most this many paths are tracked; later new paths are ignored (maps keyed by ids). */
export const MAX_PATHS = 2000;
/** Values nested deeper than this are counted by type but not descended into. */
export const MAX_DEPTH = 64;

// Type aliases, not interfaces: the stats are stored as JSON, and only an alias is seen to fit a JSON type.
export type Range = {
  min: number;
  max: number;
};

export type PathStats = {
  /** See the module comment for what is counted. */
  present: number;
  /** Values seen here by JSON type (an integral number counts as integer, not number). */
  types: Partial<Record<JsonType, number>>;
  /** Scalar values seen (string, number, boolean, null); the `n` of the enum rule. */
  scalars: number;
  /**
   * Distinct scalar values -> how often, keyed `s:<string>`, `n:<number>`, `b:true|false`, `null`;
   * null once more than VALUE_CAP distinct values (or a long string) were seen.
   */
  values: Record<string, number> | null;
  /** The first distinct scalar values seen (kept after overflow), strings cut to EXAMPLE_CHARS. */
  examples: (string | number | boolean | null)[];
  /** Strings that matched each format (the ajv-formats "full" checks). */
  formats: Partial<Record<FormatName, number>>;
  /** Min/max of numbers, of string lengths (UTF-16 units) and of array lengths. */
  number?: Range;
  stringLength?: Range;
  arrayLength?: Range;
};

export type ShapeStatsData = {
  version: 1;
  samples: number;
  /**
   * By path. Key order carries no meaning (JSONB reorders keys); readers sort children by key.
   */
  paths: Record<string, PathStats>;
  /** Set when MAX_PATHS was reached and some paths were not tracked. */
  truncated?: boolean;
};

export function emptyStats(): ShapeStatsData {
  return { version: 1, samples: 0, paths: {} };
}

// ------------------------------------------------------------------ formats

type Check = (s: string) => boolean;

function checkOf(name: FormatName): Check {
  // Every FormatName here is one of ajv-formats' names.
  const f: unknown = fullFormats[name];
  const v = typeof f === "object" && f !== null && !(f instanceof RegExp) ? (f as { validate: unknown }).validate : f;
  if (v instanceof RegExp) return (s) => v.test(s);
  if (typeof v === "function") return v as Check;
  throw new Error(`ajv-formats has no check for "${name}"`);
}

const CHECKS: Record<FormatName, Check> = {
  uuid: checkOf("uuid"),
  "date-time": checkOf("date-time"),
  date: checkOf("date"),
  email: checkOf("email"),
  uri: checkOf("uri"),
};

const isDigit = (c: number) => c >= 48 && c <= 57;

/**
 * Cheap necessary conditions in front of the ajv-formats checks: they only skip strings the full
 * check would refuse anyway, so the counts are those of the full checks.
 */
function countFormats(s: string, into: Partial<Record<FormatName, number>>): void {
  const len = s.length;
  if ((len === 36 || len === 45) && CHECKS.uuid(s)) into.uuid = (into.uuid ?? 0) + 1;
  if (len >= 10 && isDigit(s.charCodeAt(0)) && s.charCodeAt(4) === 45 /* - */) {
    if (len === 10) {
      if (CHECKS.date(s)) into.date = (into.date ?? 0) + 1;
    } else if (len >= 20 && CHECKS["date-time"](s)) into["date-time"] = (into["date-time"] ?? 0) + 1;
  }
  if (len >= 3) {
    const at = s.indexOf("@");
    if (at > 0 && CHECKS.email(s)) into.email = (into.email ?? 0) + 1;
    if (s.indexOf(":") > 0 && CHECKS.uri(s)) into.uri = (into.uri ?? 0) + 1;
  }
}

// ------------------------------------------------------------------ paths

/** Escapes one object key as a path segment. */
export function escapeKey(key: string): string {
  if (key === "*") return "~2";
  if (key.indexOf("~") < 0 && key.indexOf("/") < 0) return key;
  return key.replace(/~/g, "~0").replace(/\//g, "~1");
}

/** The object key a segment stands for (not meaningful for the `*` segment). */
export function unescapeKey(seg: string): string {
  if (seg === "~2") return "*";
  if (seg.indexOf("~") < 0) return seg;
  return seg.replace(/~1/g, "/").replace(/~0/g, "~");
}

/** The parent path and the last segment of a non-root path. */
export function splitPath(path: string): [parent: string, segment: string] {
  const i = path.lastIndexOf("/");
  return [path.slice(0, i), path.slice(i + 1)];
}

// ------------------------------------------------------------------ adding

function newPath(): PathStats {
  return { present: 0, types: {}, scalars: 0, values: {}, examples: [], formats: {} };
}

function widen(r: Range | undefined, v: number): Range {
  if (!r) return { min: v, max: v };
  if (v < r.min) r.min = v;
  if (v > r.max) r.max = v;
  return r;
}

function valueKey(v: string | number | boolean | null): string {
  if (v === null) return "null";
  if (typeof v === "string") return "s:" + v;
  if (typeof v === "number") return "n:" + String(v);
  return v ? "b:true" : "b:false";
}

/** The value a key of `PathStats.values` stands for. */
export function keyValue(key: string): string | number | boolean | null {
  if (key === "null") return null;
  if (key.startsWith("s:")) return key.slice(2);
  if (key.startsWith("n:")) return Number(key.slice(2));
  return key === "b:true";
}

function addExample(ex: PathStats["examples"], v: string | number | boolean | null): void {
  if (ex.length >= EXAMPLES_CAP) return;
  const e = typeof v === "string" && v.length > EXAMPLE_CHARS ? v.slice(0, EXAMPLE_CHARS - 1) + "…" : v;
  if (!ex.includes(e)) ex.push(e);
}

function trackScalar(p: PathStats, v: string | number | boolean | null): void {
  p.scalars++;
  addExample(p.examples, v);
  const values = p.values;
  if (values === null) return;
  if (typeof v === "string" && v.length > MAX_TRACKED_STRING) {
    p.values = null;
    return;
  }
  const k = valueKey(v);
  const n = values[k];
  if (n !== undefined) values[k] = n + 1;
  else if (Object.keys(values).length >= VALUE_CAP) p.values = null;
  else values[k] = 1;
}

/** Paths per stats object, so adding a sample does not count them again (O(paths)). */
const pathCounts = new WeakMap<ShapeStatsData, number>();

interface Child {
  path: string;
  stats: PathStats;
}
/** Array items in the child cache (no object key can be a symbol). */
const ITEMS = Symbol("items");
/**
 * Children already resolved from each path, by object key (or ITEMS): adding a sample then walks
 * known paths without building and hashing their path strings again.
 */
const childCache = new WeakMap<PathStats, Map<string | symbol, Child>>();

class Adder {
  constructor(private readonly stats: ShapeStatsData) {
    if (!pathCounts.has(stats)) pathCounts.set(stats, Object.keys(stats.paths).length);
  }

  private at(path: string): PathStats | undefined {
    let p = this.stats.paths[path];
    if (p) return p;
    const count = pathCounts.get(this.stats)!;
    if (count >= MAX_PATHS) {
      this.stats.truncated = true;
      return undefined;
    }
    pathCounts.set(this.stats, count + 1);
    return (this.stats.paths[path] = p = newPath());
  }

  private child(parentPath: string, parent: PathStats, key: string | symbol): Child | undefined {
    let m = childCache.get(parent);
    if (!m) childCache.set(parent, (m = new Map()));
    let c = m.get(key);
    if (c) return c;
    const path = key === ITEMS ? parentPath + "/*" : parentPath + "/" + escapeKey(key as string);
    const stats = this.at(path);
    if (!stats) return undefined;
    m.set(key, (c = { path, stats }));
    return c;
  }

  root(v: unknown): void {
    const p = this.at("");
    if (p) this.visit("", p, v, 0);
  }

  private visit(path: string, p: PathStats, v: unknown, depth: number): void {
    p.present++;
    const t = p.types;
    if (v === null || v === undefined || (typeof v === "number" && !Number.isFinite(v))) {
      // undefined and non-finite numbers are what JSON.stringify writes as null
      t.null = (t.null ?? 0) + 1;
      trackScalar(p, null);
    } else if (typeof v === "string") {
      t.string = (t.string ?? 0) + 1;
      p.stringLength = widen(p.stringLength, v.length);
      countFormats(v, p.formats);
      trackScalar(p, v);
    } else if (typeof v === "number") {
      if (Number.isInteger(v)) t.integer = (t.integer ?? 0) + 1;
      else t.number = (t.number ?? 0) + 1;
      p.number = widen(p.number, v);
      trackScalar(p, v);
    } else if (typeof v === "boolean") {
      t.boolean = (t.boolean ?? 0) + 1;
      trackScalar(p, v);
    } else if (Array.isArray(v)) {
      t.array = (t.array ?? 0) + 1;
      p.arrayLength = widen(p.arrayLength, v.length);
      if (depth >= MAX_DEPTH || v.length === 0) return;
      const items = this.child(path, p, ITEMS);
      if (!items) return;
      for (let i = 0; i < v.length; i++) this.visit(items.path, items.stats, v[i], depth + 1);
    } else if (typeof v === "object") {
      t.object = (t.object ?? 0) + 1;
      if (depth >= MAX_DEPTH) return;
      const o = v as Record<string, unknown>;
      for (const k in o) {
        if (!Object.prototype.hasOwnProperty.call(o, k)) continue;
        const c = o[k];
        // JSON.stringify drops these keys: they are absent, not null
        if (c === undefined || typeof c === "function" || typeof c === "symbol") continue;
        const child = this.child(path, p, k);
        if (child) this.visit(child.path, child.stats, c, depth + 1);
      }
    } else {
      // bigint and other non-JSON values: counted as what they would be closest to
      t.integer = (t.integer ?? 0) + 1;
    }
  }
}

/** Adds one sample (mutating `stats`, which is also returned). O(size of the sample). */
export function addSample(stats: ShapeStatsData, value: unknown): ShapeStatsData {
  stats.samples++;
  new Adder(stats).root(value);
  return stats;
}

/** Statistics of a list of samples. */
export function statsOf(values: Iterable<unknown>): ShapeStatsData {
  const s = emptyStats();
  const adder = new Adder(s);
  for (const v of values) {
    s.samples++;
    adder.root(v);
  }
  return s;
}

// ------------------------------------------------------------------ merging

function mergeRange(a: Range | undefined, b: Range | undefined): Range | undefined {
  if (!a) return b ? { min: b.min, max: b.max } : undefined;
  if (b) {
    if (b.min < a.min) a.min = b.min;
    if (b.max > a.max) a.max = b.max;
  }
  return a;
}

function addCounts<K extends string>(into: Partial<Record<K, number>>, b: Partial<Record<K, number>>): void {
  for (const k in b) into[k] = (into[k] ?? 0) + (b[k] ?? 0);
}

/** Adds `b` into `a` in place (the object stays the same: the child cache points at it). */
function mergePathInto(a: PathStats, b: PathStats): void {
  a.present += b.present;
  addCounts(a.types, b.types);
  a.scalars += b.scalars;
  if (a.values && b.values) {
    const values = a.values;
    let n = Object.keys(values).length;
    for (const k in b.values) {
      if (values[k] !== undefined) values[k] += b.values[k];
      else if (++n > VALUE_CAP) {
        a.values = null;
        break;
      } else values[k] = b.values[k];
    }
  } else a.values = null;
  for (const e of b.examples) if (a.examples.length < EXAMPLES_CAP && !a.examples.includes(e)) a.examples.push(e);
  addCounts(a.formats, b.formats);
  const num = mergeRange(a.number, b.number);
  if (num) a.number = num;
  const sl = mergeRange(a.stringLength, b.stringLength);
  if (sl) a.stringLength = sl;
  const al = mergeRange(a.arrayLength, b.arrayLength);
  if (al) a.arrayLength = al;
}

function clonePath(p: PathStats): PathStats {
  const c: PathStats = {
    present: p.present,
    types: { ...p.types },
    scalars: p.scalars,
    values: p.values ? { ...p.values } : null,
    examples: [...p.examples],
    formats: { ...p.formats },
  };
  if (p.number) c.number = { ...p.number };
  if (p.stringLength) c.stringLength = { ...p.stringLength };
  if (p.arrayLength) c.arrayLength = { ...p.arrayLength };
  return c;
}

/** A deep copy. */
export function cloneStats(s: ShapeStatsData): ShapeStatsData {
  const paths: Record<string, PathStats> = {};
  for (const k in s.paths) paths[k] = clonePath(s.paths[k]);
  const out: ShapeStatsData = { version: 1, samples: s.samples, paths };
  if (s.truncated) out.truncated = true;
  return out;
}

/**
 * Adds `b` into `target` in place, as if b's samples had been added after target's; returns
 * `target`. O(paths of b). `b` is not changed.
 */
export function mergeInto(target: ShapeStatsData, b: ShapeStatsData): ShapeStatsData {
  let count = pathCounts.get(target) ?? Object.keys(target.paths).length;
  for (const k in b.paths) {
    const mine = target.paths[k];
    if (mine) mergePathInto(mine, b.paths[k]);
    else if (count >= MAX_PATHS) target.truncated = true;
    else {
      target.paths[k] = clonePath(b.paths[k]);
      count++;
    }
  }
  pathCounts.set(target, count);
  target.samples += b.samples;
  if (b.truncated) target.truncated = true;
  return target;
}

/**
 * `a` then `b`, as if b's samples had been added after a's. Returns a new value; neither input is
 * changed. Associative: merge(merge(a, b), c) equals merge(a, merge(b, c)).
 */
export function mergeStats(a: ShapeStatsData, b: ShapeStatsData): ShapeStatsData {
  return mergeInto(cloneStats(a), b);
}

/** Reads stored statistics back, tolerating an empty or foreign value (treated as empty). */
export function parseStats(v: unknown): ShapeStatsData {
  if (typeof v === "object" && v !== null && (v as ShapeStatsData).version === 1 && typeof (v as ShapeStatsData).paths === "object") {
    return v as ShapeStatsData;
  }
  return emptyStats();
}
