/**
 * A small seeded generator of varied JSON for the inference tests and bench/inference.ts (a test
 * helper: not used by the app). Samples come from a few random "shapes" (so paths repeat, keys are optional, values
 * are nullable, formats and enum-like pools show up) plus some fully random values.
 */

export type Rng = () => number;

/** mulberry32: tiny, fast, deterministic. */
export function rng(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const int = (r: Rng, lo: number, hi: number) => lo + Math.floor(r() * (hi - lo + 1));
const pick = <T>(r: Rng, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)];
const hex = (r: Rng, n: number) => Array.from({ length: n }, () => "0123456789abcdef"[int(r, 0, 15)]).join("");
const pad = (n: number, w = 2) => String(n).padStart(w, "0");

// Keys include the awkward ones: "*", "/", "~", "", __proto__, non-ASCII.
const KEYS = ["id", "name", "items", "value", "type", "meta", "tags", "x", "y", "created", "*", "a/b", "~t", "", "__proto__", "ключ", "0", "10"];

export const STRING_KINDS = ["uuid", "date-time", "date", "email", "uri", "word", "free", "bad-date", "long"] as const;

export function genString(r: Rng, kind: (typeof STRING_KINDS)[number]): string {
  switch (kind) {
    case "uuid":
      return `${hex(r, 8)}-${hex(r, 4)}-${hex(r, 4)}-${hex(r, 4)}-${hex(r, 12)}`;
    case "date-time":
      return `20${pad(int(r, 0, 40))}-${pad(int(r, 1, 12))}-${pad(int(r, 1, 28))}T${pad(int(r, 0, 23))}:${pad(int(r, 0, 59))}:${pad(int(r, 0, 59))}${pick(r, ["Z", "+02:00", ".123Z", "-05:30"])}`;
    case "date":
      return `20${pad(int(r, 0, 40))}-${pad(int(r, 1, 12))}-${pad(int(r, 1, 28))}`;
    case "email":
      return `${pick(r, ["ann", "bob", "c.d", "e+f"])}${int(r, 0, 99)}@${pick(r, ["example.com", "mail.test", "x.io"])}`;
    case "uri":
      return `${pick(r, ["https", "http", "urn", "mailto"])}:${pick(r, ["//example.com/a", "//h.test/p?q=1", "isbn:0451450523", "x@y.z"])}${int(r, 0, 9)}`;
    case "word":
      return pick(r, ["red", "green", "blue", "open", "closed"]);
    case "bad-date":
      return pick(r, ["2024-02-30", "2024-13-01", "2024-01-01T25:00:00Z", "not a date", "2024-01-01T00:00:00"]);
    case "long":
      return "L".repeat(int(r, 200, 400));
    default:
      return Array.from({ length: int(r, 0, 12) }, () => String.fromCharCode(int(r, 32, 0x2fff))).join("");
  }
}

type Template =
  | { k: "string"; kind: (typeof STRING_KINDS)[number]; mixIn?: (typeof STRING_KINDS)[number] }
  | { k: "integer"; small: boolean }
  | { k: "number" }
  | { k: "boolean" }
  | { k: "null" }
  | { k: "object"; props: { key: string; t: Template; optional: number; nullable: number }[] }
  | { k: "array"; item: Template; max: number }
  | { k: "union"; of: Template[] }
  | { k: "any" };

export function genTemplate(r: Rng, depth = 0): Template {
  const roll = r();
  if (depth >= 4 || roll < 0.35) {
    const s = r();
    if (s < 0.45) return { k: "string", kind: pick(r, STRING_KINDS), mixIn: r() < 0.15 ? pick(r, STRING_KINDS) : undefined };
    if (s < 0.65) return { k: "integer", small: r() < 0.5 };
    if (s < 0.75) return { k: "number" };
    if (s < 0.9) return { k: "boolean" };
    if (s < 0.95) return { k: "null" };
    return { k: "any" };
  }
  if (roll < 0.7) {
    const n = int(r, 0, 6);
    const keys = new Set<string>();
    while (keys.size < n) keys.add(pick(r, KEYS));
    return {
      k: "object",
      props: [...keys].map((key) => ({ key, t: genTemplate(r, depth + 1), optional: r() < 0.4 ? r() * 0.6 : 0, nullable: r() < 0.25 ? 0.3 : 0 })),
    };
  }
  if (roll < 0.9) return { k: "array", item: genTemplate(r, depth + 1), max: int(r, 0, 5) };
  return { k: "union", of: [genTemplate(r, depth + 1), genTemplate(r, depth + 1)] };
}

