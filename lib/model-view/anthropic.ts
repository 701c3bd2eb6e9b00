/**
 * Anthropic Messages API: a client tool `{ name, description, input_schema, strict }`
 * (https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/implement-tool-use#specifying-client-tools).
 * `input_schema` must be an object schema. With `strict: true` (strict tool use,
 * https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/strict-tool-use) the schema is
 * rewritten to the structured-outputs subset (lib/model-view/strict.ts, ANTHROPIC_STRICT):
 * objects closed, no recursion, no numeric or string-length constraints. Pure.
 */
import { ANTHROPIC_STRICT, strictSchema } from "./strict";
import type { Converted, ConvertOptions, JsonSchema, LintItem } from "./types";

export const ANTHROPIC_TOOLS_DOC = "https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/implement-tool-use#specifying-client-tools";

export function toAnthropic(spec: { description?: string; inputSchema: JsonSchema }, opts: ConvertOptions): Converted {
  const lint: LintItem[] = [];
  if (spec.inputSchema.type !== "object") {
    const item: LintItem = {
      severity: "rejected",
      pointer: "",
      keyword: "type",
      message: 'Anthropic\'s input_schema must have `type: "object"`.',
      doc: ANTHROPIC_TOOLS_DOC,
    };
    lint.push(spec.inputSchema.type === undefined ? { ...item, fix: 'type: "object" added' } : item);
  }
  let schema: JsonSchema = spec.inputSchema.type === undefined ? { type: "object", ...spec.inputSchema } : spec.inputSchema;
  let strict = false;
  let strictReason: string | undefined;
  if (opts.strict) {
    const r = strictSchema(spec.inputSchema, ANTHROPIC_STRICT);
    lint.push(...r.lint);
    if (r.strict) {
      schema = r.schema;
      strict = true;
    } else strictReason = r.reason;
  }
  const definition: Record<string, unknown> = { name: opts.name };
  if (spec.description) definition.description = spec.description;
  definition.input_schema = schema;
  if (opts.strict) definition.strict = strict;
  return { definition, strict, ...(strictReason ? { strictReason } : {}), lint };
}
