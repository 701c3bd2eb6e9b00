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
 * Maps: an object path whose keys vary (see `mapLike`) stops naming new keys: the values of every
 * key it has not named are merged under one child, `P/~3` ("any other key"), and its schema gets
 * `additionalProperties` from that child. Keys present in every object so far stay named. The
 * decision is taken when the path reaches MAP_MIN_KEYS named keys, and again at a few larger
 * counts; an object path that reaches MAX_KEYS named keys without looking like a map folds further
 * keys the same way and is listed in `truncated` (reason "keys"). So the values of every key are
 * always counted somewhere, and a schema stays valid for every sample.
 *
 * Limits are per subtree: each object path names at most MAX_KEYS keys, and the whole statistics
 * hold at most MAX_PATHS paths, except that keys of the top-level object (and top-level array
 * items) are always tracked. Whatever a limit left out is listed in `truncated`, with where.
 *
 * `addSample` costs O(size of the sample). `mergeStats` is associative (and exact: merging batches
 * in order gives the same statistics as adding every sample one by one), so batches of samples can
 * be reduced independently and merged into the stored row; `mergeInto` does the same in place,
 * in O(paths of the batch). Exactness holds while no path folds keys (a map or a cap): folding
 * depends on when a path crossed a threshold, so merged statistics can differ in which keys are
 * named; they stay sound (every sample validates) either way.
 */
import { escapeSegment, unescapeSegment } from "../json-pointer/pointer";
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
/** At most this many paths are tracked (top-level keys always are); see `truncated`. */
export const MAX_PATHS = 10_000;
/** Named keys per object path at which it is first checked for being a map (`mapLike`). */
export const MAP_MIN_KEYS = 32;
/** Named keys per object path beyond which further keys are folded into `P/~3` (and reported). */
export const MAX_KEYS = 500;
/** Counts of named keys at which an object path is checked for being a map. */
const MAP_CHECKS = new Set([32, 48, 72, 108, 162, 243, 364]);
/** Locations kept in `truncated`. */
export const MAX_TRUNCATIONS = 50;
/** The path segment of "any key this object path does not name" (a map's values). */
export const OTHER = "~3";

/**
 * Patterns tested on folded keys, most specific first; `propertyNames` uses the first one every
 * key matched.
 */
export const KEY_PATTERNS = {
  uuid: "^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$",
  date: "^[0-9]{4}-[0-9]{2}-[0-9]{2}$",
  digits: "^[0-9]+$",
  hex: "^[0-9a-f]+$",
} as const;
export type KeyPattern = keyof typeof KEY_PATTERNS;
const KEY_REGEXPS = Object.entries(KEY_PATTERNS).map(([name, src]) => [name as KeyPattern, new RegExp(src)] as const);
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
  /**
   * Set on an object path that folds the keys it does not name into `P/~3`: because it looks like
   * a map ("map") or because it reached MAX_KEYS ("cap"). `keys` counts the folded key
   * occurrences, `patterns` how many of them matched each of KEY_PATTERNS.
   */
  other?: OtherKeys;
};

export type OtherKeys = {
  reason: "map" | "cap";
  keys: number;
  patterns: Partial<Record<KeyPattern, number>>;
};

/** Where a limit left something out: keys folded ("keys"), paths not tracked ("paths"), values not descended into ("depth"). */
export type Truncation = {
  path: string;
  reason: "keys" | "paths" | "depth";
};

export type ShapeStatsData = {
  version: 1;
  samples: number;
  /**
   * By path. Key order carries no meaning (JSONB reorders keys); readers sort children by key.
   */
  paths: Record<string, PathStats>;
  /** Where a limit was hit (at most MAX_TRUNCATIONS locations, first first). */
  truncated?: Truncation[];
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
  return escapeSegment(key);
}

