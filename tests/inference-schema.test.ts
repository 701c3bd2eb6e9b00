import { describe, expect, it } from "vitest";
import { genSamples, rng } from "@/tests/helpers/inference-generate";
import { deriveSchema, describeFields } from "@/lib/inference/schema";
import { addSample, emptyStats, mergeInto, mergeStats, statsOf, VALUE_CAP, type ShapeStatsData } from "@/lib/inference/stats";
import { validate } from "@/lib/schema/validate";

// Pure: no database. The property tests run the derived schema through the studio's own validator.

const schemaOf = (values: unknown[]) => deriveSchema(statsOf(values));
const roundTrip = <T>(v: T): T => JSON.parse(JSON.stringify(v));

function splitRandomly<T>(xs: T[], seed: number): T[][] {
  const r = rng(seed);
  const out: T[][] = [];
  let i = 0;
  while (i < xs.length) {
    const n = 1 + Math.floor(r() * 60);
    out.push(xs.slice(i, i + n));
    i += n;
  }
  return out;
}

describe("inferred schema: properties over generated data", () => {
  for (const seed of [1, 7, 42, 2026, 31337]) {
    it(`every sample validates, and batches merge to the same stats (seed ${seed})`, () => {
      const samples = genSamples(seed, 1200, 1 + (seed % 5));
      const one = emptyStats();
      for (const s of samples) addSample(one, s);
      const schema = deriveSchema(one);

      const failures: { sample: unknown; errors: unknown }[] = [];
      for (const s of samples) {
        const r = validate(schema, s);
        if (!r.valid) failures.push({ sample: s, errors: r.errors });
      }
      expect(failures.slice(0, 3)).toEqual([]);

      // Batches reduced independently, merged in order: the same statistics and schema.
      const batches = splitRandomly(samples, seed).map((b) => statsOf(b));
      const merged = batches.reduce((acc, b) => mergeStats(acc, b), emptyStats());
      expect(merged).toEqual(one);
      expect(deriveSchema(merged)).toEqual(schema);

      // Associativity, through the JSON round trip the database does.
      const [a, b, c] = [batches.slice(0, 3), batches.slice(3, 7), batches.slice(7)].map((g) => roundTrip(g.reduce(mergeStats, emptyStats())));
      expect(mergeStats(mergeStats(a, b), c)).toEqual(mergeStats(a, mergeStats(b, c)));
      expect(roundTrip(one)).toEqual(one);
    });
  }

  it("gives a schema that still rejects values of a different shape", () => {
    const schema = schemaOf(Array.from({ length: 20 }, (_, i) => ({ id: i, name: `n${i}`, tags: ["a"] })));
    expect(validate(schema, { id: 1, name: "x", tags: [] }).valid).toBe(true);
    expect(validate(schema, { id: "1", name: "x", tags: [] }).valid).toBe(false);
    expect(validate(schema, { name: "x", tags: [] }).valid).toBe(false);
    expect(validate(schema, { id: 1, name: "x", tags: [1] }).valid).toBe(false);
    expect(validate(schema, [1]).valid).toBe(false);
  });

  it("mergeInto (in place) agrees with mergeStats, and adding after it still counts right", () => {
    const [a, b, c] = [genSamples(11, 300), genSamples(12, 300), genSamples(13, 300)];
    const inPlace = statsOf(a);
    for (const v of b.slice(0, 10)) addSample(inPlace, v); // warm the child cache of this object
    mergeInto(inPlace, statsOf(b.slice(10)));
    for (const v of c) addSample(inPlace, v);
    expect(inPlace).toEqual(statsOf([...a, ...b, ...c]));
  });

  it("does not change the inputs of mergeStats", () => {
    const a = statsOf(genSamples(3, 50));
    const b = statsOf(genSamples(4, 50));
    const [a0, b0] = [roundTrip(a), roundTrip(b)];
    mergeStats(a, b);
    expect(a).toEqual(a0);
    expect(b).toEqual(b0);
  });
});

