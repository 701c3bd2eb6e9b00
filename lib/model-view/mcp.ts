/**
 * MCP: the Tool as a `tools/list` result lists it
 * (https://modelcontextprotocol.io/specification/2025-11-25/server/tools#tool), i.e. the spec's
 * MCP fields without what the studio adds (option domains, triggers, timeout, source). Its name
 * rule (SEP-986: 1 to 128 of A-Z a-z 0-9 _ - .) and `inputSchema` being an object are linted. Pure.
 */
import { MCP_NAME } from "./names";
import type { Converted, ConvertOptions, LintItem } from "./types";
import type { ToolSpec } from "../tools/spec";

export const MCP_TOOL_DOC = "https://modelcontextprotocol.io/specification/2025-11-25/server/tools#tool";

export function toMcp(spec: ToolSpec, opts: ConvertOptions): Converted {
  const lint: LintItem[] = [];
  if (!MCP_NAME.pattern.test(spec.name))
    lint.push({ severity: "rejected", pointer: "#name", keyword: "name", message: `MCP tool names are ${MCP_NAME.says}.`, doc: MCP_NAME.doc });
  if (spec.inputSchema.type !== "object")
    lint.push({
      severity: "rejected",
      pointer: "",
      keyword: "type",
      message: 'MCP\'s inputSchema must be an object schema (`type: "object"`).',
      doc: MCP_TOOL_DOC,
    });
  const definition: Record<string, unknown> = { name: opts.name };
  if (spec.title !== undefined) definition.title = spec.title;
  if (spec.description !== undefined) definition.description = spec.description;
  definition.inputSchema = spec.inputSchema;
  if (spec.outputSchema !== undefined) definition.outputSchema = spec.outputSchema;
  if (spec.annotations !== undefined) definition.annotations = spec.annotations;
  if (spec.icons !== undefined) definition.icons = spec.icons;
  if (spec.execution !== undefined) definition.execution = spec.execution;
  if (spec._meta !== undefined) definition._meta = spec._meta;
  return { definition, strict: false, ...(opts.strict ? { strictReason: "MCP tool definitions have no strict mode." } : {}), lint };
}
