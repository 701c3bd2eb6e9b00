// npx tsx bench/inference.ts: what does shape inference cost per sample?
//
// Over N generated samples (tests/helpers/inference-generate.ts: a few random shapes with optional
// keys, nulls, mixed types, nested arrays of objects, formats; 5% shapeless), measured in one process:
//   walk     — a plain recursive JSON walk over the same samples (visits every value and key): the baseline
//   add      — addSample() of every sample into one ShapeStats
//   batches  — statsOf() per batch of 1,000 samples, merged in order with mergeInto() (what a flush does)
//   derive   — deriveSchema() of the final stats; fields — describeFields()
// Each is repeated BENCH_INF_REPEAT times (default 3) and the median is reported. The batch result
// is checked to equal the one-by-one result, and a sample of the inputs to validate against the
// derived schema; a mismatch exits non-zero.
//
// Knobs (env): BENCH_INF_N (100000), BENCH_INF_REPEAT (3), BENCH_INF_SEED (2026), BENCH_INF_SHAPES (5).
//
// A second case, `runMapBench()`: BENCH_INF_MAP_RUNS (50) outputs, each a 10,000-key map
// (BENCH_INF_MAP_KEYS) keyed by uuids with small object values next to a few fixed fields — what
// one run costs at capture: addSample into the stored statistics, and the flush of one run
// (statsOf, mergeInto the stored statistics, the drift signature before and after, the JSON the
// row is written with). It also reports how many paths and schema properties the map gives.
// `runInferenceBench()` is exported for bench/run.ts; run directly, it prints a table (and the
// result as JSON with --json).
import { performance } from "node:perf_hooks";
import { isDeepStrictEqual } from "node:util";
import { fileURLToPath } from "node:url";
import { genSamples } from "../tests/helpers/inference-generate";
import { deriveSchema, describeFields } from "../lib/inference/schema";
import { signatureOf } from "../lib/inference/revisions";
import { addSample, cloneStats, emptyStats, mergeInto, statsOf } from "../lib/inference/stats";
import { rng } from "../tests/helpers/inference-generate";
import { validate } from "../lib/schema/validate";
import { intEnv } from "./env";

export interface InferenceBenchResult {
  samples: number;
  values: number;
  paths: number;
  statsBytes: number;
  ms: { walk: number; add: number; batches: number; derive: number; fields: number };
  perSampleUs: { walk: number; add: number; batches: number };
  ratio: { add: number; batches: number };
}

/** Counts every value and key, the least any walk over the samples must do. */
function walk(v: unknown): number {
  if (v === null || typeof v !== "object") return 1;
  let n = 1;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) n += walk(v[i]);
    return n;
  }
  const o = v as Record<string, unknown>;
  for (const k in o) {
    if (!Object.prototype.hasOwnProperty.call(o, k)) continue;
    n += walk(o[k]);
  }
  return n;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

function time<T>(repeat: number, fn: () => T): { ms: number; result: T } {
  let result!: T;
  const runs: number[] = [];
  for (let i = 0; i < repeat; i++) {
    const t0 = performance.now();
    result = fn();
    runs.push(performance.now() - t0);
  }
  return { ms: median(runs), result };
}

export function runInferenceBench(opts: { n?: number; repeat?: number; seed?: number; shapes?: number } = {}): InferenceBenchResult {
  const n = opts.n ?? intEnv("BENCH_INF_N", 100_000, 1, 10_000_000);
  const repeat = opts.repeat ?? intEnv("BENCH_INF_REPEAT", 3, 1, 100);
  const seed = opts.seed ?? intEnv("BENCH_INF_SEED", 2026, 0, 2 ** 31);
  const shapes = opts.shapes ?? intEnv("BENCH_INF_SHAPES", 5, 1, 100);
  const samples = genSamples(seed, n, shapes);

  // warm-up, so the first measured pass is not the one the JIT learns on
  const warm = samples.slice(0, Math.min(n, 5_000));
  for (const s of warm) walk(s);
  statsOf(warm);

  const w = time(repeat, () => {
    let total = 0;
    for (const s of samples) total += walk(s);
    return total;
  });
  const a = time(repeat, () => {
    const st = emptyStats();
    for (const s of samples) addSample(st, s);
    return st;
  });
  const b = time(repeat, () => {
    const st = emptyStats();
    for (let i = 0; i < samples.length; i += 1000) mergeInto(st, statsOf(samples.slice(i, i + 1000)));
    return st;
  });
  if (!isDeepStrictEqual(JSON.parse(JSON.stringify(a.result)), JSON.parse(JSON.stringify(b.result)))) {
    throw new Error("merging batches did not give the statistics of adding one by one");
  }
  const d = time(repeat, () => deriveSchema(a.result));
  const f = time(repeat, () => describeFields(a.result));
  const step = Math.max(1, Math.floor(n / 2000));
  for (let i = 0; i < n; i += step) {
    const r = validate(d.result, samples[i]);
    if (!r.valid) throw new Error(`sample ${i} does not validate against the derived schema: ${JSON.stringify(r.errors)}`);
  }

  const us = (ms: number) => (ms * 1000) / n;
  return {
    samples: n,
    values: w.result,
    paths: Object.keys(a.result.paths).length,
    statsBytes: JSON.stringify(a.result).length,
    ms: { walk: w.ms, add: a.ms, batches: b.ms, derive: d.ms, fields: f.ms },
    perSampleUs: { walk: us(w.ms), add: us(a.ms), batches: us(b.ms) },
    ratio: { add: a.ms / w.ms, batches: b.ms / w.ms },
  };
}

