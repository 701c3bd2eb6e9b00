import type { AuditLog } from "../audit/log";
import { HttpError } from "../http/http";
import type { McpConnection } from "../mcp/connection";
import { isObject } from "../mcp/mapping";
import { SIGN_IN_FAILED } from "../mcp/oauth/sign-in-needed";
import type { McpView } from "../mcp/source";
import { listAll } from "../mcp-server/upstream";
import type { ContentBlock, ResourceLink } from "../tools/output";

/**
 * Browsing one MCP server: its resources, resource templates and prompts (listed through every
 * cursor page, at most 100 pages and MAX_ITEMS entries), and getting a prompt (audited as
 * "prompt.get", without the arguments' values or the messages). Everything the server sends is
 * untrusted: entries are shape-checked, unknown fields dropped and strings cut to a bound.
 * Reading a resource is lib/servers/resources.ts.
 */
export type BrowseView = Pick<McpView, "holdsConnections" | "states" | "connection">;

/** At most this many entries of one list are kept (the rest is reported as `truncated`). */
export const MAX_ITEMS = 1000;
/** How long a list or a prompt get may take. */
export const BROWSE_TIMEOUT_MS = 15_000;
const MAX_TEXT = 4000;
const MAX_MESSAGES = 200;

/** A listed resource: the fields of a resource link. */
export type BrowseResource = Omit<ResourceLink, "type" | "annotations" | "_meta">;
export interface BrowseTemplate {
  uriTemplate: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
}
export interface BrowsePromptArgument {
  name: string;
  description?: string;
  required?: boolean;
}
export interface BrowsePrompt {
  name: string;
  title?: string;
  description?: string;
  arguments: BrowsePromptArgument[];
}
export interface PromptMessage {
  role: "user" | "assistant";
  content: ContentBlock;
}

const cut = (v: unknown, max = MAX_TEXT): string | undefined => (typeof v === "string" ? v.slice(0, max) : undefined);
/** The string fields that are there, cut to a bound; absent ones left out. */
function opt(raw: Record<string, unknown>, keys: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of keys) {
    const v = cut(raw[k]);
    if (v !== undefined) out[k] = v;
  }
  return out;
}

function toResource(raw: Record<string, unknown>): BrowseResource | null {
  if (typeof raw.uri !== "string" || !raw.uri || raw.uri.length > 8192) return null;
  const size = typeof raw.size === "number" && Number.isFinite(raw.size) && raw.size >= 0 ? { size: raw.size } : {};
  return { uri: raw.uri, name: cut(raw.name, 500) || raw.uri.slice(0, 500), ...opt(raw, ["title", "description", "mimeType"]), ...size };
}

function toTemplate(raw: Record<string, unknown>): BrowseTemplate | null {
  if (typeof raw.uriTemplate !== "string" || !raw.uriTemplate || raw.uriTemplate.length > 8192) return null;
  return { uriTemplate: raw.uriTemplate, name: cut(raw.name, 500) || raw.uriTemplate.slice(0, 500), ...opt(raw, ["title", "description", "mimeType"]) };
}

function toPrompt(raw: Record<string, unknown>): BrowsePrompt | null {
  if (typeof raw.name !== "string" || !raw.name || raw.name.length > 500) return null;
  const args = Array.isArray(raw.arguments) ? raw.arguments.filter(isObject) : [];
  const argumentsOut = args
    .filter((a) => typeof a.name === "string" && a.name && a.name.length <= 200)
    .slice(0, 100)
    .map((a): BrowsePromptArgument => ({ name: String(a.name), ...opt(a, ["description"]), ...(a.required === true ? { required: true } : {}) }));
  return { name: raw.name, ...opt(raw, ["title", "description"]), arguments: argumentsOut };
}

/** The live connection of `server`, or the HTTP error that says why there is none. */
export function liveConnection(view: BrowseView, server: string): McpConnection {
  const state = view.states().find((s) => s.name === server);
  if (!state) throw new HttpError("not_found", `No MCP server named "${server}".`);
  const connection = view.connection(server);
  if (!connection && view.holdsConnections === false) {
    throw new HttpError(
      "unavailable",
      `This instance leaves MCP connections to the workers (STUDIO_WORKER=off): browse "${server}" through an instance that holds them.`,
    );
  }
  if (!connection) throw new HttpError("unavailable", `MCP server "${server}" is not connected (it is disabled).`);
  const status = connection.status();
  if (status.state !== "connected") {
    // Why its OAuth failed is for admins (lib/servers/view.ts); these routes are not admin-only.
    const error = status.authFailed ? SIGN_IN_FAILED : status.error;
    throw new HttpError("unavailable", `MCP server "${server}" is ${status.state}${error ? `: ${error}` : ""}.`);
  }
  return connection;
}

