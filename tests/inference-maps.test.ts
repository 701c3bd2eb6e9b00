import { describe, expect, it } from "vitest";
import { genMapSamples, rng } from "@/tests/helpers/inference-generate";
import { compareWithDeclared } from "@/lib/inference/compare";
import { deriveSchema, describeFields, describeTruncations } from "@/lib/inference/schema";
import {
  addSample,
  emptyStats,
  idLike,
  MAX_DEPTH,
  MAX_KEYS,
  MAX_PATHS,
  mapLike,
  mergeInto,
  mergeStats,
  OTHER,
  parseStats,
  statsOf,
  type ShapeStatsData,
} from "@/lib/inference/stats";
import { validate } from "@/lib/schema/validate";
import type { JsonSchema } from "@/lib/tools/spec";

// Pure: no database. Maps, limits, numbers: the rules of issue 15, each checked on what it is for.

type Obj = Record<string, JsonSchema>;
const roundTrip = <T>(v: T): T => JSON.parse(JSON.stringify(v));
const props = (s: JsonSchema) => s.properties as Obj;
const allValid = (schema: JsonSchema, values: unknown[]) => values.filter((v) => !validate(schema, v).valid);

const WORDS = [
  "amzn",
  "trace",
  "cache",
  "cdn",
  "edge",
  "forwarded",
  "origin",
  "vary",
  "powered",
  "request",
  "served",
  "timing",
  "cloud",
  "front",
  "pop",
  "age",
  "via",
  "route",
  "backend",
  "shield",
];

/** A response whose headers are a map: two always-present headers and a few of many rare ones; `late` from sample 150 on. */
function headerSamples(seed: number, n: number): unknown[] {
  const r = rng(seed);
  const pick = () => WORDS[Math.floor(r() * WORDS.length)];
  return Array.from({ length: n }, (_, i) => {
    const headers: Record<string, string> = { "content-type": "application/json", date: "Mon, 30 Nov 2026 10:00:00 GMT" };
    for (let k = 2 + Math.floor(r() * 6); k > 0; k--) headers[`x-${pick()}-${pick()}-${pick()}`] = pick();
    const o: Record<string, unknown> = { status: 200, headers, ms: Math.floor(r() * 900) };
    if (i >= n - 50) o.late = "here";
    return o;
  });
}

