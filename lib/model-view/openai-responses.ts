/**
 * OpenAI Responses API: a function tool `{ type: "function", name, description, parameters,
 * strict }` (https://platform.openai.com/docs/api-reference/responses/create#responses-create-tools).
 * There `strict` defaults to true, so it is always sent: false unless strict mode was asked for
 * and the schema could be made strict. Pure.
 */
import { openAiParameters } from "./openai-schema";
import type { Converted, ConvertOptions, JsonSchema } from "./types";

export const OPENAI_RESPONSES_DOC = "https://platform.openai.com/docs/api-reference/responses/create#responses-create-tools";

export function toOpenAiResponses(spec: { description?: string; inputSchema: JsonSchema }, opts: ConvertOptions): Converted {
  const p = openAiParameters(spec.inputSchema, opts.strict);
  const definition: Record<string, unknown> = { type: "function", name: opts.name };
  if (spec.description) definition.description = spec.description;
  definition.parameters = p.parameters;
  definition.strict = p.strict;
  return { definition, strict: p.strict, ...(p.strictReason ? { strictReason: p.strictReason } : {}), lint: p.lint };
}