export function genValue(r: Rng, t: Template, depth = 0): unknown {
  switch (t.k) {
    case "string":
      return genString(r, t.mixIn && r() < 0.1 ? t.mixIn : t.kind);
    case "integer":
      return t.small ? int(r, 0, 3) : int(r, -1e6, 1e6);
    case "number":
      return r() < 0.3 ? int(r, -100, 100) : (r() - 0.5) * 1e4;
    case "boolean":
      return r() < 0.5;
    case "null":
      return null;
    case "object": {
      const o: Record<string, unknown> = {};
      for (const p of t.props) {
        if (r() < p.optional) continue;
        const v = r() < p.nullable ? null : genValue(r, p.t, depth + 1);
        Object.defineProperty(o, p.key, { value: v, enumerable: true, writable: true, configurable: true });
      }
      return o;
    }
    case "array":
      return Array.from({ length: int(r, 0, t.max) }, () => genValue(r, t.item, depth + 1));
    case "union":
      return genValue(r, pick(r, t.of), depth + 1);
    case "any":
      return randomJson(r, depth);
  }
}

/** Any JSON value, shapeless. */
export function randomJson(r: Rng, depth = 0): unknown {
  const roll = r();
  if (depth > 3 || roll < 0.5) {
    const s = r();
    if (s < 0.3) return genString(r, pick(r, STRING_KINDS));
    if (s < 0.5) return int(r, -50, 50);
    if (s < 0.6) return r() * 10;
    if (s < 0.8) return r() < 0.5;
    return null;
  }
  if (roll < 0.75) {
    const o: Record<string, unknown> = {};
    for (let i = int(r, 0, 4); i > 0; i--)
      Object.defineProperty(o, pick(r, KEYS), { value: randomJson(r, depth + 1), enumerable: true, writable: true, configurable: true });
    return o;
  }
  return Array.from({ length: int(r, 0, 4) }, () => randomJson(r, depth + 1));
}

/** `n` samples: mostly from `shapes` templates (a tool's outputs), 5% shapeless. */
export function genSamples(seed: number, n: number, shapes = 4): unknown[] {
  const r = rng(seed);
  const templates = Array.from({ length: shapes }, () => genTemplate(r));
  return Array.from({ length: n }, () => (r() < 0.05 ? randomJson(r) : genValue(r, pick(r, templates))));
}

/**
 * `n` samples with maps: generated values (as genSamples) under keys that vary — ids (uuids,
 * numbers, prefixed) or header-like names — next to fixed keys.
 */
export function genMapSamples(seed: number, n: number): unknown[] {
  const r = rng(seed);
  const values = genSamples(seed + 1000, n * 4, 2);
  let next = 0;
  const headerWords = ["cache", "edge", "trace", "vary", "served", "timing", "route", "origin", "pop", "via"];
  const key = (kind: number) =>
    kind === 0
      ? `${hex(r, 8)}-${hex(r, 4)}-${hex(r, 4)}-${hex(r, 4)}-${hex(r, 12)}`
      : kind === 1
        ? String(int(r, 1, 1e6))
        : kind === 2
          ? `req_${hex(r, 10)}`
          : `x-${pick(r, headerWords)}-${pick(r, headerWords)}-${pick(r, headerWords)}`;
  const kinds = [int(r, 0, 3), int(r, 0, 3)];
  return Array.from({ length: n }, () => {
    const maps: Record<string, unknown> = {};
    kinds.forEach((kind, m) => {
      const o: Record<string, unknown> = { fixed: int(r, 0, 9) };
      for (let k = int(r, 0, 12); k > 0; k--) o[key(kind)] = values[next++ % values.length];
      maps[`map${m}`] = o;
    });
    return { id: next, ...maps, list: [maps.map0] };
  });
}
