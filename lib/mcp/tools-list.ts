import type { Client } from "@modelcontextprotocol/client";
import { isObject, RAW } from "./mapping";
import { storableCopy, stringProblem } from "../http/input";
import { scanXMcpHeaders, type XMcpHeaderDeclaration } from "./x-mcp-header";

/** Reading a server's tools: every page of tools/list, then which definitions the studio offers. */

/** A tool the server listed that the studio does not offer, and why. */
export interface McpExcludedTool {
  tool: string;
  reason: string;
}

export interface ListToolsOptions {
  /** Timeout of each page. */
  timeoutMs: number;
  /** Safety stop for a server whose cursors never end. */
  maxPages: number;
}

/**
 * Every page of tools/list, as received (none when the server does not offer tools). Throws on a
 * malformed page, a repeated cursor, or after `maxPages` pages.
 */
export async function listAllTools(client: Client, opts: ListToolsOptions): Promise<unknown[]> {
  const raw: unknown[] = [];
  if (!client.getServerCapabilities()?.tools) return raw;
  const seenCursors = new Set<string>();
  let cursor: string | undefined;
  for (let page = 0; ; page++) {
    if (page >= opts.maxPages) throw new Error(`tools/list did not end after ${opts.maxPages} pages`);
    const result = await client.request({ method: "tools/list", params: cursor === undefined ? {} : { cursor } }, RAW, { timeout: opts.timeoutMs });
    if (!isObject(result) || !Array.isArray(result.tools)) throw new Error("tools/list returned a malformed result (no tools array)");
    raw.push(...result.tools);
    const next = result.nextCursor;
    if (typeof next !== "string" || next === "") break;
    if (seenCursors.has(next)) throw new Error(`tools/list repeated the cursor ${JSON.stringify(next)}`);
    seenCursors.add(next);
    cursor = next;
  }
  return raw;
}

export interface ScreenedTools {
  /** The definitions offered, as received. */
  accepted: Record<string, unknown>[];
  excluded: McpExcludedTool[];
  /** The x-mcp-header declarations of each accepted tool, by its (un-namespaced) name. */
  declarations: Map<string, XMcpHeaderDeclaration[]>;
}

/**
 * The longest tool name the studio offers (MCP asks for 1 to 128 characters). A run's tool name is
 * indexed (PostgreSQL refuses an index row over 2,704 bytes) and is a path segment of the API
 * (at most 500 characters): a longer one could be listed but never run or recorded.
 */
export const MAX_TOOL_NAME = 200;

function toolNameProblem(name: string): string | null {
  if (name.length > MAX_TOOL_NAME) return `is longer than ${MAX_TOOL_NAME} characters (${name.length})`;
  return stringProblem(name);
}

/** The name as shown and kept with the exclusion: escaped where it cannot be stored, and cut. */
const shownName = (name: string) => {
  const s = storableCopy(name) as string;
  return s.length > 80 ? `${[...s].slice(0, 80).join("")}… (${name.length} characters)` : s;
};

/** Keeps the well-formed, first-listed definitions with valid x-mcp-header declarations; the others are excluded with a reason. */
export function screenTools(raw: unknown[], log?: (message: string) => void): ScreenedTools {
  const accepted: Record<string, unknown>[] = [];
  const excluded: McpExcludedTool[] = [];
  const declarations = new Map<string, XMcpHeaderDeclaration[]>();
  for (const t of raw) {
    if (!isObject(t) || typeof t.name !== "string" || t.name === "") {
      excluded.push({ tool: isObject(t) ? String(t.name ?? "(unnamed)") : "(not an object)", reason: "malformed tool definition: no name" });
      continue;
    }
    const nameProblem = toolNameProblem(t.name);
    if (nameProblem) {
      excluded.push({ tool: shownName(t.name), reason: `malformed tool definition: its name ${nameProblem}` });
      log?.(`excluding tool ${JSON.stringify(shownName(t.name))}: its name ${nameProblem}`);
      continue;
    }
    if (!isObject(t.inputSchema)) {
      excluded.push({ tool: t.name, reason: "malformed tool definition: inputSchema must be a JSON object" });
      continue;
    }
    if (declarations.has(t.name)) {
      excluded.push({ tool: t.name, reason: "listed more than once: the first definition is kept" });
      continue;
    }
    const scan = scanXMcpHeaders(t.inputSchema);
    if (!scan.valid) {
      excluded.push({ tool: t.name, reason: `invalid x-mcp-header: ${scan.reason}` });
      log?.(`excluding tool ${t.name}: invalid x-mcp-header: ${scan.reason}`);
      continue;
    }
    declarations.set(t.name, scan.declarations);
    accepted.push(t);
  }
  return { accepted, excluded, declarations };
}
