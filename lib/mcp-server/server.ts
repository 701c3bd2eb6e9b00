import {
  CLIENT_INFO_META_KEY,
  createMcpHandler,
  InMemoryServerEventBus,
  isLegacyRequest,
  legacyStatelessFallback,
  PROTOCOL_VERSION_META_KEY,
  ProtocolError,
  ProtocolErrorCode,
  Server,
  type CallToolResult,
  type CreateMessageRequest,
  type ElicitRequestFormParams,
  type ElicitRequestURLParams,
  type CompleteResult,
  type GetPromptResult,
  type Prompt,
  type ReadResourceResult,
  type Resource,
  type ListResourceTemplatesResult,
  type LegacyHttpHandler,
  type McpHttpHandler,
  type ServerContext,
  type Tool,
} from "@modelcontextprotocol/server";
import { isUnknownToolError, type ExecuteRequest } from "../execution/execute";
import { auditSummary, inputTimeoutMs, type InputAnswer, type InputRelay } from "../execution/pending-input";
import type { AuditLog } from "../audit/log";
import { MAX_BODY_BYTES } from "../http/http";
import type { Registry } from "../registry/registry";
import type { Run } from "../runs/types";
import { AsyncLocalStorage } from "node:async_hooks";
import type { Principal } from "../auth/principal";
import { toCallToolResult, toMcpTool } from "./mapping";
import { LegacySessions } from "./sessions";
import { ToolListWatcher } from "./changes";
import { page, pageSize } from "./paging";
import type { McpView } from "../mcp/source";
import * as upstream from "./upstream";
import { SessionFollows } from "./follows";

/** What the MCP endpoint needs of the studio (a full `Studio` fits). */
export interface McpStudio {
  registry: Pick<Registry, "list" | "get"> & Partial<Pick<Registry, "subscribe">>;
  execute(req: ExecuteRequest): Promise<Run>;
  /**
   * The configured MCP servers: the first `tools/list` waits (bounded) until they connected or
   * failed; where this process holds their connections, their prompts and resources are re-offered.
   */
  mcp?: Pick<McpView, "settled"> & Partial<upstream.UpstreamView>;
  /** Where a relayed answer (a server's request for input answered by the MCP client) is audited as `run.input`. */
  audit?: Pick<AuditLog, "append">;
}

export interface McpServerDeps {
  /** The studio, or how to get it (resolved only for requests that pass the token check). */
  studio: McpStudio | (() => Promise<McpStudio>);
  /** Who runs are attributed to when a call has no principal (tests that build the server directly). */
  actor?: string | (() => string);
}

/** The caller of the request being served; the one door (lib/studio/guarded.ts) established it. */
const caller = new AsyncLocalStorage<Principal>();

export const SERVER_INFO = { name: "tool-studio", title: "Tool Studio", version: "0.1.0" };

const INSTRUCTIONS =
  "Tool Studio's registry: built-in tools, tools proxied from configured MCP servers and tools defined at run time. " +
  "Every call is captured as a run (origin mcp) that can be inspected and replayed in the studio.";

/**
 * Serves the studio's registry over MCP Streamable HTTP, for a Fetch `Request`.
 *
 * 2026-07-28 requests are stateless (each carries its protocol version and client info in
 * `_meta`; cancelling is closing the response stream) and go to the SDK's per-request handler.
 * 2025-era clients get a session from `initialize` on (kept in memory with an idle timeout), so
 * their client name is known and `notifications/cancelled` reaches the run it names;
 * session-less 2025-era requests are still answered, statelessly.
 */
export async function handleMcpRequest(request: Request, deps: McpServerDeps, principal?: Principal): Promise<Response> {
  if (principal) return caller.run(principal, () => serveMcp(request, deps));
  return serveMcp(request, deps);
}

async function serveMcp(request: Request, deps: McpServerDeps): Promise<Response> {
  let studio: McpStudio;
  try {
    studio = typeof deps.studio === "function" ? await deps.studio() : deps.studio;
  } catch (err) {
    console.error("[tool-studio] MCP endpoint: the studio failed to start", err);
    return Response.json(
      { jsonrpc: "2.0", id: null, error: { code: ProtocolErrorCode.InternalError, message: "The studio is not available; see the server log." } },
      { status: 503 },
    );
  }
  const endpoint = await endpointFor(studio, deps);
  if (await isLegacyRequest(request, undefined, { maxRequestBodySize: MAX_BODY_BYTES })) {
    return endpoint.sessions.handle(request, endpoint.stateless);
  }
  return endpoint.modern.fetch(request);
}

