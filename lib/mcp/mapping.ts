import type { StandardSchemaV1 } from "@modelcontextprotocol/client";
import { ToolError } from "../tools/errors";
import type { ContentBlock, ToolOutput } from "../tools/output";
import type { JsonSchema, ToolAnnotations, ToolIcon, ToolSpec } from "../tools/spec";
import { errorDetail } from "./errors";

/** How MCP tools and tools/call results become the studio's ToolSpecs and ToolOutputs. */

/** Passes the result through untouched, so tools and results keep every field as received. */
export const RAW: StandardSchemaV1<unknown, unknown> = {
  "~standard": { version: 1, vendor: "tool-studio", validate: (value: unknown) => ({ value }) },
};

export const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** The studio's name for an MCP tool: `<server>__<tool>`. */
export const namespacedName = (server: string, tool: string): string => `${server}__${tool}`;

/** Maps one raw MCP Tool to the studio's ToolSpec (every field kept, and the raw JSON as `raw`). */
export function toToolSpec(server: string, raw: Record<string, unknown>, timeoutMs: number | undefined): ToolSpec {
  const spec: ToolSpec = {
    name: namespacedName(server, String(raw.name)),
    inputSchema: raw.inputSchema as JsonSchema,
    source: { kind: "mcp", id: `mcp:${server}`, server },
    raw,
  };
  if (typeof raw.title === "string") spec.title = raw.title;
  if (typeof raw.description === "string") spec.description = raw.description;
  if (isObject(raw.outputSchema)) spec.outputSchema = raw.outputSchema;
  if (isObject(raw.annotations)) spec.annotations = raw.annotations as ToolAnnotations;
  if (Array.isArray(raw.icons)) {
    const icons = raw.icons.filter((i): i is ToolIcon => isObject(i) && typeof i.src === "string");
    if (icons.length) spec.icons = icons;
  }
  if (isObject(raw._meta)) spec._meta = raw._meta;
  if (isObject(raw.execution)) spec.execution = raw.execution;
  if (timeoutMs !== undefined) spec.timeoutMs = timeoutMs;
  return spec;
}

/** Maps a tools/call result to ToolOutput: content blocks as they are, structuredContent, isError. */
export function toToolOutput(result: unknown, server: string): ToolOutput {
  if (!isObject(result)) {
    throw new ToolError("provider", `MCP server "${server}" returned a malformed tool result.`, { detail: errorDetail(result) });
  }
  // Blocks are passed on as the server sent them (kinds this studio does not know included): the
  // protocol, not this code, vouches for their shape.
  // eslint-disable-next-line no-restricted-syntax -- protocol data handed on unchanged, see above
  let content = Array.isArray(result.content) ? (result.content.filter(isObject) as unknown as ContentBlock[]) : [];
  // Protocol 2024-10-07 servers answer { toolResult } instead of content.
  if (!Array.isArray(result.content) && result.toolResult !== undefined) {
    content = [{ type: "text", text: JSON.stringify(result.toolResult, null, 2) }];
  }
  const output: ToolOutput = { content };
  if (result.structuredContent !== undefined) output.structuredContent = result.structuredContent;
  if (result.isError === true) output.isError = true;
  return output;
}