export interface MapBenchResult {
  runs: number;
  keysPerRun: number;
  distinctKeys: number;
  paths: number;
  statsBytes: number;
  schemaBytes: number;
  mapProperties: number;
  perRunMs: { walk: number; add: number; flush: number };
  allValid: boolean;
}

/** Outputs holding a 10,000-key map: per-run cost at capture, and the size of what is kept. */
export function runMapBench(opts: { runs?: number; keys?: number } = {}): MapBenchResult {
  const runs = opts.runs ?? intEnv("BENCH_INF_MAP_RUNS", 50, 1, 10_000);
  const keys = opts.keys ?? intEnv("BENCH_INF_MAP_KEYS", 10_000, 1, 1_000_000);
  const r = rng(7);
  const hex = (n: number) => {
    let s = "";
    for (let i = 0; i < n; i++) s += "0123456789abcdef"[Math.floor(r() * 16)];
    return s;
  };
  const outputs = Array.from({ length: runs }, (_, run) => {
    const items: Record<string, unknown> = {};
    for (let i = 0; i < keys; i++) items[`${hex(8)}-${hex(4)}-4${hex(3)}-8${hex(3)}-${hex(12)}`] = { n: i, label: `item ${i}`, ok: i % 3 === 0 };
    return { run, generatedAt: "2026-11-30T10:00:00Z", count: keys, items };
  });
  const perRun = (fn: (o: unknown, i: number) => void) => {
    const t0 = performance.now();
    outputs.forEach(fn);
    return (performance.now() - t0) / runs;
  };
  const walkMs = perRun((o) => walk(o));
  const added = emptyStats();
  const addMs = perRun((o) => addSample(added, o));
  // the flush of one run into the stored row, as lib/inference/storage.ts does it
  let stored = emptyStats();
  const flushMs = perRun((o) => {
    // before merging, a flush of output samples keeps the signature and a copy (to find the run that changed it)
    signatureOf(stored);
    cloneStats(stored);
    stored = mergeInto(stored, statsOf([o]));
    signatureOf(stored);
    JSON.stringify(stored);
  });
  const schema = deriveSchema(stored);
  const items = (schema.properties as Record<string, { properties?: object }>).items;
  return {
    runs,
    keysPerRun: keys,
    distinctKeys: runs * keys,
    paths: Object.keys(stored.paths).length,
    statsBytes: JSON.stringify(stored).length,
    schemaBytes: JSON.stringify(schema).length,
    mapProperties: Object.keys(items.properties ?? {}).length,
    perRunMs: { walk: walkMs, add: addMs, flush: flushMs },
    allValid: outputs.every((o) => validate(schema, o).valid),
  };
}

export function formatMapBench(m: MapBenchResult): string {
  return [
    `${m.runs} outputs with a ${m.keysPerRun.toLocaleString("en")}-key map (${m.distinctKeys.toLocaleString("en")} distinct keys):`,
    `  per run: plain walk ${m.perRunMs.walk.toFixed(2)} ms, addSample ${m.perRunMs.add.toFixed(2)} ms, flush of one run (statsOf + mergeInto + drift check + JSON) ${m.perRunMs.flush.toFixed(2)} ms`,
    `  kept: ${m.paths} paths, stats ${(m.statsBytes / 1024).toFixed(1)} KiB, schema ${(m.schemaBytes / 1024).toFixed(1)} KiB, ${m.mapProperties} named properties in the map; every output validates: ${m.allValid}`,
  ].join("\n");
}

export function formatInferenceBench(r: InferenceBenchResult): string {
  const rows: [string, string, string, string][] = [
    ["plain JSON walk", r.ms.walk.toFixed(1), r.perSampleUs.walk.toFixed(2), "1.0x"],
    ["addSample, one by one", r.ms.add.toFixed(1), r.perSampleUs.add.toFixed(2), `${r.ratio.add.toFixed(1)}x`],
    ["statsOf per 1000 + mergeInto", r.ms.batches.toFixed(1), r.perSampleUs.batches.toFixed(2), `${r.ratio.batches.toFixed(1)}x`],
    ["deriveSchema (once)", r.ms.derive.toFixed(2), "", ""],
    ["describeFields (once)", r.ms.fields.toFixed(2), "", ""],
  ];
  const head: [string, string, string, string] = ["step", "total ms", "µs/sample", "vs walk"];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  const line = (c: string[]) => c.map((x, i) => (i === 0 ? x.padEnd(widths[i]) : x.padStart(widths[i]))).join("  ");
  return [
    `inference over ${r.samples.toLocaleString("en")} samples (${r.values.toLocaleString("en")} JSON values, ${r.paths} paths, stats ${(r.statsBytes / 1024).toFixed(1)} KiB)`,
    line(head),
    line(widths.map((w) => "-".repeat(w))),
    ...rows.map(line),
  ].join("\n");
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const r = runInferenceBench();
  console.log(formatInferenceBench(r));
  const m = runMapBench();
  console.log(formatMapBench(m));
  if (!m.allValid) process.exitCode = 1;
  if (process.argv.includes("--json")) console.log(JSON.stringify({ ...r, map: m }));
}
