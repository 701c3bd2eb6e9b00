import type { StandardSchemaV1 } from "@modelcontextprotocol/client";
import { ToolError } from "../tools/errors";
import type { ContentBlock, ResourceContents, ToolOutput } from "../tools/output";
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

/**
 * Maps one raw MCP Tool to the studio's ToolSpec (every field kept, and the raw JSON as `raw`),
 * named `<server>__<tool>` unless the server's entry says `"namespace": false`.
 */
export function toToolSpec(server: string, raw: Record<string, unknown>, timeoutMs: number | undefined, namespaced = true): ToolSpec {
  const spec: ToolSpec = {
    name: namespaced ? namespacedName(server, String(raw.name)) : String(raw.name),
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
  if (isObject(result._meta) && Object.keys(result._meta).length) output._meta = result._meta;
  return output;
}

/** Largest `resources/read` answer passed on (text and base64 together): beyond it, a clear error. */
export const MAX_RESOURCE_CHARS = 16 * 1024 * 1024;

/**
 * A `resources/read` result to the contents this studio shows: each needs a string uri and a text
 * or a base64 blob; a mimeType is kept when it is a string. Anything else is a provider error.
 */
export function toResourceContents(result: unknown, server: string): ResourceContents[] {
  if (!isObject(result) || !Array.isArray(result.contents)) {
    throw new ToolError("provider", `MCP server "${server}" returned a malformed resources/read result (no contents array).`, { detail: errorDetail(result) });
  }
  let total = 0;
  return result.contents.map((c, i): ResourceContents => {
    const bad = (what: string) =>
      new ToolError("provider", `MCP server "${server}" returned a malformed resource: contents[${i}] ${what}.`, { detail: errorDetail(c) });
    if (!isObject(c) || typeof c.uri !== "string") throw bad("has no uri");
    const mimeType = typeof c.mimeType === "string" ? { mimeType: c.mimeType } : {};
    const text = typeof c.text === "string" ? c.text : null;
    const blob = typeof c.blob === "string" ? c.blob : null;
    if (text === null && blob === null) throw bad("has neither text nor blob");
    total += (text ?? blob!).length;
    if (total > MAX_RESOURCE_CHARS)
      throw new ToolError("provider", `MCP server "${server}" returned a resource larger than ${MAX_RESOURCE_CHARS / 1024 / 1024} MB; it is not shown.`);
    return text !== null ? { uri: c.uri, ...mimeType, text } : { uri: c.uri, ...mimeType, blob: blob! };
  });
}