describe("inferred schema: rules", () => {
  it("required = present in every object seen at the parent", () => {
    const s = schemaOf([{ a: 1, b: 2, x: { y: 1 } }, { a: 1 }, { a: 3, x: { y: 2, z: 1 } }]);
    expect(s.required).toEqual(["a"]);
    const x = (s.properties as Record<string, Record<string, unknown>>).x;
    // y is in every x that existed, though x itself is optional
    expect(x.required).toEqual(["y"]);
    const fields = describeFields(statsOf([{ a: 1, b: 2 }, { a: 1 }]));
    expect(fields.find((f) => f.path === "/b")).toMatchObject({ presence: 0.5, required: false });
    expect(fields.find((f) => f.path === "/a")).toMatchObject({ presence: 1, required: true });
  });

  it("required counts the objects only, when a path is sometimes not an object", () => {
    const s = schemaOf([{ v: { k: 1 } }, { v: "text" }, { v: null }, { v: { k: 2 } }]);
    const v = (s.properties as Record<string, Record<string, unknown>>).v;
    expect(v.type).toEqual(["object", "string", "null"]);
    expect(v.required).toEqual(["k"]);
  });

  it("array items are merged into one schema", () => {
    const s = schemaOf([{ items: [{ id: 1 }, { id: 2, name: "a" }] }, { items: [] }, { items: [{ id: 3, name: null }] }]);
    expect(s.properties).toEqual({
      items: {
        type: "array",
        items: { type: "object", properties: { id: { type: "integer" }, name: { type: ["string", "null"] } }, required: ["id"] },
      },
    });
    // only empty arrays: no items constraint
    expect(schemaOf([[], []])).toEqual({ $schema: "https://json-schema.org/draft/2020-12/schema", type: "array" });
  });

  it("nullability is a type union", () => {
    const s = schemaOf([{ a: "x" }, { a: null }]);
    expect(s.properties).toEqual({ a: { type: ["string", "null"] } });
    expect(validate(s, { a: null }).valid).toBe(true);
  });

  it("integer when every number is integral, number when any is not", () => {
    expect(schemaOf([1, 2, -3]).type).toBe("integer");
    expect(schemaOf([1, 2.5]).type).toBe("number");
    expect(schemaOf([1.5, null]).type).toEqual(["number", "null"]);
    expect(schemaOf([1, "1"]).type).toEqual(["string", "integer"]);
  });

  it("enum only with at least 10 values, fewer than √n distinct, and no overflow", () => {
    const rep = (vals: unknown[], n: number) => Array.from({ length: n }, (_, i) => vals[i % vals.length]);
    expect(schemaOf(rep(["a", "b"], 9)).enum).toBeUndefined(); // n < 10
    expect(schemaOf(rep(["b", "a"], 10)).enum).toEqual(["a", "b"]); // 2 < √10
    expect(schemaOf(rep(["a", "b", "c", "d"], 16)).enum).toBeUndefined(); // 4 = √16
    expect(schemaOf(rep(["a", "b", "c", "d"], 17)).enum).toEqual(["a", "b", "c", "d"]); // 4 < √17
    expect(schemaOf(rep(["x", 1, null], 20)).enum).toEqual([null, 1, "x"]);
    // booleans: never an enum (the type says it), nor with other values
    expect(schemaOf(rep([true, false], 40)).enum).toBeUndefined();
    expect(schemaOf(rep([1, null, true], 20)).enum).toBeUndefined();
    // more than VALUE_CAP distinct values ever: overflowed, never an enum again
    const many = Array.from({ length: VALUE_CAP + 1 }, (_, i) => `v${i}`);
    expect(schemaOf([...many, ...rep(["a"], 100_000)]).enum).toBeUndefined();
    // objects and arrays at the path: no enum
    expect(schemaOf(rep(["a", {}], 40)).enum).toBeUndefined();
    // a long string is not tracked as a value
    expect(schemaOf(rep(["a", "x".repeat(300)], 40)).enum).toBeUndefined();
  });

  it("format only when every string value matched it", () => {
    const emails = ["a@example.com", "b.c@mail.test", "d+e@x.io"];
    expect(schemaOf(emails).format).toBe("email");
    expect(schemaOf([...emails, "not-an-email"]).format).toBeUndefined();
    // nulls and numbers do not count against a format of the strings
    const s = schemaOf(["2026-01-02T03:04:05Z", null, "2026-12-31T23:59:59.5+02:00", 4]);
    expect(s).toMatchObject({ type: ["string", "integer", "null"], format: "date-time" });
    expect(schemaOf(["2026-01-02", "2026-02-28"]).format).toBe("date");
    expect(schemaOf(["2026-02-30"]).format).toBeUndefined(); // ajv-formats checks the calendar
    expect(schemaOf(["2026-01-02T03:04:05"]).format).toBeUndefined(); // date-time needs a time zone
    expect(schemaOf(["0b7e3f4c-1d2a-4b5c-8d9e-0f1a2b3c4d5e"]).format).toBe("uuid");
    expect(schemaOf(["https://example.com/x", "urn:isbn:1"]).format).toBe("uri");
    expect(schemaOf(["https://example.com/x", "/relative"]).format).toBeUndefined();
  });

  it("keeps awkward keys apart from array items", () => {
    const samples = [{ "*": 1, "a/b": { "~": true }, "": "empty", __proto__x: 1 }, [1, 2]];
    const s = schemaOf(samples);
    for (const v of samples) expect(validate(s, v).valid).toBe(true);
    expect(Object.keys(s.properties as object)).toEqual(["", "*", "__proto__x", "a/b"]);
    expect(s.items).toEqual({ type: "integer" });
    const proto = JSON.parse('{"__proto__": {"polluted": 1}}');
    const ps = schemaOf([proto]);
    expect(Object.keys(ps.properties as object)).toEqual(["__proto__"]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("describes fields: presence, types, examples, format, ranges", () => {
    const stats: ShapeStatsData = statsOf([
      { id: 1, when: "2026-01-01", tags: ["x"] },
      { id: 2.5, when: "2026-01-02", tags: [] },
      { id: 3, tags: ["y", "z"] },
      { id: null, tags: ["x"] },
    ]);
    const byPath = Object.fromEntries(describeFields(stats).map((f) => [f.path, f]));
    expect(Object.keys(byPath)).toEqual(["", "/id", "/tags", "/tags/*", "/when"]);
    expect(byPath["/id"]).toMatchObject({
      presence: 1,
      types: [
        { type: "integer", count: 2 },
        { type: "number", count: 1 },
        { type: "null", count: 1 },
      ],
      examples: [1, 2.5, 3],
      number: { min: 1, max: 3 },
      distinct: 4,
      overflow: false,
    });
    expect(byPath["/when"]).toMatchObject({ presence: 0.5, format: "date", stringLength: { min: 10, max: 10 } });
    expect(byPath["/tags"]).toMatchObject({ arrayLength: { min: 0, max: 2 }, distinct: null });
    expect(byPath["/tags/*"]).toMatchObject({ count: 4, examples: ["x", "y", "z"] });
  });

  it("no samples: a schema that accepts anything, and no fields", () => {
    expect(deriveSchema(emptyStats())).toEqual({ $schema: "https://json-schema.org/draft/2020-12/schema" });
    expect(describeFields(emptyStats())).toEqual([]);
  });
});