function declares(connection: McpConnection, capability: "resources" | "prompts" | "completions"): boolean {
  return isObject(connection.status().capabilities?.[capability]);
}

/** An upstream failure as an HTTP error: the server's own message, 502 (400 for invalid params, 404 for not found). */
export function upstreamError(err: unknown, server: string): HttpError {
  if (HttpError.isInstance(err)) return err;
  const message = (err instanceof Error ? err.message : String(err)).replace(/^MCP error -?\d+: /, "").slice(0, 1000);
  const code = isObject(err) && typeof err.code === "number" ? err.code : undefined;
  if (code === -32602) return new HttpError("invalid_args", `MCP server "${server}": ${message}`);
  if (code === -32002) return new HttpError("not_found", `MCP server "${server}": ${message}`);
  return new HttpError("provider", `MCP server "${server}" failed: ${message}`);
}

async function list<T>(connection: McpConnection, server: string, method: string, key: string, map: (raw: Record<string, unknown>) => T | null) {
  let raw: Record<string, unknown>[];
  try {
    raw = await listAll({ name: server, connection }, method, key, AbortSignal.timeout(BROWSE_TIMEOUT_MS));
  } catch (err) {
    throw upstreamError(err, server);
  }
  const items = raw.map(map).filter((x): x is T => x !== null);
  return { items: items.slice(0, MAX_ITEMS), truncated: items.length > MAX_ITEMS, dropped: raw.length - items.length };
}

/** The resources and resource templates of `server`; 404 when it declares no resources capability. */
export async function listServerResources(view: BrowseView, server: string) {
  const connection = liveConnection(view, server);
  if (!declares(connection, "resources"))
    throw new HttpError("not_found", `MCP server "${server}" offers no resources (it did not declare the resources capability).`);
  const resources = await list(connection, server, "resources/list", "resources", toResource);
  // Templates are optional: a server without resources/templates/list has none; a failed list
  // leaves the resources shown and says why the templates are not.
  let templatesError: string | undefined;
  const templates = await list(connection, server, "resources/templates/list", "resourceTemplates", toTemplate).catch((err: unknown) => {
    templatesError = HttpError.isInstance(err) && err.status === 502 && /method not found/i.test(err.message) ? undefined : upstreamError(err, server).message;
    return { items: [], truncated: false, dropped: 0 };
  });
  return {
    server,
    resources: resources.items,
    templates: templates.items,
    ...(templatesError ? { templatesError } : {}),
    truncated: resources.truncated || templates.truncated,
    dropped: resources.dropped + templates.dropped,
  };
}

/** The prompts of `server` with their declared arguments; 404 when it declares no prompts capability. */
export async function listServerPrompts(view: BrowseView, server: string) {
  const connection = liveConnection(view, server);
  if (!declares(connection, "prompts"))
    throw new HttpError("not_found", `MCP server "${server}" offers no prompts (it did not declare the prompts capability).`);
  const prompts = await list(connection, server, "prompts/list", "prompts", toPrompt);
  return { server, prompts: prompts.items, truncated: prompts.truncated, dropped: prompts.dropped };
}

const BLOCKS = new Set(["text", "image", "audio", "resource", "resource_link"]);

/** A content block of a known kind. Its fields are checked where it is shown (ContentView treats every one as untrusted). */
function isBlock(v: unknown): v is ContentBlock {
  return isObject(v) && typeof v.type === "string" && BLOCKS.has(v.type);
}

/** A prompts/get result's messages: a role and one content block of a known kind, else left out (counted). */
export function toPromptMessages(result: Record<string, unknown>, server: string): { description?: string; messages: PromptMessage[]; dropped: number } {
  if (!Array.isArray(result.messages)) throw new HttpError("provider", `MCP server "${server}" returned a malformed prompts/get result (no messages array).`);
  const messages: PromptMessage[] = [];
  let dropped = 0;
  for (const m of result.messages.slice(0, MAX_MESSAGES)) {
    if (!isObject(m) || (m.role !== "user" && m.role !== "assistant") || !isBlock(m.content)) {
      dropped++;
      continue;
    }
    messages.push({ role: m.role, content: m.content });
  }
  dropped += Math.max(0, result.messages.length - MAX_MESSAGES);
  const description = cut(result.description);
  return { ...(description !== undefined ? { description } : {}), messages, dropped };
}

