/**
 * The context budget (issue 31 item 3): what giving an agent a set of tools costs, in definition
 * tokens, for one target: the total, per source and per tool (heaviest first), and the provider's
 * documented limits on tools per request, reported as warnings (nothing is ever cut). Pure.
 */
import type { BuiltDefinition, Target } from "./types";

/** A provider's documented rule on how many tools one request may carry. */
export interface ToolLimit {
  /** `max`: the API refuses more; `advice`: the provider's guidance for accuracy. */
  kind: "max" | "advice";
  count: number;
  says: string;
  doc: string;
}

const OPENAI_CHAT_MAX: ToolLimit = {
  kind: "max",
  count: 128,
  says: "Chat Completions takes at most 128 functions in `tools`.",
  doc: "https://platform.openai.com/docs/api-reference/chat/create#chat-create-tools",
};
const OPENAI_ADVICE: ToolLimit = {
  kind: "advice",
  count: 20,
  says: "OpenAI advises fewer than 20 functions available at the start of a turn, for accuracy.",
  doc: "https://platform.openai.com/docs/guides/function-calling#best-practices-for-defining-functions",
};

export const TOOL_LIMITS: Record<Target, ToolLimit[]> = {
  "openai-chat": [OPENAI_CHAT_MAX, OPENAI_ADVICE],
  "openai-responses": [OPENAI_ADVICE],
  anthropic: [
    {
      kind: "advice",
      count: 30,
      says: "Anthropic notes that tool selection accuracy degrades beyond 30 to 50 tools loaded at once, and offers tool search for larger sets.",
      doc: "https://platform.claude.com/docs/en/agents-and-tools/tool-use/tool-search-tool",
    },
  ],
  gemini: [
    {
      kind: "max",
      count: 128,
      says: "A Tool carries at most 128 function declarations (Vertex AI's Tool reference).",
      doc: "https://cloud.google.com/vertex-ai/generative-ai/docs/reference/rest/v1beta1/Tool",
    },
  ],
  mcp: [],
  rig: [],
};

export interface BudgetTool {
  name: string;
  source: string;
  tokens: number;
  /** Share of the whole set's tokens, 0..1. */
  share: number;
}

export interface BudgetSource {
  source: string;
  tools: number;
  tokens: number;
  share: number;
}

export interface BudgetWarning {
  limit: ToolLimit;
  /** How many tools the set has beyond the limit's count. */
  over: number;
  message: string;
}

export interface Budget {
  for: Target;
  tools: number;
  tokens: number;
  tokenizer: string;
  approximate: boolean;
  /** How an approximate count was made (the target's token method). */
  method?: string;
  /** The `tools` array as the provider is sent it: the definitions joined as one JSON array. */
  arrayTokens: number;
  bySource: BudgetSource[];
  /** Heaviest first; ties by name. */
  byTool: BudgetTool[];
  limits: ToolLimit[];
  warnings: BudgetWarning[];
}

/**
 * The budget of `built` (every definition of the set, for one target). `sources` maps a tool's
 * name to its source id; `arrayTokens` is the count of the definitions as one JSON array (the
 * caller counts it, so this stays free of the tokenizer).
 */
export function budgetOf(target: Target, built: readonly BuiltDefinition[], sources: ReadonlyMap<string, string>, arrayTokens: number): Budget {
  const tokens = built.reduce((n, b) => n + b.tokens.count, 0);
  const share = (n: number) => (tokens > 0 ? n / tokens : 0);
  const byTool: BudgetTool[] = built
    .map((b) => ({ name: b.name, source: sources.get(b.name) ?? "unknown", tokens: b.tokens.count, share: share(b.tokens.count) }))
    .sort((a, b) => b.tokens - a.tokens || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const per = new Map<string, BudgetSource>();
  for (const t of byTool) {
    const s = per.get(t.source) ?? { source: t.source, tools: 0, tokens: 0, share: 0 };
    s.tools++;
    s.tokens += t.tokens;
    per.set(t.source, s);
  }
  const bySource = [...per.values()].map((s) => ({ ...s, share: share(s.tokens) })).sort((a, b) => b.tokens - a.tokens || (a.source < b.source ? -1 : 1));
  const limits = TOOL_LIMITS[target];
  const warnings = limits
    .filter((l) => built.length > l.count)
    .map((l) => ({
      limit: l,
      over: built.length - l.count,
      message:
        l.kind === "max"
          ? `${built.length} tools: the provider refuses more than ${l.count} in one request; give the agent a subset (${built.length - l.count} too many).`
          : `${built.length} tools: more than the ${l.count} the provider advises; consider giving the agent only the tools a message needs.`,
    }));
  const first = built[0]?.tokens;
  return {
    for: target,
    tools: built.length,
    tokens,
    tokenizer: first?.tokenizer ?? "o200k_base",
    approximate: first?.approximate ?? !(target === "openai-chat" || target === "openai-responses"),
    ...(first?.method ? { method: first.method } : {}),
    arrayTokens,
    bySource,
    byTool,
    limits,
    warnings,
  };
}
