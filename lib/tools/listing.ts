import type { ToolSpec } from "./spec";

/**
 * GET /api/tools?view=full: every spec as declared, less `raw` (the definition exactly as an MCP server sent
 * it, which repeats the rest: half of a 5,000-tool list). GET /api/tools/{name} keeps it.
 */
export type ListedTool = Omit<ToolSpec, "raw">;

export function listedTool(spec: ToolSpec): ListedTool {
  const { raw: _raw, ...rest } = spec;
  return rest;
}

export const MAX_TOOLS_PAGE = 1000;

/** An opaque cursor: the offset of the next page and the first name on it (so a changed list is noticed). */
export function encodeToolsCursor(offset: number, name: string): string {
  return Buffer.from(JSON.stringify([offset, name]), "utf8").toString("base64url");
}

/**
 * The page of `limit` tools a cursor points to. Throws a message for a cursor that is not one of
 * ours, or whose tool is no longer at its place (the list changed: start again from the first page).
 */
export function toolsPage<T extends { name: string }>(tools: readonly T[], limit: number, cursor: string | undefined): { tools: T[]; nextCursor?: string } {
  let offset = 0;
  if (cursor !== undefined) {
    let decoded: unknown;
    try {
      decoded = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
    } catch {
      decoded = null;
    }
    const [at, name] = Array.isArray(decoded) && decoded.length === 2 ? (decoded as unknown[]) : [];
    // Only a cursor exactly as encodeToolsCursor wrote it (not another encoding of the same JSON).
    if (typeof at !== "number" || !Number.isSafeInteger(at) || at < 1 || typeof name !== "string" || encodeToolsCursor(at, name) !== cursor) {
      throw new Error("is not a cursor this list gave out");
    }
    offset = at;
    if (tools[offset]?.name !== name) throw new Error("is stale: the tool list changed since it was given out; start again without a cursor");
  }
  const page = tools.slice(offset, offset + limit);
  const next = offset + limit;
  return next < tools.length ? { tools: page, nextCursor: encodeToolsCursor(next, tools[next]!.name) } : { tools: page };
}
