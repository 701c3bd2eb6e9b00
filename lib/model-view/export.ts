/**
 * Specs out of the studio (issue 31 item 5): a set of tools as one file per target, for a team to
 * check into its own repository and diff. The file holds the definitions exactly as the target is
 * sent them, sorted by name, with no time stamp, so an unchanged tool set writes the same bytes.
 * Pure: the route and the CLI (scripts/export-definitions.ts) both write what this makes.
 */
import type { ToolSpec } from "../tools/spec";
import { buildDefinitions, registryBudget, registryNames, selectTools } from "./index";
import { mappingList } from "./names";
import { STRICT_TARGETS, TARGET_LABELS, type LintItem, type NameMapping, type Target, type TokenCount } from "./types";

export interface DefinitionsFilter {
  source?: string;
  q?: string;
  hints?: string[];
}

export interface DefinitionsFile {
  $comment: string;
  for: Target;
  strict: boolean;
  /** The tool list's filters the set was chosen with (empty: the whole registry). */
  filter: DefinitionsFilter;
  total: number;
  /** The definitions as one JSON array, as the provider's `tools` parameter carries them. */
  tokens: TokenCount;
  definitions: Record<string, unknown>[];
  /** Tools of the set whose name the target refuses, and the name each is sent as. */
  nameMappings: NameMapping[];
  /** Strict mode asked for but not possible for these tools (they are sent without it). */
  notStrict: { name: string; reason: string }[];
  lint: ({ tool: string } & LintItem)[];
}

export function definitionsFile(registry: readonly ToolSpec[], target: Target, opts: { strict?: boolean; filter?: DefinitionsFilter } = {}): DefinitionsFile {
  const filter = opts.filter ?? {};
  const strict = opts.strict === true && STRICT_TARGETS.includes(target);
  const chosen = filter.source || filter.q || filter.hints?.length ? selectTools(registry, filter) : [...registry];
  chosen.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const built = buildDefinitions(chosen, target, { strict, registry });
  const budget = registryBudget(chosen, target, { strict, registry });
  const names = new Set(chosen.map((s) => s.name));
  const label = TARGET_LABELS[target];
  return {
    $comment: `Made by Tool Studio: ${chosen.length} tool definition${chosen.length === 1 ? "" : "s"} as ${label} is sent them${strict ? " in strict mode" : ""}. Regenerate rather than edit.`,
    for: target,
    strict,
    filter: {
      ...(filter.source ? { source: filter.source } : {}),
      ...(filter.q ? { q: filter.q } : {}),
      ...(filter.hints?.length ? { hints: filter.hints } : {}),
    },
    total: built.length,
    tokens: { count: budget.arrayTokens, tokenizer: budget.tokenizer, approximate: budget.approximate, ...(budget.method ? { method: budget.method } : {}) },
    definitions: built.map((b) => b.definition),
    nameMappings: mappingList(registryNames(registry, target)).filter((m) => names.has(m.name)),
    notStrict: built.flatMap((b) => (strict && !b.strict ? [{ name: b.name, reason: b.strictReason ?? "not possible" }] : [])),
    lint: built.flatMap((b) => b.lint.map((l) => ({ tool: b.name, ...l }))),
  };
}

/** The file's bytes: two-space JSON and a final newline, as a repository keeps it. */
export const serializeDefinitionsFile = (f: DefinitionsFile) => `${JSON.stringify(f, null, 2)}\n`;
