/**
 * What both OpenAI targets share: the function's `parameters`, as declared or rewritten for
 * strict mode (lib/model-view/strict.ts, OPENAI_STRICT), and the root rule. Function calling:
 * https://platform.openai.com/docs/guides/function-calling; strict mode's schema subset:
 * https://platform.openai.com/docs/guides/structured-outputs#supported-schemas. Pure.
 */
import { OPENAI_STRICT, strictSchema } from "./strict";
import type { JsonSchema, LintItem } from "./types";

export const OPENAI_FUNCTIONS_DOC = "https://platform.openai.com/docs/guides/function-calling";

export function openAiParameters(input: JsonSchema, strict: boolean): { parameters: JsonSchema; strict: boolean; strictReason?: string; lint: LintItem[] } {
  const lint: LintItem[] = [];
  if (input.type !== undefined && input.type !== "object") {
    lint.push({ severity: "rejected", pointer: "", keyword: "type", message: "OpenAI function parameters must be a JSON Schema object.", doc: OPENAI_FUNCTIONS_DOC });
  }
  if (!strict) return { parameters: input, strict: false, lint };
  const r = strictSchema(input, OPENAI_STRICT);
  if (!r.strict) return { parameters: input, strict: false, strictReason: r.reason, lint: [...lint, ...r.lint] };
  return { parameters: r.schema, strict: true, lint: [...lint, ...r.lint] };
}
