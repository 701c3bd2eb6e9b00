/**
 * What the model is given: the targets a tool's definition is built for, and what building it
 * reports. Pure types and constants; the converters are one module per target beside this one.
 */
import type { JsonSchema } from "../tools/spec";

export const TARGETS = ["mcp", "openai-chat", "openai-responses", "anthropic", "gemini", "rig"] as const;
export type Target = (typeof TARGETS)[number];

export const isTarget = (v: unknown): v is Target => typeof v === "string" && (TARGETS as readonly string[]).includes(v);

/**
 * One finding about a tool for a target. `severity` says what the provider does with the tool's
 * own (source) definition: refuses it (`rejected`), takes it but ignores it (`dropped`), or the
 * conversion had to rewrite it into a form the provider takes (`changed`). `fix` says what the
 * built definition does about it, when it does something.
 */
export interface LintItem {
  severity: "rejected" | "dropped" | "changed";
  /** JSON pointer into the tool's input schema ("" is the root); `/name` findings point at "#name". */
  pointer: string;
  keyword: string;
  message: string;
  /** The provider documentation the rule comes from. */
  doc: string;
  fix?: string;
}

export interface TokenCount {
  count: number;
  tokenizer: string;
  approximate: boolean;
  /** How an approximate count was made. */
  method?: string;
}

/** A name the provider refuses, and the one the definition uses instead. */
export interface NameMapping {
  name: string;
  providerName: string;
}

export interface BuiltDefinition {
  for: Target;
  name: string;
  /** The definition as the provider is sent it (one tool of its `tools` array). */
  definition: Record<string, unknown>;
  /**
   * Whether the definition is in the provider's strict mode: asked for and possible. When asked
   * for and not possible, false with `strictReason`.
   */
  strict: boolean;
  strictReason?: string;
  lint: LintItem[];
  tokens: TokenCount;
  /** Set when the provider refuses the tool's name: the name used instead. */
  nameMapping?: NameMapping;
}

export interface ConvertOptions {
  strict: boolean;
  /** The name to send (already mapped to what the provider accepts). */
  name: string;
}

/** What a converter answers; tokens are counted by the caller over JSON.stringify(definition). */
export interface Converted {
  definition: Record<string, unknown>;
  strict: boolean;
  strictReason?: string;
  lint: LintItem[];
}

export type { JsonSchema };

/** What each target is called where a person picks one. */
export const TARGET_LABELS: Record<Target, string> = {
  mcp: "MCP",
  "openai-chat": "OpenAI Chat Completions",
  "openai-responses": "OpenAI Responses",
  anthropic: "Anthropic Messages",
  gemini: "Gemini",
  rig: "Rig",
};

/** The targets with a strict mode (the others answer `strict: false` with the reason). */
export const STRICT_TARGETS: readonly Target[] = ["openai-chat", "openai-responses", "anthropic"];

/** The file a target's exported definitions go in (export.ts): `openai-chat.json`, `anthropic.strict.json`, …; strict only where the target has it. */
export function definitionsFileName(target: Target, strict: boolean): string {
  return `${target}${strict && STRICT_TARGETS.includes(target) ? ".strict" : ""}.json`;
}

/** The parameters' schema inside a target's definition: what the provider validates arguments with. */
export function sentSchema(target: Target, definition: Record<string, unknown>): unknown {
  switch (target) {
    case "openai-chat":
      return (definition.function as Record<string, unknown> | undefined)?.parameters;
    case "openai-responses":
    case "gemini":
    case "rig":
      return definition.parameters;
    case "anthropic":
      return definition.input_schema;
    case "mcp":
      return definition.inputSchema;
  }
}
