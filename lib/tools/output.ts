/** Tool output: MCP content blocks plus optional structured content. */

interface BlockBase {
  annotations?: { audience?: ("user" | "assistant")[]; priority?: number; lastModified?: string };
  _meta?: Record<string, unknown>;
}

export interface TextContent extends BlockBase {
  type: "text";
  text: string;
}
export interface ImageContent extends BlockBase {
  type: "image";
  data: string;
  mimeType: string;
}
export interface AudioContent extends BlockBase {
  type: "audio";
  data: string;
  mimeType: string;
}
export interface ResourceLink extends BlockBase {
  type: "resource_link";
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  size?: number;
}
export type ResourceContents =
  | { uri: string; mimeType?: string; text: string; _meta?: Record<string, unknown> }
  | { uri: string; mimeType?: string; blob: string; _meta?: Record<string, unknown> };
export interface EmbeddedResource extends BlockBase {
  type: "resource";
  resource: ResourceContents;
}

export type ContentBlock = TextContent | ImageContent | AudioContent | ResourceLink | EmbeddedResource;

export interface ToolOutput {
  content: ContentBlock[];
  structuredContent?: unknown;
  /** Set by MCP servers for tool-level errors; the run is then status `error`. */
  isError?: boolean;
  /** The tool's own result metadata (MCP `CallToolResult._meta`), passed on to MCP callers of this process; not stored with the run. */
  _meta?: Record<string, unknown>;
}

export const text = (t: string): TextContent => ({ type: "text", text: t });

/** Structured result: the value as structured content, and as pretty JSON text for older clients. */
export function structured(value: unknown, extra: ContentBlock[] = []): ToolOutput {
  return { content: [text(JSON.stringify(value, null, 2)), ...extra], structuredContent: value };
}
