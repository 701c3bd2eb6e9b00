import type { Run } from "../runs/types";
import type { ContentBlock } from "../tools/output";
import type { ToolSpec } from "../tools/spec";

/**
 * The studio's tool model and captured runs, as MCP sees them. Studio extras go under `_meta`
 * with the `dev.toolstudio/` prefix (MCP reserves un-prefixed and `io.modelcontextprotocol/`
 * keys), never as invented top-level fields.
 */

export const META_PREFIX = "dev.toolstudio/";
export const META = {
  paramDomains: `${META_PREFIX}paramDomains`,
  invocationTriggers: `${META_PREFIX}invocationTriggers`,
  source: `${META_PREFIX}source`,
  timeoutMs: `${META_PREFIX}timeoutMs`,
  unavailable: `${META_PREFIX}unavailable`,
  execution: `${META_PREFIX}execution`,
  runId: `${META_PREFIX}runId`,
  runStatus: `${META_PREFIX}runStatus`,
  errorKind: `${META_PREFIX}errorKind`,
  fieldErrors: `${META_PREFIX}fieldErrors`,
  outputValid: `${META_PREFIX}outputValid`,
  outputErrors: `${META_PREFIX}outputErrors`,
  /** In a tools/call request's `_meta`: the client's idempotency key (as REST's Idempotency-Key header). */
  idempotencyKey: `${META_PREFIX}idempotencyKey`,
  /** In a result's `_meta`: the run was not stored yet (`"pending"`), or the answer is the run the key already named (`idempotentReplay: true`). */
  capture: `${META_PREFIX}capture`,
  idempotentReplay: `${META_PREFIX}idempotentReplay`,
} as const;

/** An MCP Tool definition (plain JSON, every field as the studio holds it). */
export interface McpToolDefinition {
  name: string;
  title?: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
  annotations?: Record<string, unknown>;
  icons?: ToolSpec["icons"];
  execution?: Record<string, unknown>;
  _meta?: Record<string, unknown>;
}

/**
 * A ToolSpec as an MCP tool: the MCP fields as declared, the studio's extras under `_meta`.
 * `execution` (task support) is a 2025-11-25 Tool field that 2026-07-28 removed (tasks became
 * an extension), and the SDK drops it from 2026-era answers: there it goes under `_meta`.
 */
export function toMcpTool(spec: ToolSpec, era: "modern" | "legacy" = "modern"): McpToolDefinition {
  const meta: Record<string, unknown> = { ...(spec._meta ?? {}) };
  if (spec.paramDomains && Object.keys(spec.paramDomains).length) meta[META.paramDomains] = spec.paramDomains;
  if (spec.invocationTriggers?.length) meta[META.invocationTriggers] = spec.invocationTriggers;
  meta[META.source] = spec.source;
  if (spec.timeoutMs !== undefined) meta[META.timeoutMs] = spec.timeoutMs;
  if (spec.unavailable) meta[META.unavailable] = spec.unavailable;
  if (spec.execution !== undefined && era === "modern") meta[META.execution] = spec.execution;

  // Key order as in the spec's Tool: name, title, description, inputSchema, ...
  const tool = { name: spec.name } as McpToolDefinition;
  if (spec.title !== undefined) tool.title = spec.title;
  if (spec.description !== undefined) tool.description = spec.description;
  tool.inputSchema = spec.inputSchema;
  if (spec.outputSchema !== undefined) tool.outputSchema = spec.outputSchema;
  if (spec.annotations !== undefined) tool.annotations = spec.annotations;
  if (spec.icons !== undefined) tool.icons = spec.icons;
  if (spec.execution !== undefined && era === "legacy") tool.execution = spec.execution;
  tool._meta = meta;
  return tool;
}

/** An MCP CallToolResult (plain JSON). */
export interface McpCallToolResult {
  content: ContentBlock[];
  structuredContent?: unknown;
  isError?: boolean;
  _meta?: Record<string, unknown>;
  [key: string]: unknown;
}

/**
 * A captured run as the result of `tools/call`. Success: the tool's content and structured
 * content. Anything else: `isError: true` with a text block naming the error kind and the
 * caller-safe message (the operator-only detail is not part of a Run, so it cannot leak);
 * rejected arguments list each field, as tool input errors are reported since 2025-11-25.
 * What the tool itself put in its result's `_meta`, and the structured content of an error it
 * reported (MCP isError), are passed on; the studio's own keys are added to that `_meta`.
 */
export function toCallToolResult(run: Run): McpCallToolResult {
  const meta: Record<string, unknown> = { ...(run.output?._meta ?? {}), [META.runId]: run.id, [META.runStatus]: run.status };
  if (run.capture) meta[META.capture] = run.capture;
  if (run.idempotentReplay) meta[META.idempotentReplay] = true;

  if (run.status === "success") {
    const out: McpCallToolResult = { content: run.output?.content ?? [] };
    if (run.output?.structuredContent !== undefined) out.structuredContent = run.output.structuredContent;
    if (run.outputValid !== null) meta[META.outputValid] = run.outputValid;
    if (run.outputErrors?.length) meta[META.outputErrors] = run.outputErrors;
    out._meta = meta;
    return out;
  }

  const kind = run.error?.kind ?? "other";
  const message = run.error?.message ?? defaultMessage(run.status);
  meta[META.errorKind] = kind;
  const lines = [`${headline(run.status)} (${kind}): ${message}`];
  const fields = run.error?.details ?? [];
  if (fields.length) {
    meta[META.fieldErrors] = fields;
    lines.push(...fields.map((f) => `- ${f.path || "(arguments)"}: ${f.message}`));
  }
  const content: ContentBlock[] = [{ type: "text", text: lines.join("\n") }];
  // A tool that reported its own error (MCP isError) keeps what it said, minus the block quoted above.
  for (const block of run.output?.content ?? []) {
    if (block.type === "text" && block.text === message) continue;
    content.push(block);
  }
  const out: McpCallToolResult = { content, isError: true };
  if (run.output?.structuredContent !== undefined) out.structuredContent = run.output.structuredContent;
  out._meta = meta;
  return out;
}

function headline(status: Run["status"]): string {
  switch (status) {
    case "rejected":
      return "The call was rejected";
    case "timeout":
      return "The tool timed out";
    case "cancelled":
      return "The run was cancelled";
    case "interrupted":
      return "The run was interrupted";
    default:
      return "The tool failed";
  }
}

function defaultMessage(status: Run["status"]): string {
  return status === "running" ? "The run did not finish." : `The run ended with status ${status}.`;
}
