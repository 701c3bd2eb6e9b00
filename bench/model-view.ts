// The model view's cost for a big registry (issue 31): every definition and every token count of
// 5,000 tools of realistic size (bench/fixtures/generated-tools.mjs, what the MCP bench server
// offers), per target, plain and strict, in this process (lib/model-view is pure: no studio or
// database is needed to measure it). Cold: the first build (spec hashes, conversion, o200k_base
// counts); warm: the same registry asked again, as GET /api/tools/definitions is, cached per spec
// hash. Target: warm ≤ 200 ms for the whole registry per target. A second registry of new specs
// objects with the same content checks that the cache is per content, not per object.
// Knobs (env): MODEL_VIEW_TOOLS (5000). Results: printed table + bench/results/model-view.json;
// a missed target exits non-zero.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { buildDefinitions, TARGETS, type Target } from "../lib/model-view";
import type { ToolSpec } from "../lib/tools/spec";
import { intEnv } from "./env";
import { generatedTool } from "./fixtures/generated-tools.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const N = intEnv("MODEL_VIEW_TOOLS", 5000, 1, 100_000);
const TARGET_WARM_MS = 200;

const registry = (): ToolSpec[] =>
  Array.from(
    { length: N },
    (_, i) =>
      ({
        ...generatedTool(i),
        name: i % 10 === 0 ? `crm.${generatedTool(i).name}` : generatedTool(i).name,
        source: { kind: "mcp", id: "mcp:bench", server: "bench" },
      }) as ToolSpec,
  );

function timed<T>(fn: () => T): { ms: number; value: T } {
  const t = performance.now();
  const value = fn();
  return { ms: performance.now() - t, value };
}

interface Row {
  target: Target;
  strict: boolean;
  coldMs: number;
  warmMs: number;
  sameContentMs: number;
  tokens: number;
  strictTools: number;
}

const specs = registry();
const copy = registry();
const rows: Row[] = [];
for (const target of TARGETS) {
  for (const strict of [false, true]) {
    const cold = timed(() => buildDefinitions(specs, target, { strict }));
    let warm = Infinity;
    for (let i = 0; i < 5; i++) warm = Math.min(warm, timed(() => buildDefinitions(specs, target, { strict })).ms);
    const same = timed(() => buildDefinitions(copy, target, { strict }));
    rows.push({
      target,
      strict,
      coldMs: cold.ms,
      warmMs: warm,
      sameContentMs: same.ms,
      tokens: cold.value.reduce((n, d) => n + d.tokens.count, 0),
      strictTools: cold.value.filter((d) => d.strict).length,
    });
  }
}

const f = (ms: number) => ms.toFixed(1).padStart(8);
console.log(`model view: ${N} tools, every definition and token count per target`);
console.log(`${"target".padEnd(18)} strict   cold ms   warm ms  same-content ms    tokens  strict tools`);
for (const r of rows)
  console.log(
    `${r.target.padEnd(18)} ${String(r.strict).padEnd(6)} ${f(r.coldMs)}  ${f(r.warmMs)}  ${f(r.sameContentMs).padStart(15)}  ${String(r.tokens).padStart(8)}  ${String(r.strictTools).padStart(12)}`,
  );
const missed = rows.filter((r) => r.warmMs > TARGET_WARM_MS);
console.log(
  missed.length
    ? `MISSED: warm > ${TARGET_WARM_MS} ms for ${missed.map((r) => `${r.target}${r.strict ? " strict" : ""}`).join(", ")}`
    : `target met: warm ≤ ${TARGET_WARM_MS} ms for every target`,
);
mkdirSync(path.join(root, "bench/results"), { recursive: true });
writeFileSync(path.join(root, "bench/results/model-view.json"), JSON.stringify({ tools: N, targetWarmMs: TARGET_WARM_MS, rows }, null, 2));
process.exit(missed.length ? 1 : 0);
