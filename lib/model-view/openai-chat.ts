/**
 * OpenAI Chat Completions: a function tool `{ type: "function", function: { name, description,
 * parameters, strict } }` (https://platform.openai.com/docs/api-reference/chat/create#chat-create-tools).
 * `strict` is sent only when asked for (its default there is false). Pure.
 */
import { openAiParameters } from "./openai-schema";
import type { Converted, ConvertOptions, JsonSchema } from "./types";

export const OPENAI_CHAT_DOC = "https://platform.openai.com/docs/api-reference/chat/create#chat-create-tools";

export function toOpenAiChat(spec: { description?: string; inputSchema: JsonSchema }, opts: ConvertOptions): Converted {
  const p = openAiParameters(spec.inputSchema, opts.strict);
  const fn: Record<string, unknown> = { name: opts.name };
  if (spec.description) fn.description = spec.description;
  fn.parameters = p.parameters;
  if (opts.strict) fn.strict = p.strict;
  return { definition: { type: "function", function: fn }, strict: p.strict, ...(p.strictReason ? { strictReason: p.strictReason } : {}), lint: p.lint };
}
