import { ProtocolError, ProtocolErrorCode, ResourceNotFoundError } from "@modelcontextprotocol/server";
import type { McpConnection } from "../mcp/connection";
import { isObject, namespacedName } from "../mcp/mapping";
import type { McpView } from "../mcp/source";

/**
 * The prompts and resources of the configured MCP servers, re-offered by /api/mcp. Prompts are
 * named like tools (`<server>__<prompt>`, or their own name for an entry with `"namespace":
 * false`); resources and templates keep their URIs (a URI names the resource wherever it is
 * listed) and a read goes to the servers offering resources, in config order, until one has it.
 * Lists are asked of the servers at each request (nothing is cached here), so they are current.
 * Only a process that holds the connections offers them (not a web instance with STUDIO_WORKER=off).
 */
export type UpstreamView = Pick<McpView, "holdsConnections" | "states" | "connection">;

interface Upstream {
  name: string;
  connection: McpConnection;
  namespaced: boolean;
  capabilities: Record<string, unknown>;
}

/** The connected servers that declare `capability`, in config order. */
function upstreams(view: UpstreamView, capability: "prompts" | "resources" | "completions"): Upstream[] {
  const out: Upstream[] = [];
  for (const s of view.states()) {
    const connection = view.connection(s.name);
    if (s.state !== "connected" || !connection || !isObject(s.capabilities?.[capability])) continue;
    out.push({ name: s.name, connection, namespaced: connection.config.namespace !== false, capabilities: s.capabilities ?? {} });
  }
  return out;
}

/** An upstream's JSON-RPC error as the same error to our client; anything else as an internal error naming the server. */
function relay(err: unknown, server: string): Error {
  if (err instanceof ProtocolError) return err;
  const code = isObject(err) && typeof err.code === "number" && Number.isInteger(err.code) && err.code < 0 ? err.code : undefined;
  const message = err instanceof Error ? err.message : String(err);
  if (code !== undefined) return new ProtocolError(code, message.replace(/^MCP error -?\d+: /, ""));
  return new ProtocolError(ProtocolErrorCode.InternalError, `MCP server "${server}" failed: ${message}`.slice(0, 500));
}

const MAX_PAGES = 100;

/** Every page of an upstream list (`prompts/list`, `resources/list`, `resources/templates/list`); at most 100 pages. */
export async function listAll(u: Pick<Upstream, "name" | "connection">, method: string, key: string, signal?: AbortSignal): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let cursor: string | undefined;
  for (let i = 0; i < MAX_PAGES; i++) {
    let page: Record<string, unknown>;
    try {
      page = await u.connection.request(method, cursor === undefined ? {} : { cursor }, { signal });
    } catch (err) {
      throw relay(err, u.name);
    }
    const list = page[key];
    if (Array.isArray(list)) items.push(...list.filter(isObject));
    cursor = typeof page.nextCursor === "string" && page.nextCursor ? page.nextCursor : undefined;
    if (!cursor) break;
  }
  return items;
}

/** Lists of every server, one after the other; a server that fails to answer is left out (and logged). */
async function gather(list: Upstream[], each: (u: Upstream) => Promise<Record<string, unknown>[]>): Promise<Record<string, unknown>[]> {
  const settled = await Promise.allSettled(list.map(each));
  return settled.flatMap((r, i) => {
    if (r.status === "fulfilled") return r.value;
    console.warn(
      `[tool-studio] MCP endpoint: listing from MCP server "${list[i]!.name}" failed: ${r.reason instanceof Error ? r.reason.message : String(r.reason)}`,
    );
    return [];
  });
}

const promptName = (u: Upstream, name: string): string => (u.namespaced ? namespacedName(u.name, name) : name);

export async function listPrompts(view: UpstreamView, signal?: AbortSignal): Promise<Record<string, unknown>[]> {
  return gather(upstreams(view, "prompts"), async (u) =>
    (await listAll(u, "prompts/list", "prompts", signal)).map((p) => ({ ...p, name: promptName(u, String(p.name)) })),
  );
}

