import { processSlot } from "../process/slots";
import {
  CLIENT_INFO_META_KEY,
  createMcpHandler,
  InMemoryServerEventBus,
  CLIENT_CAPABILITIES_META_KEY,
  inputRequired,
  inputResponse,
  isLegacyRequest,
  isSpecType,
  legacyStatelessFallback,
  LOG_LEVEL_META_KEY,
  PROTOCOL_VERSION_META_KEY,
  ProtocolError,
  ProtocolErrorCode,
  Server,
  type CallToolResult,
  type CreateMessageRequest,
  type ElicitRequestFormParams,
  type ElicitRequestURLParams,
  type InputRequests,
  type InputResponses,
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
import { auditSummary, checkAnswer, inputTimeoutMs, type InputAnswer, type InputRelay, type PendingInputView } from "../execution/pending-input";
import type { AuditLog } from "../audit/log";
import { MAX_BODY_BYTES } from "../http/http";
import type { Registry } from "../registry/registry";
import type { Run } from "../runs/types";
import type { LogLevel } from "../tools/define";
import { isLogLevel } from "../mcp/log-messages";
import type { DomainService } from "../domains/service";
import type { ToolSpec } from "../tools/spec";
import { resolveChoices, withDomainChoices } from "./domains";
import { InputFlow, type FlowRequest } from "./input-flow";
import type { Principal } from "../auth/principal";
import { META, toCallToolResult, toMcpTool } from "./mapping";
import { idempotencyKeyProblem } from "../execution/idempotency";
import { LegacySessions } from "./sessions";
import { authInfoOf, callerOf } from "./caller";
import { surelyModern } from "./era";
import { ListWatcher, ToolListWatcher } from "./changes";
import { page, pageSize } from "./paging";
import type { McpManagerEvent, McpView } from "../mcp/source";
import { canonicalJson } from "../tools/hash";
import * as upstream from "./upstream";
import { SessionFollows } from "./follows";
import { guardMethods, methodRefusal } from "./access";
import { confirmCall, isConfirmationState } from "./confirm";
import { mcpMethodAccess } from "../auth/routes";

/** What the MCP endpoint needs of the studio (a full `Studio` fits). */
export interface McpStudio {
  registry: Pick<Registry, "list" | "get"> & Partial<Pick<Registry, "subscribe">>;
  execute(req: ExecuteRequest): Promise<Run>;
  /**
   * The configured MCP servers: the first `tools/list` waits (bounded) until they connected or
   * failed; where this process holds their connections, their prompts and resources are re-offered.
   */
  mcp?: Pick<McpView, "settled"> & Partial<upstream.UpstreamView> & { subscribe?(listener: (event: McpManagerEvent) => void): () => void };
  /** Option domains: their current choices go into the listed input schemas (lib/mcp-server/domains.ts). */
  domains?: Pick<DomainService, "resolve">;
  /** Where a relayed answer (a server's request for input answered by the MCP client) is audited as `run.input`. */
  audit?: Pick<AuditLog, "append">;
}

export interface McpServerDeps {
  /** The studio, or how to get it (resolved only for requests that pass the token check). */
  studio: McpStudio | (() => Promise<McpStudio>);
  /** Who runs are attributed to when a call has no principal (tests that build the server directly). */
  actor?: string | (() => string);
}

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
export async function handleMcpRequest(request: Request, deps: McpServerDeps, principal?: Principal, body?: McpBody): Promise<Response> {
  return serveMcp(request, deps, principal, body);
}

/**
 * A POST body the caller has read and parsed already (app/api/mcp reads it under the one limit):
 * the SDK then classifies and serves the request from it instead of cloning the request and
 * parsing its body again at each step (measured: two clones and three parses per call).
 */
export interface McpBody {
  parsedBody: unknown;
}

async function serveMcp(request: Request, deps: McpServerDeps, principal: Principal | undefined, body: McpBody | undefined): Promise<Response> {
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
  const parsedBody = body?.parsedBody;
  if (!surelyModern(request, parsedBody) && (await isLegacyRequest(request, parsedBody, { maxRequestBodySize: MAX_BODY_BYTES }))) {
    return endpoint.sessions.handle(request, endpoint.stateless, principal, body);
  }
  return endpoint.modern.fetch(request, { ...(body ? { parsedBody } : {}), ...(principal ? { authInfo: authInfoOf(principal) } : {}) });
}

interface Endpoint {
  modern: McpHttpHandler;
  stateless: LegacyHttpHandler;
  sessions: LegacySessions;
  watchers: ListWatcher<unknown>[];
}

// One endpoint per studio, built on first use with that call's deps, and kept per process
// (lib/process/slots.ts) so Next's dev reloads keep the 2025-era sessions.
const endpointsSlot = processSlot<WeakMap<McpStudio, Promise<Endpoint>>>("mcpEndpoints");

function endpointFor(studio: McpStudio, deps: McpServerDeps): Promise<Endpoint> {
  const endpoints = endpointsSlot.use(() => new WeakMap());
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
  // The choices of option domains are part of what is listed: a config edit that changes them is a change too.
  const watcher = new ToolListWatcher({
    list: async () => Promise.all((await studio.registry.list()).map((s) => withChoices(studio, s))),
    subscribe: studio.registry.subscribe?.bind(studio.registry),
    active: () => bus.listenerCount > 0 || sessions.size > 0,
    onChange: () => {
      modern.notify.toolsChanged();
      sessions.listChanged("tools");
    },
  });
  await watcher.start();
  const watchers: ListWatcher<unknown>[] = [
    watcher,
    ...upstreamWatchers(studio, { active: () => bus.listenerCount > 0 || sessions.size > 0, modern, sessions }),
  ];
  return { modern, stateless: legacyStatelessFallback(factory, onerror, { maxRequestBodySize: MAX_BODY_BYTES }), sessions, watchers };
}

/**
 * The configured servers' prompts and resources (with templates) as the endpoint re-offers them,
 * followed like the tools: looked at again when a server says they changed (list_changed), when
 * a server is added, removed, goes down or comes back; a change is told to connected clients as
 * prompts/list_changed or resources/list_changed. No polling: a server whose lists change says so.
 */
function upstreamWatchers(studio: McpStudio, to: { active(): boolean; modern: McpHttpHandler; sessions: LegacySessions }): ListWatcher<unknown>[] {
  const view = upstreamView(studio);
  const subscribe = studio.mcp?.subscribe?.bind(studio.mcp);
  if (!view || !subscribe) return [];
  const kinds = [
    { kind: "prompts" as const, list: () => upstream.listPrompts(view), changed: () => to.modern.notify.promptsChanged() },
    {
      kind: "resources" as const,
      list: async () => [...(await upstream.listResources(view)), ...(await upstream.listResourceTemplates(view))],
      changed: () => to.modern.notify.resourcesChanged(),
    },
  ];
  return kinds.map(({ kind, list, changed }) => {
    const w = new ListWatcher<Record<string, unknown>>({
      list,
      fingerprint: (items) => canonicalJson(items),
      // Only while someone listens: the servers are not asked for their lists for nobody (the
      // baseline may then be old, and the first change heard after it is told even if it is none).
      subscribe: (signal) => subscribe((e) => to.active() && (e.type === "lists" ? e.kind === kind : e.type !== "tools") && signal()),
      active: to.active,
      pollMs: 0,
      onChange: () => {
        changed();
        to.sessions.listChanged(kind);
      },
    });
    // The baseline is taken in the background: a slow server must not hold up the endpoint.
    w.start().catch(() => {});
    return w;
  });
}

/** Closes the 2025-era sessions of a studio's endpoint (tests, shutdown). */
export async function closeMcpEndpoint(studio: McpStudio): Promise<void> {
  const pending = endpointsSlot.get()?.get(studio);
  if (!pending) return;
  endpointsSlot.get()?.delete(studio);
  const endpoint = await pending;
  for (const w of endpoint.watchers) w.close();
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
    ? { tools: { listChanged: true }, logging: {}, prompts: { listChanged: true }, resources: { subscribe: true, listChanged: true }, completions: {} }
    : { tools: { listChanged: true }, logging: {} };
  const server = new Server(SERVER_INFO, { capabilities, instructions: INSTRUCTIONS });
  // Before any handler is set: each one checks its method's role (lib/mcp-server/access.ts).
  guardMethods(server, { caller: callerOf, audit: studio.audit });
  if (view) offerUpstream(server, view);
  else if (studio.mcp?.holdsConnections === false) {
    server.fallbackRequestHandler = async (request, ctx) => {
      const who = callerOf(ctx);
      return Promise.reject((who && mcpMethodAccess(request.method) && methodRefusal(request.method, who)) || notOfferedHere(request.method));
    };
  }

  server.setRequestHandler("tools/list", async (request, ctx) => {
    await configuredServersSettled(studio);
    const specs = await studio.registry.list();
    const era = envelopeOf(ctx)?.[PROTOCOL_VERSION_META_KEY] !== undefined ? "modern" : "legacy";
    const { items, nextCursor } = page(specs, request.params?.cursor, pageSize());
    const tools = await Promise.all(items.map(async (s) => toMcpTool(await withChoices(studio, s), era) as Tool));
    return { tools, ...(nextCursor ? { nextCursor } : {}) };
  });

  server.setRequestHandler("tools/call", async (request, ctx) => {
    const { name } = request.params;
    const progressToken = ctx.mcpReq._meta?.progressToken;
    const who = callerOf(ctx);
    const actor = who?.actor ?? actorOf(deps);
    // A 2026-07-28 client answering what the call's run asked for (input_required), and retrying it.
    const state = ctx.mcpReq.requestState<string>();
    if (state !== undefined && !isConfirmationState(state)) return continueCall(server, studio, ctx, { name, actor, state });
    const kinds = askKinds(ctx, server);
    const args = request.params.arguments ?? {};
    // Destructive tools are confirmed as on REST, through elicitation (confirm.ts); the run policy still decides who may.
    const spec = (await studio.registry.get(name))?.spec;
    const confirmation = await confirmCall(ctx, { spec, actor, args, elicitation: kinds?.elicitation === true, modern: isModern(ctx), state });
    if ("ask" in confirmation) return confirmation.ask;
    const flow = kinds && isModern(ctx) ? new InputFlow<Run, PendingInputView>(actor, name) : undefined;
    const relay = kinds ? relayTo(ctx, studio, { kinds, tool: name, actor, userId: who?.userId ?? null, flow }) : undefined;
    const run = studio.execute({
      tool: name,
      arguments: args,
      origin: "mcp",
      ...idempotencyKeyOf(ctx),
      requireConfirmation: true,
      confirmed: confirmation.confirmed,
      confirmHow: confirmation.how,
      ...(who ? { actor: who.actor, actorId: who.userId, tokenId: who.tokenId, role: who.role } : { actor }),
      clientName: clientNameOf(ctx, server),
      // With a flow, the run outlives this request (input_required ends it; a retry continues).
      signal: flow ? flow.signal : ctx.mcpReq.signal,
      ...(relay ? { relay } : {}),
      ...logsTo(ctx),
      onProgress:
        progressToken === undefined
          ? undefined
          : (p) => {
              const params = {
                progressToken,
                progress: p.progress,
                ...(p.total !== undefined ? { total: p.total } : {}),
                ...(p.message !== undefined ? { message: p.message } : {}),
              };
              ctx.mcpReq.notify({ method: "notifications/progress", params }).catch(() => {});
            },
    });
    if (!flow) return callResult(server, studio, name, await run.catch((err: unknown) => Promise.reject(callError(err, name))), spec);
    flow.follow(run);
    return nextStep(server, studio, ctx, flow);
  });

  return server;
}

/** The call's idempotency key from its `_meta` (dev.toolstudio/idempotencyKey), checked as REST checks the header. */
function idempotencyKeyOf(ctx: ServerContext): Pick<ExecuteRequest, "idempotencyKey"> {
  const key = ctx.mcpReq._meta?.[META.idempotencyKey];
  if (key === undefined) return {};
  const problem = typeof key === "string" ? idempotencyKeyProblem(key) : "must be a string";
  if (problem) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `_meta["${META.idempotencyKey}"] ${problem}.`);
  return { idempotencyKey: key as string };
}