describe("maps", () => {
  it("a header map becomes additionalProperties, its fixed keys stay, and a late field is learned", () => {
    const samples = headerSamples(1, 200);
    const stats = statsOf(samples);
    const schema = deriveSchema(stats);
    const headers = props(schema).headers;
    expect(headers.type).toBe("object");
    expect(Object.keys(headers.properties as object)).toEqual(["content-type", "date"]);
    expect(headers.required).toEqual(["content-type", "date"]);
    expect(headers.additionalProperties).toMatchObject({ type: "string" });
    expect(props(schema).late).toMatchObject({ type: "string" });
    expect(Object.keys(stats.paths).length).toBeLessThan(12);
    expect(stats.truncated).toBeUndefined();
    // sound on every captured sample and on new samples from the same source
    expect(allValid(schema, samples)).toEqual([]);
    expect(allValid(schema, headerSamples(99, 300))).toEqual([]);
    const fields = describeFields(stats);
    expect(fields.find((f) => f.path === "/headers")?.map).toMatchObject({ reason: "map" });
    const values = fields.find((f) => f.path === "/headers/" + OTHER)!;
    expect(values).toMatchObject({ presence: 1, required: false });
    expect(values.perObject).toBeGreaterThan(2);
  });

  it("a 10,000-key map keyed by uuids, from one sample: additionalProperties with propertyNames", () => {
    const r = rng(5);
    const hex = (n: number) => Array.from({ length: n }, () => "0123456789abcdef"[Math.floor(r() * 16)]).join("");
    const byId = () =>
      Object.fromEntries(Array.from({ length: 10_000 }, (_, i) => [`${hex(8)}-${hex(4)}-${hex(4)}-${hex(4)}-${hex(12)}`, { n: i, name: `item ${i}` }]));
    const sample = { total: 10_000, byId: byId() };
    const stats = statsOf([sample]);
    expect(Object.keys(stats.paths).length).toBeLessThan(10);
    const s = props(deriveSchema(stats)).byId;
    expect(s.properties).toEqual({});
    expect(s.propertyNames).toEqual({ pattern: "^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$" });
    expect(s.additionalProperties).toMatchObject({ type: "object", properties: { n: { type: "integer" }, name: { type: "string" } }, required: ["n", "name"] });
    const schema = deriveSchema(stats);
    expect(validate(schema, sample).valid).toBe(true);
    expect(validate(schema, { total: 1, byId: byId() }).valid).toBe(true);
    expect(validate(schema, { total: 1, byId: { "not-a-uuid": { n: 1, name: "x" } } }).valid).toBe(false);
    expect(describeFields(stats).find((f) => f.path === "/byId")?.map).toEqual({ reason: "map", keys: 10_000, keyPattern: "uuid" });
  });

  it("keys that look like identifiers decide; field names and sparse records do not", () => {
    expect(["req_8f3a2c", "42", "user123", "2026-01-02", "a1"].every(idLike)).toBe(true);
    expect(["name", "content-type", "x-cache", "a b 1", ""].some(idLike)).toBe(false);
    // a record with 40 always-present fields is not a map
    const wide = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`field${"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMN"[i]}`, i]));
    const stats = statsOf([wide, wide, wide, wide, wide]);
    expect(mapLike(stats, "")).toBe(false);
    expect(stats.paths[""].other).toBeUndefined();
    expect(Object.keys(props(deriveSchema(stats)))).toHaveLength(40);
    expect(mapLike(stats, "/nowhere")).toBe(false);
    // keys with digits: a map, numbered ids give a digits pattern
    const ids = statsOf([{ m: Object.fromEntries(Array.from({ length: 40 }, (_, i) => [String(1000 + i), i % 3 === 0 ? null : "v"])) }]);
    expect(props(deriveSchema(ids)).m).toMatchObject({ propertyNames: { pattern: "^[0-9]+$" }, additionalProperties: { type: ["string", "null"] } });
  });

  it("merged batches stay sound, and merging a map into a record folds it (either way round)", () => {
    const samples = headerSamples(3, 300);
    const r = rng(3);
    let merged = emptyStats();
    for (let i = 0; i < samples.length;) {
      const n = 1 + Math.floor(r() * 40);
      merged = mergeStats(roundTrip(merged), roundTrip(statsOf(samples.slice(i, i + n))));
      i += n;
    }
    const schema = deriveSchema(merged);
    expect(props(schema).headers.additionalProperties).toMatchObject({ type: "string" });
    expect(allValid(schema, samples)).toEqual([]);
    expect(allValid(schema, headerSamples(77, 200))).toEqual([]);

    // a few samples (no map yet) merged with statistics where the path is a map, both orders
    const few = statsOf(samples.slice(0, 3));
    const many = statsOf(samples.slice(3));
    expect(few.paths["/headers"].other).toBeUndefined();
    for (const m of [mergeStats(few, many), mergeStats(many, few)]) {
      expect(m.paths["/headers"].other?.reason).toBe("map");
      expect(Object.keys(m.paths).filter((p) => p.startsWith("/headers/")).length).toBeLessThan(5);
      expect(allValid(deriveSchema(m), samples)).toEqual([]);
      expect(m.samples).toBe(300);
    }
    // adding after an in-place merge keeps folding new keys
    const inPlace = mergeInto(statsOf(samples.slice(0, 3)), statsOf(samples.slice(3, 100)));
    for (const v of samples.slice(100)) addSample(inPlace, v);
    expect(allValid(deriveSchema(inPlace), samples)).toEqual([]);
  });

  it("property: maps nested in generated data validate, one by one and merged in random batches", () => {
    for (const seed of [1, 2, 3]) {
      const samples = genMapSamples(seed, 200);
      const one = statsOf(samples);
      expect(allValid(deriveSchema(one), samples).slice(0, 2)).toEqual([]);
      const r = rng(seed);
      let merged = emptyStats();
      for (let i = 0; i < samples.length;) {
        const n = 1 + Math.floor(r() * 60);
        merged = mergeStats(merged, roundTrip(statsOf(samples.slice(i, i + n))));
        i += n;
      }
      expect(merged.samples).toBe(samples.length);
      expect(allValid(deriveSchema(merged), samples).slice(0, 2)).toEqual([]);
      // the maps were recognised: far fewer paths than distinct keys
      expect(Object.values(one.paths).some((p) => p.other?.reason === "map")).toBe(true);
    }
  }, 120_000);
});

/** A distinct name of letters only (no digit: not an identifier). */
const letters = (i: number): string => (i < 26 ? "" : letters(Math.floor(i / 26) - 1)) + "abcdefghijklmnopqrstuvwxyz"[i % 26];