/** Which server has the prompt our clients call `name`, and its own name for it. */
async function findPrompt(view: UpstreamView, name: string, signal?: AbortSignal): Promise<{ u: Upstream; own: string }> {
  for (const u of upstreams(view, "prompts")) {
    if (u.namespaced) {
      const prefix = `${u.name}__`;
      if (name.startsWith(prefix)) return { u, own: name.slice(prefix.length) };
      continue;
    }
    const own = await listAll(u, "prompts/list", "prompts", signal);
    if (own.some((p) => p.name === name)) return { u, own: name };
  }
  throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown prompt: ${name}`);
}

export async function getPrompt(
  view: UpstreamView,
  name: string,
  args: Record<string, string> | undefined,
  signal?: AbortSignal,
): Promise<Record<string, unknown>> {
  const { u, own } = await findPrompt(view, name, signal);
  try {
    return await u.connection.request("prompts/get", { name: own, ...(args ? { arguments: args } : {}) }, { signal });
  } catch (err) {
    throw relay(err, u.name);
  }
}

export async function listResources(view: UpstreamView, signal?: AbortSignal): Promise<Record<string, unknown>[]> {
  return gather(upstreams(view, "resources"), (u) => listAll(u, "resources/list", "resources", signal));
}

export async function listResourceTemplates(view: UpstreamView, signal?: AbortSignal): Promise<Record<string, unknown>[]> {
  // Templates are optional under the resources capability: a server without the method has none
  // (as its page says, lib/servers/browse.ts), which is no failure to report.
  return gather(upstreams(view, "resources"), (u) =>
    listAll(u, "resources/templates/list", "resourceTemplates", signal).catch((err: unknown) => {
      if (err instanceof ProtocolError && err.code === ProtocolErrorCode.MethodNotFound) return [];
      throw err;
    }),
  );
}

/** The code earlier revisions used for an unknown resource (2026-07-28: -32602 with `data.uri`). */
const RESOURCE_NOT_FOUND = -32002;

/** Reads `uri` from the first server that has it (config order); resource-not-found (-32602, `data: {uri}`) when none does. */
export async function readResource(view: UpstreamView, uri: string, signal?: AbortSignal): Promise<Record<string, unknown>> {
  let last: Error | undefined;
  for (const u of upstreams(view, "resources")) {
    try {
      return await u.connection.request("resources/read", { uri }, { signal });
    } catch (err) {
      last = relay(err, u.name);
    }
  }
  if (last instanceof ProtocolError && last.code !== RESOURCE_NOT_FOUND && last.code !== ProtocolErrorCode.InvalidParams) throw last;
  throw new ResourceNotFoundError(uri.slice(0, 2_000));
}

/**
 * `completion/complete` for a re-offered prompt (routed like prompts/get) or resource template
 * (asked of the servers offering completions, first answer with values wins).
 */
export async function complete(view: UpstreamView, params: Record<string, unknown>, signal?: AbortSignal): Promise<Record<string, unknown>> {
  const ref = isObject(params.ref) ? params.ref : {};
  const empty = { completion: { values: [], total: 0, hasMore: false } };
  if (ref.type === "ref/prompt" && typeof ref.name === "string") {
    const { u, own } = await findPrompt(view, ref.name, signal);
    if (!isObject(u.capabilities.completions)) return empty;
    try {
      return await u.connection.request("completion/complete", { ...params, ref: { ...ref, name: own } }, { signal });
    } catch (err) {
      throw relay(err, u.name);
    }
  }
  for (const u of upstreams(view, "completions")) {
    const r = await u.connection.request("completion/complete", params, { signal }).catch(() => null);
    if (r && isObject(r.completion) && Array.isArray(r.completion.values) && r.completion.values.length) return r;
  }
  return empty;
}