interface Endpoint {
  modern: McpHttpHandler;
  stateless: LegacyHttpHandler;
  sessions: LegacySessions;
  watcher: ToolListWatcher;
}

// One endpoint per studio, built on first use with that call's deps, and kept on globalThis so
// Next's dev reloads keep the 2025-era sessions.
const g = globalThis as typeof globalThis & { __toolStudioMcp?: WeakMap<McpStudio, Promise<Endpoint>> };

function endpointFor(studio: McpStudio, deps: McpServerDeps): Promise<Endpoint> {
  const endpoints = (g.__toolStudioMcp ??= new WeakMap());
  let endpoint = endpoints.get(studio);
  if (!endpoint) {
    endpoint = createEndpoint(studio, deps);
    endpoints.set(studio, endpoint);
    // A failed start is not kept: the next request tries again.
    endpoint.catch(() => endpoints.delete(studio));
  }
  return endpoint;
}

async function createEndpoint(studio: McpStudio, deps: McpServerDeps): Promise<Endpoint> {
  const factory = () => createStudioMcpServer(studio, deps);
  const onerror = (err: Error) => console.warn("[tool-studio] MCP endpoint:", err.message);
  const bus = new InMemoryServerEventBus(onerror);
  const modern = createMcpHandler(factory, { legacy: "reject", maxRequestBodySize: MAX_BODY_BYTES, onerror, bus });
  const sessions = new LegacySessions(factory, { maxRequestBodySize: MAX_BODY_BYTES, onerror });
  // Connected clients hear of every change of the tool list: 2026-07-28 ones on their
  // subscriptions/listen stream, 2025-era ones on their session's stream.
  const watcher = new ToolListWatcher({
    list: () => studio.registry.list(),
    subscribe: studio.registry.subscribe?.bind(studio.registry),
    active: () => bus.listenerCount > 0 || sessions.size > 0,
    onChange: () => {
      modern.notify.toolsChanged();
      sessions.toolsChanged();
    },
  });
  await watcher.start();
  return { modern, stateless: legacyStatelessFallback(factory, onerror, { maxRequestBodySize: MAX_BODY_BYTES }), sessions, watcher };
}

/** Closes the 2025-era sessions of a studio's endpoint (tests, shutdown). */
export async function closeMcpEndpoint(studio: McpStudio): Promise<void> {
  const pending = g.__toolStudioMcp?.get(studio);
  if (!pending) return;
  g.__toolStudioMcp?.delete(studio);
  const endpoint = await pending;
  endpoint.watcher.close();
  await Promise.all([endpoint.sessions.closeAll(), endpoint.modern.close()]);
}

/**
 * A low-level MCP server over the studio's registry: raw JSON Schemas go out exactly as the
 * tools declare them, and every call runs through `studio.execute` so it is captured.
 */