describe("limits are per subtree and said", () => {
  it("an object with more than MAX_KEYS field names folds the rest and says where", () => {
    const name = (i: number) => "f" + letters(i);
    const wide = Object.fromEntries(Array.from({ length: MAX_KEYS + 100 }, (_, i) => [name(i), i]));
    const samples = [0, 1, 2].map(() => ({ wide, id: "x" }));
    const stats = statsOf(samples);
    expect(stats.truncated).toEqual([{ path: "/wide", reason: "keys" }]);
    const s = props(deriveSchema(stats)).wide;
    expect(Object.keys(s.properties as object)).toHaveLength(MAX_KEYS);
    expect(s.additionalProperties).toMatchObject({ type: "integer" });
    expect(allValid(deriveSchema(stats), samples)).toEqual([]);
    expect(describeTruncations(stats)[0].message).toMatch(/more than 500 distinct keys/);
    // found to be a map later: the truncation goes, the keys fold
    const mapped = statsOf([{ wide }, { wide: {} }, { wide: {} }, { wide: {} }, { wide: { [name(1)]: 1 } }, { wide: {} }, { wide: {} }, { wide: { a: 1 } }]);
    expect(mapped.paths["/wide"].other?.reason).toBe("map");
    expect(mapped.truncated).toBeUndefined();
  });

  it("MAX_PATHS stops deep paths, never top-level keys, and says where", () => {
    const name = (i: number) => "k" + letters(i);
    const inner = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [name(i), 1]));
    const big = { a: Object.fromEntries(Array.from({ length: 400 }, (_, i) => [name(i), inner])) };
    const samples: unknown[] = [big, big, { ...big, late: true, later: { x: 1 } }];
    const stats = statsOf(samples);
    // the limit, plus the two top-level keys that came after it
    expect(Object.keys(stats.paths).length).toBe(MAX_PATHS + 2);
    expect(stats.truncated?.some((t) => t.reason === "paths" && t.path.startsWith("/a/"))).toBe(true);
    expect(stats.truncated?.some((t) => t.path === "/later")).toBe(true);
    expect(props(deriveSchema(stats)).late).toEqual({ type: "boolean" });
    expect(allValid(deriveSchema(stats), samples)).toEqual([]);
    // merged the same way
    const merged = mergeStats(statsOf(samples.slice(0, 2)), statsOf(samples.slice(2)));
    expect(props(deriveSchema(merged)).late).toEqual({ type: "boolean" });
    expect(allValid(deriveSchema(merged), samples)).toEqual([]);
  }, 120_000);

  it("too deep: counted, left open, said", () => {
    let v: unknown = { leaf: 1 };
    for (let i = 0; i < MAX_DEPTH + 5; i++) v = i % 2 ? { d: v } : [v];
    const stats = statsOf([v]);
    expect(stats.truncated?.[0].reason).toBe("depth");
    expect(validate(deriveSchema(stats), v).valid).toBe(true);
    expect(describeTruncations(stats)[0].message).toMatch(/deeper than 64/);
  });

  it("old statistics with truncated: true read back as a truncation at the root", () => {
    const old = { version: 1, samples: 1, paths: {}, truncated: true };
    expect(parseStats(old).truncated).toEqual([{ path: "", reason: "paths" }]);
    expect(parseStats({ version: 1, samples: 1, paths: {}, truncated: "?" }).truncated).toBeUndefined();
  });
});

describe("numbers and booleans", () => {
  const rep = (vals: unknown[], n: number) => Array.from({ length: n }, (_, i) => vals[i % vals.length]);
  it("a dense integer range gets an observed-range hint, not an enum", () => {
    const qty = deriveSchema(statsOf(rep([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 200)));
    expect(qty.enum).toBeUndefined();
    expect(qty.description).toBe("observed from 1 to 10");
    expect(validate(qty, 11).valid).toBe(true);
    expect(deriveSchema(statsOf(rep([1, 2, 4, null], 100)))).toMatchObject({ type: ["integer", "null"], description: "observed from 1 to 4" });
    expect(deriveSchema(statsOf(rep([1, 8, 3, null], 100))).enum).toEqual([null, 1, 3, 8]); // 3 of 8: sparse
  });

  it("sparse integers keep an enum, sorted numerically", () => {
    expect(deriveSchema(statsOf(rep([10, 2, 1, 200], 100))).enum).toEqual([1, 2, 10, 200]);
    expect(deriveSchema(statsOf(rep([404, 200, 500], 100))).enum).toEqual([200, 404, 500]);
    expect(deriveSchema(statsOf(rep([-5, 1.5, 30], 100))).enum).toEqual([-5, 1.5, 30]);
  });

  it("booleans never get an enum", () => {
    const s = deriveSchema(statsOf(rep([{ ok: true }, { ok: false }], 100)));
    expect(props(s).ok).toEqual({ type: "boolean" });
  });
});

describe("maps against a declared schema", () => {
  const stats: ShapeStatsData = statsOf(headerSamples(4, 60));
  it("additionalProperties declared: the values are compared", () => {
    const declared = {
      type: "object",
      properties: {
        status: { type: "integer" },
        ms: { type: "integer" },
        late: { type: "string" },
        headers: { type: "object", additionalProperties: { type: "integer" } },
      },
    };
    const d = compareWithDeclared(declared, stats);
    expect(d.find((x) => x.path === "/headers/" + OTHER)).toMatchObject({ kind: "type_mismatch" });
    const pattern = { type: "object", properties: { headers: { type: "object", patternProperties: { "^x-": { type: "string" } } } } };
    expect(compareWithDeclared(pattern, stats).filter((x) => x.path.startsWith("/headers/"))).toEqual([
      { path: "/headers/content-type", kind: "undeclared", message: "observed but not declared", observed: { present: 60, of: 60 } },
      { path: "/headers/date", kind: "undeclared", message: "observed but not declared", observed: { present: 60, of: 60 } },
    ]);
  });
  it("named keys declared: the map is undeclared", () => {
    const declared = { type: "object", properties: { headers: { type: "object", properties: { "content-type": { type: "string" } } } } };
    const d = compareWithDeclared(declared, stats);
    expect(d.find((x) => x.path === "/headers/" + OTHER)).toMatchObject({ kind: "undeclared", message: expect.stringMatching(/map/) });
  });
});