/** The object key a segment stands for (not meaningful for the `*` segment). */
export function unescapeKey(seg: string): string {
  if (seg === "~2") return "*";
  return unescapeSegment(seg);
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

// ------------------------------------------------------------------ index, limits, folding

/** Per stats object: how many paths it holds, and how many named keys each object path has. */
interface Index {
  count: number;
  named: Map<string, number>;
}
const indexes = new WeakMap<ShapeStatsData, Index>();

/** A segment that names an object key (not array items, not "other keys"). */
const isKeySeg = (seg: string) => seg !== "*" && seg !== OTHER;

function indexOf(stats: ShapeStatsData): Index {
  let ix = indexes.get(stats);
  if (ix) return ix;
  ix = { count: 0, named: new Map() };
  for (const path in stats.paths) {
    ix.count++;
    if (path === "") continue;
    const [parent, seg] = splitPath(path);
    if (isKeySeg(seg)) ix.named.set(parent, (ix.named.get(parent) ?? 0) + 1);
  }
  indexes.set(stats, ix);
  return ix;
}

/** A top-level key or the top-level array items: always tracked. */
const isTopLevel = (path: string) => path.lastIndexOf("/") === 0;

function truncate(stats: ShapeStatsData, path: string, reason: Truncation["reason"]): void {
  const list = (stats.truncated ??= []);
  if (list.length >= MAX_TRUNCATIONS) return;
  for (const t of list) if (t.path === path && t.reason === reason) return;
  list.push({ path, reason });
}

/** Creates a path if the global limit allows it; undefined (and a truncation) when it does not. */
function createPath(stats: ShapeStatsData, path: string): PathStats | undefined {
  const ix = indexOf(stats);
  const [parent, seg] = path === "" ? ["", ""] : splitPath(path);
  if (ix.count >= MAX_PATHS && path !== "" && !isTopLevel(path)) {
    truncate(stats, parent, "paths");
    return undefined;
  }
  ix.count++;
  if (path !== "" && isKeySeg(seg)) ix.named.set(parent, (ix.named.get(parent) ?? 0) + 1);
  return (stats.paths[path] = newPath());
}

/** Whether a key looks like an identifier (a map key) rather than a field name. */
export function idLike(key: string): boolean {
  return /[0-9]/.test(key) && /^[A-Za-z0-9_.:@-]+$/.test(key);
}

/**
 * Whether the object path looks like a map: at least 90% of its named keys look like
 * identifiers (`idLike`), or, once 4 objects were seen there, at least 3 in 4 of its keys were
 * present in at most half of them.
 */
export function mapLike(stats: ShapeStatsData, path: string, only: "ids" | "any" = "any"): boolean {
  const p = stats.paths[path];
  const objects = p?.types.object ?? 0;
  if (!objects) return false;
  let keys = 0;
  let ids = 0;
  let rare = 0;
  const prefix = path + "/";
  for (const k in stats.paths) {
    if (!k.startsWith(prefix) || k.indexOf("/", prefix.length) >= 0) continue;
    const seg = k.slice(prefix.length);
    if (!isKeySeg(seg)) continue;
    keys++;
    if (idLike(unescapeKey(seg))) ids++;
    if (stats.paths[k].present * 2 <= objects) rare++;
  }
  if (!keys) return false;
  return ids >= 0.9 * keys || (only === "any" && objects >= 4 && rare >= 0.75 * keys);
}

function countKey(o: OtherKeys, key: string, times: number): void {
  // a pattern one key missed can never hold again: only the ones every key matched so far are tested
  for (const [name, re] of KEY_REGEXPS) if ((o.patterns[name] ?? 0) === o.keys && re.test(key)) o.patterns[name] = (o.patterns[name] ?? 0) + times;
  o.keys += times;
}

/**
 * Makes `path` fold the keys it does not name into `path/~3`. For a map, named keys are folded
 * too, except those present in every object (once 2 objects were seen) that do not look like
 * identifiers, or those in `keep` when given. A cap folds nothing already named.
 */
export function foldKeys(stats: ShapeStatsData, path: string, reason: OtherKeys["reason"], keep?: (key: string) => boolean): void {
  const p = stats.paths[path];
  if (!p) return;
  if (p.other) {
    if (reason === "cap" || p.other.reason === "map") return;
    p.other.reason = "map"; // a capped path found to be a map: fold its named keys now
  } else p.other = { reason, keys: 0, patterns: {} };
  if (reason === "cap") {
    truncate(stats, path, "keys");
    return;
  }
  if (stats.truncated) {
    stats.truncated = stats.truncated.filter((t) => !(t.path === path && t.reason === "keys"));
    if (!stats.truncated.length) delete stats.truncated;
  }
  const objects = p.types.object ?? 0;
  const prefix = path + "/";
  const folded = new Set<string>();
  for (const k in stats.paths) {
    if (!k.startsWith(prefix) || k.indexOf("/", prefix.length) >= 0) continue;
    const seg = k.slice(prefix.length);
    if (!isKeySeg(seg)) continue;
    const key = unescapeKey(seg);
    const kept = keep ? keep(key) : objects >= 2 && stats.paths[k].present === objects && !idLike(key);
    if (kept) continue;
    folded.add(seg);
    countKey(p.other, key, stats.paths[k].present);
  }
  if (!folded.size) return;
  const moves: [string, string][] = [];
  for (const k in stats.paths) {
    if (!k.startsWith(prefix)) continue;
    const end = k.indexOf("/", prefix.length);
    const seg = end < 0 ? k.slice(prefix.length) : k.slice(prefix.length, end);
    if (folded.has(seg)) moves.push([k, prefix + OTHER + (end < 0 ? "" : k.slice(end))]);
  }
  // parents first, so a moved subtree keeps its order of creation
  moves.sort((a, b) => depthOf(a[0]) - depthOf(b[0]));
  for (const [from, to] of moves) {
    const src = stats.paths[from];
    delete stats.paths[from];
    const dst = stats.paths[to];
    if (dst) mergePathInto(dst, src);
    else stats.paths[to] = clonePath(src);
  }
  childCache.delete(p);
  completeCache.delete(p);
  indexes.delete(stats);
}

const depthOf = (path: string) => {
  let n = 0;
  for (let i = 0; i < path.length; i++) if (path.charCodeAt(i) === 47) n++;
  return n;
};

/** After a path gained named keys: a map check at the MAP_CHECKS counts, a cap at MAX_KEYS. */
function checkKeys(stats: ShapeStatsData, path: string, named: number): void {
  if (MAP_CHECKS.has(named) && mapLike(stats, path)) foldKeys(stats, path, "map");
  else if (named >= MAX_KEYS) foldKeys(stats, path, "cap");
}

// ------------------------------------------------------------------ adding

interface Child {
  path: string;
  stats: PathStats;
}
/** Array items and other keys in the child cache (no object key can be a symbol). */
const ITEMS = Symbol("items");
const OTHER_KEYS = Symbol("other");
/**
 * Children already resolved from each path, by object key (or ITEMS, OTHER_KEYS): adding a
 * sample then walks known paths without building and hashing their path strings again.
 */
const childCache = new WeakMap<PathStats, Map<string | symbol, Child>>();
/** Paths that fold keys whose child cache holds every named key (see Adder.child). */
const completeCache = new WeakSet<PathStats>();

class Adder {
  /** Object paths that crossed a MAP_CHECKS count during the object being visited. */
  private readonly pendingChecks = new Set<string>();

  constructor(private readonly stats: ShapeStatsData) {}

  private child(parentPath: string, parent: PathStats, key: string | symbol): Child | undefined {
    let m = childCache.get(parent);
    if (!m) childCache.set(parent, (m = new Map()));
    let c = m.get(key);
    if (c) return c;
    if (typeof key === "string" && parent.other) {
      // A path that folds keys has its named keys all in the cache, so a key it does not name is
      // told without building its path (or looking it up: a map's keys are many and rarely seen again).
      if (!completeCache.has(parent)) {
        completeCache.add(parent);
        const prefix = parentPath + "/";
        for (const k in this.stats.paths) {
          if (!k.startsWith(prefix) || k.indexOf("/", prefix.length) >= 0) continue;
          const seg = k.slice(prefix.length);
          if (isKeySeg(seg)) m.set(unescapeKey(seg), { path: k, stats: this.stats.paths[k] });
        }
        c = m.get(key);
        if (c) return c;
      }
      countKey(parent.other, key, 1);
      return this.child(parentPath, parent, OTHER_KEYS);
    }
    const path = key === ITEMS ? parentPath + "/*" : key === OTHER_KEYS ? parentPath + "/" + OTHER : parentPath + "/" + escapeKey(key as string);
    let stats: PathStats | undefined = this.stats.paths[path];
    if (!stats) {
      stats = createPath(this.stats, path);
      if (!stats) return undefined;
      if (typeof key === "string") {
        const named = indexOf(this.stats).named.get(parentPath) ?? 0;
        // A map check waits for the end of this object (its keys not yet visited would count as
        // missing); a cap acts at once, so one huge object cannot pass it.
        if (MAP_CHECKS.has(named)) {
          if (mapLike(this.stats, parentPath, "ids")) {
            // keys that look like ids do not depend on presence: fold now, keeping the other keys
            // every earlier object had (this object's keys not yet visited count one short)
            const objects = parent.types.object ?? 0;
            const prefix = parentPath + "/";
            foldKeys(
              this.stats,
              parentPath,
              "map",
              (k) => objects >= 2 && !idLike(k) && (this.stats.paths[prefix + escapeKey(k)]?.present ?? 0) >= objects - 1,
            );
            if (!this.stats.paths[path]) return this.child(parentPath, parent, key);
          } else this.pendingChecks.add(parentPath);
        } else if (named >= MAX_KEYS) {
          foldKeys(this.stats, parentPath, "cap");
          // folded just now: resolve again (the key is now one of the other keys)
          if (!this.stats.paths[path]) return this.child(parentPath, parent, key);
        }
      }
    }
    m = childCache.get(parent) ?? new Map();
    childCache.set(parent, m);
    m.set(key, (c = { path, stats }));
    return c;
  }

  root(v: unknown): void {
    const p = this.stats.paths[""] ?? createPath(this.stats, "");
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
      if (v.length === 0) return;
      if (depth >= MAX_DEPTH) return truncate(this.stats, path, "depth");
      const items = this.child(path, p, ITEMS);
      if (!items) return;
      for (let i = 0; i < v.length; i++) this.visit(items.path, items.stats, v[i], depth + 1);
    } else if (typeof v === "object") {
      t.object = (t.object ?? 0) + 1;
      const o = v as Record<string, unknown>;
      let first = true;
      for (const k in o) {
        if (!Object.prototype.hasOwnProperty.call(o, k)) continue;
        const c = o[k];
        // JSON.stringify drops these keys: they are absent, not null
        if (c === undefined || typeof c === "function" || typeof c === "symbol") continue;
        if (first) {
          first = false;
          if (depth >= MAX_DEPTH) return truncate(this.stats, path, "depth");
          // a capped path gets another map check as more objects are seen
          const n = t.object;
          if (p.other?.reason === "cap" && n >= 4 && (n & (n - 1)) === 0 && mapLike(this.stats, path)) foldKeys(this.stats, path, "map");
        }
        const child = this.child(path, p, k);
        if (child) this.visit(child.path, child.stats, c, depth + 1);
      }
      // (a path capped meanwhile by this very object is upgraded to a map when it is one)
      if (this.pendingChecks.delete(path) && p.other?.reason !== "map" && mapLike(this.stats, path)) foldKeys(this.stats, path, "map");
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

/** Adds `b`'s folded-key counts into `a` (which folds keys already). */
function mergeOther(a: OtherKeys, b: OtherKeys): void {
  a.keys += b.keys;
  addCounts(a.patterns, b.patterns);
  if (b.reason === "map") a.reason = "map";
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
  if (p.other) c.other = { reason: p.other.reason, keys: p.other.keys, patterns: { ...p.other.patterns } };
  return c;
}

/** A deep copy. */
export function cloneStats(s: ShapeStatsData): ShapeStatsData {
  const paths: Record<string, PathStats> = {};
  for (const k in s.paths) paths[k] = clonePath(s.paths[k]);
  const out: ShapeStatsData = { version: 1, samples: s.samples, paths };
  if (s.truncated) out.truncated = s.truncated.map((t) => ({ ...t }));
  return out;
}

/**
 * Adds `b` into `target` in place, as if b's samples had been added after target's; returns
 * `target`. O(paths of b), plus O(paths) for each path that starts folding keys. `b` is not changed.
 */
export function mergeInto(target: ShapeStatsData, b: ShapeStatsData): ShapeStatsData {
  // b's paths, parents first, each mapped to where it lands in target (null: not tracked)
  const order = Object.keys(b.paths).sort((x, y) => depthOf(x) - depthOf(y));
  const landing = new Map<string, string | null>();
  const grown = new Map<string, number>(); // object paths of target that gained named keys: count before
  for (const bp of order) {
    const src = b.paths[bp];
    let tp: string | null;
    if (bp === "") tp = "";
    else {
      const [bParent, seg] = splitPath(bp);
      const tParent = landing.get(bParent);
      if (tParent === undefined || tParent === null) {
        landing.set(bp, null);
        continue;
      }
      tp = tParent + "/" + seg;
      const parent = target.paths[tParent];
      if (isKeySeg(seg) && !target.paths[tp]) {
        const named = indexOf(target).named.get(tParent) ?? 0;
        if (!parent.other && named >= MAX_KEYS) foldKeys(target, tParent, "cap");
        // a key b names although b folds keys there too is one of b's fixed keys: it stays named
        if (parent.other && !b.paths[bParent].other) {
          countKey(parent.other, unescapeKey(seg), src.present);
          tp = tParent + "/" + OTHER;
        } else {
          if (parent.other) completeCache.delete(parent); // a new named key: its cache is no longer complete
          if (!grown.has(tParent)) grown.set(tParent, named);
        }
      }
    }
    landing.set(bp, tp);
    let dst: PathStats | undefined = target.paths[tp];
    if (!dst) {
      dst = createPath(target, tp);
      if (!dst) {
        landing.set(bp, null);
        continue;
      }
    }
    const { other, ...rest } = src;
    mergePathInto(dst, rest);
    if (other) {
      if (!dst.other) {
        // b folds keys here and target does not yet: fold target's keys that b does not name
        foldKeys(target, tp, other.reason, (key) => b.paths[bp + "/" + escapeKey(key)] !== undefined);
      }
      if (dst.other) mergeOther(dst.other, other);
    }
  }
  // map checks for the paths that gained named keys, as adding would have done
  for (const [path, before] of grown) {
    const p = target.paths[path];
    if (!p || p.other) continue;
    const after = indexOf(target).named.get(path) ?? 0;
    for (let n = before + 1; n <= after; n++) {
      if (MAP_CHECKS.has(n) || n >= MAX_KEYS) {
        checkKeys(target, path, MAP_CHECKS.has(n) ? n : MAX_KEYS);
        if (p.other) break;
      }
    }
  }
  target.samples += b.samples;
  for (const t of b.truncated ?? []) truncate(target, t.path, t.reason);
  return target;
}

/**
 * `a` then `b`, as if b's samples had been added after a's. Returns a new value; neither input is
 * changed. Associative: merge(merge(a, b), c) equals merge(a, merge(b, c)) (while no path folds keys).
 */
export function mergeStats(a: ShapeStatsData, b: ShapeStatsData): ShapeStatsData {
  return mergeInto(cloneStats(a), b);
}

/** Reads stored statistics back, tolerating an empty or foreign value (treated as empty). */
export function parseStats(v: unknown): ShapeStatsData {
  if (typeof v === "object" && v !== null && (v as ShapeStatsData).version === 1 && typeof (v as ShapeStatsData).paths === "object") {
    const s = v as ShapeStatsData;
    const t: unknown = s.truncated;
    // statistics stored before truncations said where: the whole value
    if (t === true) s.truncated = [{ path: "", reason: "paths" }];
    else if (t !== undefined && !Array.isArray(t)) delete s.truncated;
    return s;
  }
  return emptyStats();
}