/**
 * Gets prompt `name` of `server` with `args` and audits it as "prompt.get" (who, which server and
 * prompt, which argument names: never their values nor the messages), failed or not.
 */
export async function getServerPrompt(
  deps: { mcp: BrowseView; audit: Pick<AuditLog, "append"> },
  server: string,
  name: string,
  args: Record<string, string>,
  who: { actor: string; userId: string | null; from: string | null },
) {
  const connection = liveConnection(deps.mcp, server);
  if (!declares(connection, "prompts"))
    throw new HttpError("not_found", `MCP server "${server}" offers no prompts (it did not declare the prompts capability).`);
  const base = { actor: who.actor, action: "prompt.get" as const, target: `${server} ${name}`.slice(0, 2000), from: who.from };
  const ids = who.userId ? { userId: who.userId } : {};
  const argNames = Object.keys(args).slice(0, 100);
  try {
    const raw = await connection.request("prompts/get", { name, ...(argNames.length ? { arguments: args } : {}) }, { timeoutMs: BROWSE_TIMEOUT_MS });
    const out = toPromptMessages(raw, server);
    await deps.audit.append({ ...base, detail: { ...ids, outcome: "got", arguments: argNames, messages: out.messages.length } });
    return { server, name, ...out };
  } catch (thrown) {
    const err = upstreamError(thrown, server);
    await deps.audit.append({ ...base, detail: { ...ids, outcome: "failed", arguments: argNames, kind: err.kind, message: err.message.slice(0, 500) } });
    throw err;
  }
}

/** What a completion is for: a prompt's argument or a resource template's variable. */
export type CompletionRef = { type: "ref/prompt"; name: string } | { type: "ref/resource"; uri: string };

export interface CompletionRequest {
  ref: CompletionRef;
  argument: { name: string; value: string };
  /** The other arguments already filled in (`context.arguments`). */
  context?: Record<string, string>;
}

/** At most this many suggestions are passed on (the spec caps a response at 100). */
const MAX_COMPLETIONS = 100;
/** How long a completion may take: it feeds suggestions as someone types. */
export const COMPLETE_TIMEOUT_MS = 5_000;

/**
 * Suggestions for one argument from the server's `completion/complete` (not audited: it is asked
 * as someone types, and carries no more than the form they are filling in). 404 when the server
 * declares no completions; the values are shape-checked and bounded (strings, at most 100, each
 * cut to 1,000 characters; duplicates dropped).
 */
export async function completeServerArgument(
  view: BrowseView,
  server: string,
  req: CompletionRequest,
  signal?: AbortSignal,
): Promise<{ server: string; values: string[]; total?: number; hasMore: boolean }> {
  const connection = liveConnection(view, server);
  if (!declares(connection, "completions"))
    throw new HttpError("not_found", `MCP server "${server}" offers no completions (it did not declare the completions capability).`);
  const context = req.context && Object.keys(req.context).length ? { context: { arguments: req.context } } : {};
  let raw: Record<string, unknown>;
  try {
    const timeout = AbortSignal.timeout(COMPLETE_TIMEOUT_MS);
    raw = await connection.request(
      "completion/complete",
      { ref: req.ref, argument: req.argument, ...context },
      { signal: signal ? AbortSignal.any([signal, timeout]) : timeout, timeoutMs: COMPLETE_TIMEOUT_MS },
    );
  } catch (err) {
    throw upstreamError(err, server);
  }
  const completion = isObject(raw.completion) ? raw.completion : null;
  if (!completion || !Array.isArray(completion.values))
    throw new HttpError("provider", `MCP server "${server}" returned a malformed completion/complete result (no completion.values array).`);
  const values = [...new Set(completion.values.filter((v): v is string => typeof v === "string").map((v) => v.slice(0, 1000)))].slice(0, MAX_COMPLETIONS);
  const total = typeof completion.total === "number" && Number.isSafeInteger(completion.total) && completion.total >= 0 ? { total: completion.total } : {};
  return { server, values, ...total, hasMore: completion.hasMore === true || completion.values.length > MAX_COMPLETIONS };
}
