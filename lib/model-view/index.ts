/**
 * What the model sees (issue 31): every tool as each target's definition, with its lint and
 * token count. One converter per target (mcp.ts, openai-chat.ts, openai-responses.ts,
 * anthropic.ts, gemini.ts, rig.ts), the strict-mode rewrite (strict.ts), name mapping (names.ts)
 * and token counting (tokens.ts). Results are cached per spec hash, target, strict flag and sent
 * name, so building a 5,000-tool registry again costs lookups. Pure apart from the cache.
 */
import { canonicalJson, sha256Hex } from "../tools/hash";
import { toolFilter } from "../tools/list-query";
import type { ToolSpec } from "../tools/spec";
import { toAnthropic } from "./anthropic";
import { toGemini } from "./gemini";
import { toMcp } from "./mcp";
import { mapNames, NAME_RULES } from "./names";
import { toOpenAiChat } from "./openai-chat";
import { toOpenAiResponses } from "./openai-responses";
import { toRig } from "./rig";
import { budgetOf, type Budget } from "./budget";
import { countTokens, o200kCount } from "./tokens";
import type { BuiltDefinition, Converted, ConvertOptions, LintItem, Target } from "./types";

export * from "./types";
export { mapNames, mappingList, NAME_RULES } from "./names";
export { TOOL_LIMITS, type Budget, type ToolLimit } from "./budget";
export { runModelView, type RunModelView } from "./result";

const CONVERTERS: Record<Target, (spec: ToolSpec, opts: ConvertOptions) => Converted> = {
  mcp: toMcp,
  "openai-chat": toOpenAiChat,
  "openai-responses": toOpenAiResponses,
  anthropic: toAnthropic,
  gemini: toGemini,
  rig: toRig,
};

/** What of a spec a definition is made from (not its source, triggers or raw form). */
const defined = (s: ToolSpec) => ({
  n: s.name,
  t: s.title,
  d: s.description,
  i: s.inputSchema,
  o: s.outputSchema,
  a: s.annotations,
  ic: s.icons,
  e: s.execution,
  m: s._meta,
});

const hashes = new WeakMap<ToolSpec, string>();
function hashOf(spec: ToolSpec): string {
  let h = hashes.get(spec);
  if (!h) hashes.set(spec, (h = sha256Hex(canonicalJson(defined(spec)))));
  return h;
}

const MAX_CACHED = 50_000;
const cache = new Map<string, BuiltDefinition>();

/** The names a target refuses among `specs`, mapped (cached per array: the registry's is frozen until it changes). */
const nameMaps = new WeakMap<readonly ToolSpec[], Map<Target, Map<string, string>>>();
export function registryNames(specs: readonly ToolSpec[], target: Target): Map<string, string> {
  const rule = NAME_RULES[target];
  if (!rule) return new Map();
  let per = nameMaps.get(specs);
  if (!per) nameMaps.set(specs, (per = new Map()));
  let m = per.get(target);
  if (!m)
    per.set(
      target,
      (m = mapNames(
        specs.map((s) => s.name),
        rule,
      )),
    );
  return m;
}

/**
 * One tool's definition for `target`. `names` is the registry's mapping for the target
 * (registryNames): a refused name is sent as its mapped one, and the lint says so.
 */
export function buildDefinition(spec: ToolSpec, target: Target, opts: { strict?: boolean; names?: Map<string, string> } = {}): BuiltDefinition {
  const strict = opts.strict === true;
  const rule = NAME_RULES[target];
  const sent = opts.names?.get(spec.name) ?? (rule && !rule.pattern.test(spec.name) ? mapNames([spec.name], rule).get(spec.name)! : spec.name);
  const key = `${hashOf(spec)}\u0000${target}\u0000${strict ? 1 : 0}\u0000${sent}`;
  const hit = cache.get(key);
  if (hit) return hit;
  const c = CONVERTERS[target](spec, { strict, name: sent });
  const lint: LintItem[] = [];
  if (rule && sent !== spec.name) {
    lint.push({
      severity: "rejected",
      pointer: "#name",
      keyword: "name",
      message: `The name "${spec.name}" is refused (names: ${rule.says}).`,
      doc: rule.doc,
      fix: `sent as "${sent}"`,
    });
  }
  lint.push(...c.lint);
  const built: BuiltDefinition = {
    for: target,
    name: spec.name,
    definition: c.definition,
    strict: c.strict,
    ...(c.strictReason ? { strictReason: c.strictReason } : {}),
    lint,
    tokens: countTokens(target, JSON.stringify(c.definition)),
    ...(sent !== spec.name ? { nameMapping: { name: spec.name, providerName: sent } } : {}),
  };
  if (cache.size >= MAX_CACHED) cache.delete(cache.keys().next().value!);
  cache.set(key, built);
  return built;
}

/** Every tool of `specs` for `target`, names mapped across all of `registry` (the whole registry, also when `specs` is a subset). */
export function buildDefinitions(
  specs: readonly ToolSpec[],
  target: Target,
  opts: { strict?: boolean; registry?: readonly ToolSpec[] } = {},
): BuiltDefinition[] {
  const names = registryNames(opts.registry ?? specs, target);
  return specs.map((s) => buildDefinition(s, target, { strict: opts.strict, names }));
}

/** The tools the tool list shows under the same filters (lib/tools/list-query.ts): source, search text, annotation hints. */
export function selectTools(specs: readonly ToolSpec[], filter: { source?: string; q?: string; hints?: string[] }): ToolSpec[] {
  const matches = toolFilter({ q: filter.q ?? "", source: filter.source || "all", hints: filter.hints ?? [] });
  return specs.filter((s) => matches(s));
}

/**
 * The context budget of `specs` for `target` (budget.ts): definition tokens per tool and per
 * source, the whole `tools` array's count, and the provider's limits as warnings.
 */
const budgets = new WeakMap<readonly ToolSpec[], Map<string, Budget>>();
export function registryBudget(specs: readonly ToolSpec[], target: Target, opts: { strict?: boolean; registry?: readonly ToolSpec[] } = {}): Budget {
  // The registry's array is replaced on every change, so a budget of it is kept until then.
  const key = `${target}\u0000${opts.strict ? 1 : 0}`;
  const whole = !opts.registry || opts.registry === specs;
  const hit = whole ? budgets.get(specs)?.get(key) : undefined;
  if (hit) return hit;
  const b = computeBudget(specs, target, opts);
  if (whole) {
    let per = budgets.get(specs);
    if (!per) budgets.set(specs, (per = new Map()));
    per.set(key, b);
  }
  return b;
}

function computeBudget(specs: readonly ToolSpec[], target: Target, opts: { strict?: boolean; registry?: readonly ToolSpec[] }): Budget {
  const built = buildDefinitions(specs, target, opts);
  const sources = new Map(specs.map((s) => [s.name, s.source.id]));
  return budgetOf(target, built, sources, o200kCount(JSON.stringify(built.map((b) => b.definition))));
}