export function createStudioMcpServer(studio: McpStudio, deps: Pick<McpServerDeps, "actor"> = {}): Server {
  // logging: `logging/setLevel` (the SDK's handler) sets the level of the log messages sent during a call.
  const view = upstreamView(studio);
  const capabilities = view
    ? { tools: { listChanged: true }, logging: {}, prompts: { listChanged: false }, resources: { subscribe: true, listChanged: false }, completions: {} }
    : { tools: { listChanged: true }, logging: {} };
  const server = new Server(SERVER_INFO, { capabilities, instructions: INSTRUCTIONS });
  if (view) offerUpstream(server, view);

  server.setRequestHandler("tools/list", async (request, ctx) => {
    await configuredServersSettled(studio);
    const specs = await studio.registry.list();
    const era = envelopeOf(ctx)?.[PROTOCOL_VERSION_META_KEY] !== undefined ? "modern" : "legacy";
    const { items, nextCursor } = page(specs, request.params?.cursor, pageSize());
    return { tools: items.map((s) => toMcpTool(s, era) as Tool), ...(nextCursor ? { nextCursor } : {}) };
  });

  server.setRequestHandler("tools/call", async (request, ctx) => {
    const { name } = request.params;
    const progressToken = ctx.mcpReq._meta?.progressToken;
    let run: Run;
    try {
      const who = caller.getStore();
      const relay = relayTo(ctx, server, studio, name, who?.actor ?? actorOf(deps), who?.userId ?? null);
      run = await studio.execute({
        tool: name,
        arguments: request.params.arguments ?? {},
        origin: "mcp",
        // The run policy applies to MCP clients as to everyone; they are agents, so nobody confirms.
        ...(who ? { actor: who.actor, actorId: who.userId, tokenId: who.tokenId, role: who.role } : { actor: actorOf(deps) }),
        clientName: clientNameOf(ctx, server),
        signal: ctx.mcpReq.signal,
        ...(relay ? { relay } : {}),
        onProgress:
          progressToken === undefined
            ? undefined
            : (p) => {
                const params = { progressToken, progress: p.progress, ...(p.total !== undefined ? { total: p.total } : {}), ...(p.message !== undefined ? { message: p.message } : {}) };
                ctx.mcpReq.notify({ method: "notifications/progress", params }).catch(() => {});
              },
      });
    } catch (err) {
      if (isUnknownToolError(err)) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown tool: ${name}`);
      console.error("[tool-studio] MCP tools/call failed", err);
      throw new ProtocolError(ProtocolErrorCode.InternalError, "Internal error in the studio; see the server log.");
    }
    const spec = run.status === "success" ? (await studio.registry.get(name))?.spec : undefined;
    // The SDK's codec shapes the result for the client's protocol era (e.g. 2025-era wrapping).
    return server.projectCallToolResult(toCallToolResult(run) as CallToolResult, spec?.outputSchema);
  });

  return server;
}

/**
 * Relays a configured server's elicitation / sampling requests during a call to the MCP client
 * that made it, when that client declared the capability: sent on the same call (the SDK's
 * server-to-client request, 2025-era sessions), its answer checked for shape by the SDK, audited
 * as `run.input` like a person's answer, and handed back to the server unchanged. The 2026-07-28
 * era has no server-to-client requests during a call (input_required round trips instead): not
 * relayed yet, so those clients' servers are refused at once, as for a client without the capability.
 */
function relayTo(ctx: ServerContext, server: Server, studio: McpStudio, tool: string, actor: string, userId: string | null): InputRelay | undefined {
  if (envelopeOf(ctx)?.[PROTOCOL_VERSION_META_KEY] !== undefined) return undefined;
  const caps = server.getClientCapabilities();
  const kinds = { elicitation: caps?.elicitation !== undefined, sampling: caps?.sampling !== undefined };
  if (!kinds.elicitation && !kinds.sampling) return undefined;
  return {
    kinds,
    async ask(view, params, signal) {
      // The pending request's own timer ends it; the SDK's request timeout must not come first.
      const options = { signal, timeout: inputTimeoutMs() + 5_000 };
      let answer: InputAnswer;
      let result: Record<string, unknown>;
      if (view.kind === "elicitation") {
        const r = await ctx.mcpReq.elicitInput(params as ElicitRequestFormParams | ElicitRequestURLParams, options);
        answer = r.action === "accept" ? { action: "accept", ...(r.content ? { content: { ...r.content } } : {}) } : { action: r.action };
        result = { ...r };
      } else {
        const r = await ctx.mcpReq.requestSampling(params as CreateMessageRequest["params"], options);
        answer = { action: "approve", text: samplingText(r.content), model: r.model };
        result = { ...r };
      }
      await studio.audit?.append({ actor, action: "run.input", target: tool, detail: { ...auditSummary(view, answer), relayed: true, userId: userId ?? undefined }, from: null });
      return { answer, relayed: { kind: view.kind, result } };
    },
  };
}

/** A sampling reply's text, for the audit (its length) and the run's events; other content is described. */
function samplingText(content: unknown): string {
  const blocks = Array.isArray(content) ? content : [content];
  return blocks.map((b: unknown) => (typeof b === "object" && b !== null && "type" in b ? (b.type === "text" && "text" in b && typeof b.text === "string" ? b.text : `[${String(b.type)}]`) : "")).join("\n");
}

/** The configured servers' connections, where this process holds them (else no prompts or resources are offered). */
function upstreamView(studio: McpStudio): upstream.UpstreamView | null {
  const m = studio.mcp;
  if (!m?.holdsConnections || !m.states || !m.connection) return null;
  return { holdsConnections: true, states: m.states.bind(m), connection: m.connection.bind(m) };
}

/** Prompts, resources, resource templates and completions of the configured MCP servers (lib/mcp-server/upstream.ts). */
function offerUpstream(server: Server, view: upstream.UpstreamView): void {
  const size = () => pageSize();
  server.setRequestHandler("prompts/list", async (request, ctx) => {
    const { items, nextCursor } = page(await upstream.listPrompts(view, ctx.mcpReq.signal), request.params?.cursor, size());
    return { prompts: items as Prompt[], ...(nextCursor ? { nextCursor } : {}) };
  });
  server.setRequestHandler("prompts/get", async (request, ctx) => (await upstream.getPrompt(view, request.params.name, request.params.arguments, ctx.mcpReq.signal)) as GetPromptResult);
  server.setRequestHandler("resources/list", async (request, ctx) => {
    const { items, nextCursor } = page(await upstream.listResources(view, ctx.mcpReq.signal), request.params?.cursor, size());
    return { resources: items as Resource[], ...(nextCursor ? { nextCursor } : {}) };
  });
  server.setRequestHandler("resources/templates/list", async (request, ctx) => {
    const { items, nextCursor } = page(await upstream.listResourceTemplates(view, ctx.mcpReq.signal), request.params?.cursor, size());
    return { resourceTemplates: items as ListResourceTemplatesResult["resourceTemplates"], ...(nextCursor ? { nextCursor } : {}) };
  });
  server.setRequestHandler("resources/read", async (request, ctx) => (await upstream.readResource(view, request.params.uri, ctx.mcpReq.signal)) as ReadResourceResult);
  // 2025-era sessions (one Server each): a subscription follows the URI at every server that
  // takes subscriptions, shared with everyone else following it (lib/servers/follow.ts), and
  // relays its updates to this session; released on unsubscribe or when the session closes.
  const following = new SessionFollows(view, (uri) => server.notification({ method: "notifications/resources/updated", params: { uri } }));
  server.setRequestHandler("resources/subscribe", async (request) => {
    await following.subscribe(request.params.uri);
    return {};
  });
  server.setRequestHandler("resources/unsubscribe", (request) => {
    following.unsubscribe(request.params.uri);
    return {};
  });
  const closed = server.onclose;
  server.onclose = () => {
    following.close();
    closed?.();
  };
  server.setRequestHandler("completion/complete", async (request, ctx) => (await upstream.complete(view, { ...request.params }, ctx.mcpReq.signal)) as CompleteResult);
}

/** How long the first `tools/list` after a start waits for the configured MCP servers (STUDIO_MCP_LIST_WAIT_MS, default 10 s). */
export function listWaitMs(env: Record<string, string | undefined> = process.env): number {
  const n = Number(env.STUDIO_MCP_LIST_WAIT_MS);
  return env.STUDIO_MCP_LIST_WAIT_MS !== undefined && Number.isFinite(n) && n >= 0 ? Math.min(n, 120_000) : 10_000;
}

const settledOnce = new WeakMap<McpStudio, Promise<void>>();

/**
 * Resolves once the configured MCP servers connected or failed, or after listWaitMs: a client
 * listing right after a start sees every server's tools, not the few that were ready. Waited for
 * once per studio; later lists answer at once (and changes are announced by list_changed).
 */
function configuredServersSettled(studio: McpStudio): Promise<void> {
  if (!studio.mcp) return Promise.resolve();
  let p = settledOnce.get(studio);
  if (!p) {
    p = studio.mcp.settled(listWaitMs()).catch((err: unknown) => console.warn("[tool-studio] MCP endpoint: waiting for the MCP servers failed:", err instanceof Error ? err.message : err));
    settledOnce.set(studio, p);
  }
  return p;
}

function actorOf(deps: Pick<McpServerDeps, "actor">): string {
  const a = typeof deps.actor === "function" ? deps.actor() : deps.actor;
  return a || "mcp";
}

/** The reserved `io.modelcontextprotocol/*` keys of a 2026-07-28 request's `_meta`; none on 2025-era requests. */
const envelopeOf = (ctx: ServerContext) => ctx.mcpReq.envelope as Record<string, unknown> | undefined;

/** The client's name: from the request's `_meta` envelope (2026-07-28), else from `initialize`. */
function clientNameOf(ctx: ServerContext, server: Server): string | undefined {
  const info = envelopeOf(ctx)?.[CLIENT_INFO_META_KEY] as { name?: unknown } | undefined;
  if (typeof info?.name === "string" && info.name) return info.name;
  const legacy = server.getClientVersion()?.name;
  return legacy || undefined;
}