/** A failed execute as the client's error: an unknown tool is -32602, anything else an internal error (logged). */
function callError(err: unknown, name: string): ProtocolError {
  if (isUnknownToolError(err)) return new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown tool: ${name}`);
  console.error("[tool-studio] MCP tools/call failed", err);
  return new ProtocolError(ProtocolErrorCode.InternalError, "Internal error in the studio; see the server log.");
}

/**
 * A finished run as the tools/call result; the SDK's codec shapes it for the client's protocol era
 * (e.g. 2025-era wrapping). `known` is the spec the call already looked up (no second lookup).
 */
async function callResult(server: Server, studio: McpStudio, name: string, run: Run, known?: ToolSpec) {
  if (run.status !== "success") return server.projectCallToolResult(toCallToolResult(run) as CallToolResult, undefined);
  const spec = known ?? (await studio.registry.get(name))?.spec;
  return server.projectCallToolResult(toCallToolResult(run) as CallToolResult, spec?.outputSchema);
}

/** What this request of a flow answers: the run's result, or input_required with what the run asks now. */
async function nextStep(server: Server, studio: McpStudio, ctx: ServerContext, flow: InputFlow<Run, PendingInputView>) {
  const step = await flow.next(ctx.mcpReq.signal);
  if ("ask" in step) return inputRequired({ inputRequests: step.ask as InputRequests, requestState: flow.token });
  if ("failed" in step) throw callError(step.failed, flow.tool);
  return callResult(server, studio, flow.tool, step.done);
}

/**
 * A retried tools/call of a 2026-07-28 client: its `inputResponses` answer what the run asked
 * (checked for shape, and an accepted form against its requested schema, before anything is
 * handed on); a request it left unanswered is asked again. Then as a first request: the result,
 * or input_required again.
 */
async function continueCall(server: Server, studio: McpStudio, ctx: ServerContext, call: { name: string; actor: string; state: string }) {
  const found = InputFlow.find(call.state);
  if (!found || found.owner !== call.actor || found.tool !== call.name) {
    throw new ProtocolError(
      ProtocolErrorCode.InvalidParams,
      "The requestState names no call of this tool waiting for input here: the call ended, its request for input timed out, or it runs on another instance of the studio. Call the tool again without requestState.",
    );
  }
  const flow = found as InputFlow<Run, PendingInputView>;
  const responses = ctx.mcpReq.inputResponses ?? {};
  const answers: [string, Record<string, unknown>][] = [];
  for (const [key, { request, view }] of flow.outstanding()) {
    if (!(key in responses)) continue;
    answers.push([key, checkedResponse(key, request.method, view, responses[key])]);
  }
  for (const [key] of flow.outstanding()) if (!(key in responses)) flow.resend(key);
  for (const [key, result] of answers) flow.answer(key, result);
  return nextStep(server, studio, ctx, flow);
}

/** A client's response to an embedded request, checked: an elicitation result (accepted content against the requested schema) or a sampling result. */
function checkedResponse(key: string, method: FlowRequest["method"], view: PendingInputView, value: unknown): Record<string, unknown> {
  const bad = (why: string) => new ProtocolError(ProtocolErrorCode.InvalidParams, `inputResponses.${key}: ${why}`);
  if (method === "sampling/createMessage") {
    if (!isSpecType.CreateMessageResult(value) && !isSpecType.CreateMessageResultWithTools(value)) throw bad("not a sampling result (role, content, model).");
    return { ...value };
  }
  const r = inputResponse({ [key]: value } as InputResponses, key);
  if (r.kind !== "elicit") throw bad('not an elicitation result (action "accept", "decline" or "cancel").');
  const answer: InputAnswer = r.action === "accept" ? { action: "accept", ...(r.content ? { content: { ...r.content } } : {}) } : { action: r.action };
  try {
    checkAnswer(view, answer);
  } catch (err) {
    throw bad(err instanceof Error ? err.message : String(err));
  }
  return { action: r.action, ...(r.action === "accept" && r.content ? { content: r.content } : {}) };
}

/** A tool with option domains as listed: its parameters' current choices in its input schema. */
async function withChoices(studio: McpStudio, spec: ToolSpec): Promise<ToolSpec> {
  if (!studio.domains || !spec.paramDomains || !Object.keys(spec.paramDomains).length) return spec;
  return { ...spec, inputSchema: withDomainChoices(spec, await resolveChoices(studio.domains, spec)) };
}

/** Which kinds of request the calling client takes (it declared them); undefined for none. */
function askKinds(ctx: ServerContext, server: Server): InputRelay["kinds"] | undefined {
  // 2026-07-28: each request carries the client's capabilities; 2025-era: from initialize.
  const caps = (isModern(ctx) ? envelopeOf(ctx)?.[CLIENT_CAPABILITIES_META_KEY] : server.getClientCapabilities()) as
    { elicitation?: unknown; sampling?: unknown } | undefined;
  const kinds = { elicitation: caps?.elicitation !== undefined, sampling: caps?.sampling !== undefined };
  return kinds.elicitation || kinds.sampling ? kinds : undefined;
}

/**
 * Relays a configured server's elicitation / sampling requests during a call to the MCP client
 * that made it, when that client declared the capability. 2025-era sessions: sent on the same
 * call (the SDK's server-to-client request; its answer checked for shape by the SDK). 2026-07-28:
 * through the call's `flow` (input_required, then the client's retry brings the answer; see
 * input-flow.ts). Either way the answer is audited as `run.input` like a person's and handed back
 * to the server unchanged.
 */
function relayTo(
  ctx: ServerContext,
  studio: McpStudio,
  call: { kinds: InputRelay["kinds"]; tool: string; actor: string; userId: string | null; flow?: InputFlow<Run, PendingInputView> },
): InputRelay {
  const { flow } = call;
  return {
    kinds: call.kinds,
    async ask(view, params, signal) {
      const method = view.kind === "elicitation" ? "elicitation/create" : "sampling/createMessage";
      // The pending request's own timer ends it; the SDK's request timeout must not come first.
      const options = { signal, timeout: inputTimeoutMs() + 5_000 };
      let result: Record<string, unknown>;
      if (flow) result = await flow.request({ method, params }, view, signal);
      else if (view.kind === "elicitation") result = { ...(await ctx.mcpReq.elicitInput(params as ElicitRequestFormParams | ElicitRequestURLParams, options)) };
      else result = { ...(await ctx.mcpReq.requestSampling(params as CreateMessageRequest["params"], options)) };
      const answer: InputAnswer =
        view.kind === "sampling"
          ? { action: "approve", text: samplingText(result.content), model: typeof result.model === "string" ? result.model : undefined }
          : result.action === "accept"
            ? { action: "accept", ...(isRecord(result.content) ? { content: { ...result.content } } : {}) }
            : { action: result.action === "cancel" ? "cancel" : "decline" };
      await studio.audit?.append({
        actor: call.actor,
        action: "run.input",
        target: call.tool,
        detail: { ...auditSummary(view, answer), relayed: true, userId: call.userId ?? undefined },
        from: null,
      });
      return { answer, relayed: { kind: view.kind, result } };
    },
  };
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const isModern = (ctx: ServerContext): boolean => envelopeOf(ctx)?.[PROTOCOL_VERSION_META_KEY] !== undefined;

/**
 * Where the servers' log messages during a call go: to the MCP client that made it, through the
 * SDK's `log`, which applies that client's level (`logging/setLevel` on a 2025-era session, the
 * request's `io.modelcontextprotocol/logLevel` on 2026-07-28, where no level means no messages).
 * The servers are asked for messages from that level up (2025-era clients: all, filtered here).
 */
function logsTo(ctx: ServerContext): Pick<ExecuteRequest, "logs"> {
  const envelope = envelopeOf(ctx);
  let level: LogLevel = "debug";
  if (envelope?.[PROTOCOL_VERSION_META_KEY] !== undefined) {
    const asked = envelope[LOG_LEVEL_META_KEY];
    if (!isLogLevel(asked)) return {};
    level = asked;
  }
  return {
    logs: {
      level,
      send: (m) => {
        ctx.mcpReq.log(m.level, m.data, m.logger).catch(() => {});
      },
    },
  };
}

/** A sampling reply's text, for the audit (its length) and the run's events; other content is described. */
function samplingText(content: unknown): string {
  const blocks = Array.isArray(content) ? content : [content];
  return blocks
    .map((b: unknown) =>
      typeof b === "object" && b !== null && "type" in b
        ? b.type === "text" && "text" in b && typeof b.text === "string"
          ? b.text
          : `[${String(b.type)}]`
        : "",
    )
    .join("\n");
}

const UPSTREAM_METHODS = /^(prompts\/|resources\/|completion\/complete$)/;

/**
 * Where the process holds no MCP connections (a web instance with STUDIO_WORKER=off) prompts and
 * resources are not offered (not declared either): asked anyway, the answer says why and where
 * they are, as the Servers page's browse API does (409 there). Delegating these reads to a worker
 * would need a request channel the run queue does not have (it carries runs).
 */
function notOfferedHere(method: string): ProtocolError {
  if (!UPSTREAM_METHODS.test(method)) return new ProtocolError(ProtocolErrorCode.MethodNotFound, "Method not found");
  return new ProtocolError(
    ProtocolErrorCode.MethodNotFound,
    `${method} is not offered by this instance of the studio: it leaves MCP connections to the workers (STUDIO_WORKER=off), so the configured servers' prompts and resources are offered at /api/mcp of an instance that holds them (STUDIO_WORKER on). Their tools can be called here.`,
  );
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
  server.setRequestHandler(
    "prompts/get",
    async (request, ctx) => (await upstream.getPrompt(view, request.params.name, request.params.arguments, ctx.mcpReq.signal)) as GetPromptResult,
  );
  server.setRequestHandler("resources/list", async (request, ctx) => {
    const { items, nextCursor } = page(await upstream.listResources(view, ctx.mcpReq.signal), request.params?.cursor, size());
    return { resources: items as Resource[], ...(nextCursor ? { nextCursor } : {}) };
  });
  server.setRequestHandler("resources/templates/list", async (request, ctx) => {
    const { items, nextCursor } = page(await upstream.listResourceTemplates(view, ctx.mcpReq.signal), request.params?.cursor, size());
    return { resourceTemplates: items as ListResourceTemplatesResult["resourceTemplates"], ...(nextCursor ? { nextCursor } : {}) };
  });
  server.setRequestHandler(
    "resources/read",
    async (request, ctx) => (await upstream.readResource(view, request.params.uri, ctx.mcpReq.signal)) as ReadResourceResult,
  );
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
  server.setRequestHandler(
    "completion/complete",
    async (request, ctx) => (await upstream.complete(view, { ...request.params }, ctx.mcpReq.signal)) as CompleteResult,
  );
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
    p = studio.mcp
      .settled(listWaitMs())
      .catch((err: unknown) => console.warn("[tool-studio] MCP endpoint: waiting for the MCP servers failed:", err instanceof Error ? err.message : err));
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
