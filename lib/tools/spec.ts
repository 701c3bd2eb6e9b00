/**
 * The tool model: every field of an MCP (2026-07-28) Tool, plus what the studio adds
 * (option domains, invocation triggers, the source it came from).
 */

/** A JSON Schema object (any dialect; 2020-12 unless `$schema` says otherwise). */
export type JsonSchema = { [key: string]: unknown };

/** MCP tool annotations. All are hints; absent means the spec default (see ANNOTATION_DEFAULTS). */
export interface ToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
  [extra: string]: unknown;
}

/** The defaults the MCP spec gives to absent annotations. */
export const ANNOTATION_DEFAULTS = {
  readOnlyHint: false,
  destructiveHint: true,
  idempotentHint: false,
  openWorldHint: true,
} as const;

export type AnnotationHint = keyof typeof ANNOTATION_DEFAULTS;

export interface ToolIcon {
  src: string;
  mimeType?: string;
  sizes?: string[];
  theme?: "light" | "dark";
}

/** Where a tool comes from. `id` is stable and used in filters and captured runs. */
export type ToolSourceRef = { kind: "builtin"; id: "builtin" } | { kind: "mcp"; id: string; server: string } | { kind: "runtime"; id: "runtime" };

export interface ToolSpec {
  name: string;
  title?: string;
  description?: string;
  inputSchema: JsonSchema;
  outputSchema?: JsonSchema;
  annotations?: ToolAnnotations;
  icons?: ToolIcon[];
  _meta?: Record<string, unknown>;
  /** MCP execution hints (e.g. taskSupport), kept as declared. */
  execution?: Record<string, unknown>;
  /** Parameter name (or JSON pointer into arguments) -> option domain id. */
  paramDomains?: Record<string, string>;
  /** Lowercase phrases that nudge an agent toward this tool. */
  invocationTriggers?: string[];
  /** Default timeout for a call, in ms. */
  timeoutMs?: number;
  source: ToolSourceRef;
  /** The tool definition exactly as its source sent it (MCP: the raw JSON from tools/list). */
  raw?: unknown;
  /** Set while the tool's source is down (the reason): it stays listed, calls fail fast. */
  unavailable?: string;
}

/** Display name: title, else annotations.title, else name. */
export function displayName(spec: Pick<ToolSpec, "name" | "title" | "annotations">): string {
  return spec.title || spec.annotations?.title || spec.name;
}

/** The effective value of an annotation hint, with the spec's defaults for absent ones. */
export function annotationHint(spec: Pick<ToolSpec, "annotations">, hint: AnnotationHint): boolean {
  const v = spec.annotations?.[hint];
  return typeof v === "boolean" ? v : ANNOTATION_DEFAULTS[hint];
}
