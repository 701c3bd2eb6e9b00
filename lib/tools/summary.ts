import type { ToolSpec } from "./spec";

/**
 * What the tool list shows of a tool (and GET /api/tools answers by default): no schemas, no raw definition. With an MCP server of 5,000
 * tools the full specs were 9 MB in the page (issue 12, item 6); this is about a tenth of it.
 */
export interface ToolSummary extends Pick<ToolSpec, "name" | "title" | "annotations" | "icons" | "unavailable"> {
  /** The start of the description: what the card shows (two lines) and the search looks in. */
  description?: string;
  source: { id: string };
  /** How many top-level parameters the input schema declares. */
  params: number;
  outputSchema: boolean;
}

/** Longer descriptions are cut here, for the list only (the tool page shows them whole). */
export const SUMMARY_DESCRIPTION_CHARS = 1000;

// A spec is never changed once listed (a changed tool is a new object): its summary is made once,
// not on every render of a list of thousands.
const made = new WeakMap<ToolSpec, ToolSummary>();

export function toolSummary(spec: ToolSpec): ToolSummary {
  let s = made.get(spec);
  if (!s) made.set(spec, (s = summarize(spec)));
  return s;
}

function summarize(spec: ToolSpec): ToolSummary {
  const p = spec.inputSchema.properties;
  const s: ToolSummary = {
    name: spec.name,
    source: { id: spec.source.id },
    params: p && typeof p === "object" ? Object.keys(p).length : 0,
    outputSchema: spec.outputSchema !== undefined,
  };
  if (spec.title !== undefined) s.title = spec.title;
  if (spec.description !== undefined) s.description = spec.description.slice(0, SUMMARY_DESCRIPTION_CHARS);
  if (spec.annotations !== undefined) s.annotations = spec.annotations;
  if (spec.icons !== undefined) s.icons = spec.icons.slice(0, 4); // the card shows four at most
  if (spec.unavailable !== undefined) s.unavailable = spec.unavailable;
  return s;
}
