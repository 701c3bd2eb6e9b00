import { LOG_LEVEL_META_KEY, type Client, type Implementation, type OAuthClientProvider } from "@modelcontextprotocol/client";
import { DEFAULT_TIMEOUT_MS } from "../execution/execute";
import { inputTimeoutMs } from "../execution/pending-input";
import type { RegisteredTool, ToolContext } from "../tools/define";
import { ToolError } from "../tools/errors";
import type { ResourceContents, ToolOutput } from "../tools/output";
import type { ToolSpec } from "../tools/spec";
import { backoffDelay, type BackoffOptions } from "./backoff";
import { askElicitation, askSampling, CLIENT_CAPABILITIES, toElicitation, toSampling } from "./client-requests";
import { StudioClient } from "./client-tasks";
import { isNetworkFailure, toMcpToolError } from "./errors";
import { logLevelAtLeast, toLogMessage } from "./log-messages";
import { RAW, toResourceContents, toToolOutput, toToolSpec } from "./mapping";
import type { StdioServerProcess } from "./process";
import { StderrTail } from "./stderr";
import { callAsTask, serverRunsToolTasks, taskProgress, taskSupportOf } from "./tasks";
import { listAllTools, screenTools, type McpExcludedTool } from "./tools-list";
import { maxResultBytes } from "./stdio-guard";
import { createTransport, type McpServerConfig } from "./transport";
import { mcpParamHeaders, type XMcpHeaderDeclaration } from "./x-mcp-header";
import { isSignInNeeded, oauthFailure, SIGN_IN_FAILED, SIGN_IN_REQUIRED } from "./oauth/sign-in-needed";

// Moved to their own modules; still importable from here.
export { backoffDelay, type BackoffOptions } from "./backoff";
export { namespacedName, toToolOutput, toToolSpec } from "./mapping";
export type { McpExcludedTool } from "./tools-list";
export type { McpServerConfig } from "./transport";

export type McpConnectionState = "connecting" | "connected" | "failed" | "disconnected";

export interface McpConnectionStatus {
  name: string;
  transport: "stdio" | "http";
  state: McpConnectionState;
  /** Why the last attempt failed or the connection dropped (kept while reconnecting). */
  error?: string;
  /** HTTP: the server wants OAuth and no token got past it: someone has to sign in (lib/mcp/oauth). */
  authRequired?: boolean;
  /** HTTP: the server answered 401 and its OAuth failed; `error` says why, for admins only (lib/servers/view.ts). */
  authFailed?: boolean;
  /** The last lines the server wrote to stderr (stdio only), oldest first. */
  stderrTail: string[];
  /** The protocol version negotiated with the server (e.g. 2026-07-28, 2025-11-25). */
  protocolVersion?: string;
  /** "modern" (2026-07-28 and later) or "legacy" (the 2025 initialize handshake). */
  era?: "modern" | "legacy";
  serverInfo?: Implementation;
  capabilities?: Record<string, unknown>;
  instructions?: string;
  toolCount: number;
  excluded: McpExcludedTool[];
  /** The server process (stdio), while it runs. */
  pid?: number;
  /** Consecutive failed attempts since the last successful connection. */
  failures: number;
  /** When the next reconnect attempt is due (ISO time), while failed. */
  nextRetryAt?: string;
  connectedAt?: string;
}

export type McpConnectionEvent =
  | { type: "state"; server: string; status: McpConnectionStatus }
  | { type: "tools"; server: string; tools: ToolSpec[]; excluded: McpExcludedTool[] }
  /** The server said its prompts or resources changed (list_changed); they are not kept here, so nothing else changed. */
  | { type: "lists"; server: string; kind: "prompts" | "resources" };

export type McpConnectionListener = (event: McpConnectionEvent) => void;

export interface McpConnectionOptions {
  clientInfo?: Implementation;
  backoff?: BackoffOptions;
  /** Handshake timeout (default 20 s). */
  connectTimeoutMs?: number;
  /** Timeout of each tools/list page (default 30 s). */
  listTimeoutMs?: number;
  /** Added to a tool's timeout for the SDK's own request timeout (default 5 s): the studio's signal fires first. */
  callSlackMs?: number;
  /** HTTP only: ping the server this often to notice it is gone (default 15 s; 0 turns it off). */
  healthCheckMs?: number;
  /** How many stderr lines to keep (default 50). */
  stderrLines?: number;
  /** Safety stop for a server whose tools/list cursors never end (default 1000 pages). */
  maxPages?: number;
  log?: (message: string) => void;
  /** Streamable HTTP: the OAuth provider of each connection attempt (lib/mcp/oauth); none: no OAuth. */
  oauth?: (config: McpServerConfig) => OAuthClientProvider | undefined;
}

const DEFAULT_CLIENT_INFO: Implementation = { name: "tool-studio", version: "0.1.0" };

/**
 * One MCP server: connects with the v2 client (negotiating 2026-07-28, falling back to the 2025
 * handshake for older servers), lists every page of tools and re-lists on list_changed, maps them
 * to ToolSpecs (`<server>__<tool>`), calls them, and reconnects with backoff when the server dies.
 * While it is down its last good tools stay listed, marked `unavailable`.
 */
export class McpConnection {
  readonly name: string;
  readonly config: McpServerConfig;
  private readonly opts: McpConnectionOptions;

  private state: McpConnectionState = "disconnected";
  private error?: string;
  private authRequired = false;
  private authFailed = false;
  private failures = 0;
  private nextRetryAt?: Date;
  private connectedAt?: Date;
  private protocolVersion?: string;
  private era?: "modern" | "legacy";
  private serverInfo?: Implementation;
  private capabilities?: Record<string, unknown>;
  private instructions?: string;

  private started = false;
  private closed = false;
  /** Bumped on every attempt and on close: callbacks of older clients are ignored. */
  private generation = 0;
  private client?: Client;
  private pendingClient?: Client;
  /** The not yet adopted client whose connection closed while it was being set up. */
  private pendingClosed?: Client;
  private retryTimer?: NodeJS.Timeout;
  private healthTimer?: NodeJS.Timeout;
  private refreshing?: Promise<void>;
  private refreshAgain = false;
  private relistWhenConnected = false;

  private readonly stderr: StderrTail;
  /** stdio: the process of the latest attempt. */
  private serverProcess?: StdioServerProcess;

  /** Last good tool list: raw definitions and their x-mcp-header declarations. */
  private rawTools: Record<string, unknown>[] = [];
  /** The same definitions by name: a call looks its tool up (a server may offer thousands). */
  private rawByName = new Map<unknown, Record<string, unknown>>();
  private declarations = new Map<string, XMcpHeaderDeclaration[]>();
  private excludedTools: McpExcludedTool[] = [];
  private registered: RegisteredTool[] = [];

  private listeners = new Set<McpConnectionListener>();
  /** Who hears the server's notifications/resources/updated (lib/servers/follow.ts): apart from `listeners`, which mean "tools may have changed". */
  private readonly resourceListeners = new Set<(uri: string) => void>();
  /** Calls in flight on this server: where a server's request for input (elicitation, sampling) goes. */
  private readonly inFlight = new Set<ToolContext>();

  constructor(config: McpServerConfig, options: McpConnectionOptions = {}) {
    this.name = config.name;
    this.config = config;
    this.opts = options;
    this.stderr = new StderrTail(options.stderrLines ?? 50);
  }

  // ------------------------------------------------------------ public surface

  /** Starts connecting in the background (idempotent). Use `waitFor` or `connect` to wait. */
  start(): void {
    if (this.closed) throw new Error(`MCP connection "${this.name}" is closed`);
    if (this.started) return;
    this.started = true;
    this.attemptInBackground();
  }

  /** Starts and waits for the first attempt's outcome: resolves when connected, rejects with the reason otherwise. */
  async connect(timeoutMs = (this.opts.connectTimeoutMs ?? 20_000) + (this.opts.listTimeoutMs ?? 30_000)): Promise<void> {
    this.start();
    const s = await this.waitFor((st) => st.state === "connected" || (st.state === "failed" && st.failures > 0), timeoutMs);
    if (s.state !== "connected") throw new Error(`MCP server "${this.name}" failed to connect: ${s.error ?? "unknown error"}`);
  }

  /** Stops everything: no more reconnects, the client is closed and a stdio server process is ended. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.generation++;
    this.clearTimers();
    const clients = [this.client, this.pendingClient].filter((c): c is Client => !!c);
    this.client = this.pendingClient = undefined;
    this.error = undefined;
    this.setState("disconnected");
    this.rebuild();
    await Promise.all(clients.map((c) => c.close().catch(() => {})));
    this.listeners.clear();
    this.resourceListeners.clear();
  }

  get isClosed(): boolean {
    return this.closed;
  }

  status(): McpConnectionStatus {
    return {
      name: this.name,
      transport: this.config.transport,
      state: this.state,
      error: this.error,
      ...(this.authRequired ? { authRequired: true } : {}),
      ...(this.authFailed ? { authFailed: true } : {}),
      stderrTail: this.stderr.tail(),
      protocolVersion: this.protocolVersion,
      era: this.era,
      serverInfo: this.serverInfo,
      capabilities: this.capabilities,
      instructions: this.instructions,
      toolCount: this.rawTools.length,
      excluded: [...this.excludedTools],
      pid: this.serverProcess?.pid,
      failures: this.failures,
      nextRetryAt: this.state === "failed" ? this.nextRetryAt?.toISOString() : undefined,
      connectedAt: this.connectedAt?.toISOString(),
    };
  }

  /** The tools of this server as the registry sees them (namespaced; `unavailable` while down). */
  tools(): RegisteredTool[] {
    return this.registered;
  }

  get excluded(): McpExcludedTool[] {
    return [...this.excludedTools];
  }

  /** Listens to state and tool-list changes; returns the unsubscribe function. */
  subscribe(listener: McpConnectionListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Listens to the server's notifications/resources/updated (the URI); returns the unsubscribe function. */
  onResourceUpdated(listener: (uri: string) => void): () => void {
    this.resourceListeners.add(listener);
    return () => this.resourceListeners.delete(listener);
  }

  /** Resolves with the status once `predicate` holds (checked now and on every event). */
  waitFor(predicate: (s: McpConnectionStatus) => boolean, timeoutMs = 10_000): Promise<McpConnectionStatus> {
    return new Promise((resolve, reject) => {
      const now = this.status();
      if (predicate(now)) return resolve(now);
      const timer = setTimeout(() => {
        off();
        const s = this.status();
        reject(new Error(`Timed out after ${timeoutMs} ms waiting for MCP server "${this.name}" (state ${s.state}${s.error ? `: ${s.error}` : ""})`));
      }, timeoutMs);
      const off = this.subscribe(() => {
        const s = this.status();
        if (predicate(s)) {
          clearTimeout(timer);
          off();
          resolve(s);
        }
      });
    });
  }

  /** Lists the tools again now (also done on notifications/tools/list_changed). */
  async refreshTools(): Promise<void> {
    if (this.refreshing) {
      this.refreshAgain = true;
      return this.refreshing;
    }
    this.refreshing = (async () => {
      do {
        this.refreshAgain = false;
        this.relistWhenConnected = false;
        const client = this.client;
        const gen = this.generation;
        if (!client || this.state !== "connected") return;
        try {
          await this.loadTools(client, gen);
        } catch (err) {
          if (gen !== this.generation) return;
          if (isNetworkFailure(err)) return this.drop(client, `listing tools failed: ${describe(err)}`);
          this.log(`tools/list failed: ${describe(err)}`);
          this.error = `Listing tools failed (the last good list is kept): ${describe(err)}`;
          this.emitState();
        }
      } while (this.refreshAgain);
    })().finally(() => (this.refreshing = undefined));
    return this.refreshing;
  }

  /**
   * Calls `tools/call` with the server's own (un-namespaced) tool name. Cancels through
   * ctx.signal (the SDK sends notifications/cancelled), forwards progress, mirrors
   * x-mcp-header arguments into Mcp-Param-* headers on Streamable HTTP. A tool with task support
   * (required, or optional on a server that runs tool tasks) is called as a task (tasks.ts).
   */
  async callTool(tool: string, args: Record<string, unknown>, ctx: ToolContext): Promise<ToolOutput> {
    if (ctx.signal.aborted) throw ctx.signal.reason;
    const client = this.client;
    if (!client || this.state !== "connected") {
      const reason = this.unavailableReason() ?? "not connected";
      throw new ToolError("network", `MCP server "${this.name}" is unavailable: ${reason}`, { detail: JSON.stringify(this.status()) });
    }
    const declared = this.declarations.get(tool) ?? [];
    const headers = this.config.transport === "http" && client.getProtocolEra() === "modern" && declared.length ? mcpParamHeaders(declared, args) : undefined;
    const studioTimeout = (ctx as ToolContext & { timeoutMs?: number }).timeoutMs;
    // The studio's signal ends the call; the SDK's own timeout is a backstop that must also allow
    // for the time a person takes to answer the server's requests for input (the run's timeout pauses then).
    const timeout =
      Math.max(this.toolTimeout(tool) ?? DEFAULT_TIMEOUT_MS, studioTimeout ?? 0) +
      (this.opts.callSlackMs ?? 5_000) +
      (ctx.requestInput ? inputTimeoutMs() * 4 : 0);
    let result: unknown;
    this.inFlight.add(ctx);
    try {
      const support = taskSupportOf(this.rawByName.get(tool));
      if (support === "required" || (support === "optional" && serverRunsToolTasks(this.capabilities))) {
        result = await callAsTask(client, tool, args, {
          signal: ctx.signal,
          timeout,
          ttl: Math.max(studioTimeout ?? DEFAULT_TIMEOUT_MS, 60_000),
          headers,
          onState: (task, polls) => ctx.progress(taskProgress(task, polls)),
          log: this.log.bind(this),
        });
      } else {
        // A 2026-07-28 server sends log messages only when the request names a level (2025-era: after logging/setLevel, or all).
        const logLevel = ctx.logs && client.getProtocolEra() === "modern" ? { _meta: { [LOG_LEVEL_META_KEY]: ctx.logs.level } } : {};
        result = await client.request({ method: "tools/call", params: { name: tool, arguments: args, ...logLevel } }, RAW, {
          signal: ctx.signal,
          timeout,
          resetTimeoutOnProgress: true,
          onprogress: (p) => ctx.progress({ progress: p.progress, total: p.total, message: p.message }),
          headers,
        });
      }
    } catch (err) {
      if (ctx.signal.aborted) throw ctx.signal.reason;
      if (isSignInNeeded(err)) throw this.signInLost(client);
      const e = toMcpToolError(err, this.name);
      if (e.kind === "network") this.drop(client, `the call to ${tool} failed: ${describe(err)}`);
      throw e;
    } finally {
      this.inFlight.delete(ctx);
    }
    // Over stdio a bigger message never gets here (stdio-guard.ts); over HTTP it is refused here.
    const size = JSON.stringify(result)?.length ?? 0;
    if (size > maxResultBytes()) {
      throw new ToolError(
        "result_too_large",
        `MCP server "${this.name}" answered ${tool} with ${size} characters of JSON, over the studio's limit of ${maxResultBytes()} (STUDIO_MCP_MAX_RESULT_BYTES).`,
      );
    }
    return toToolOutput(result, this.name);
  }

  /**
   * Reads a resource (`resources/read`) through this server: how a `resource_link` of any scheme
   * (file:, test:, a server's own) is opened. Contents are checked for shape (a uri, and text or
   * base64 blob) and bounded in size; everything else the server sends is dropped.
   */
  async readResource(uri: string, opts: { signal?: AbortSignal; timeoutMs?: number } = {}): Promise<ResourceContents[]> {
    const client = this.client;
    if (!client || this.state !== "connected") {
      throw new ToolError("network", `MCP server "${this.name}" is unavailable: ${this.unavailableReason() ?? "not connected"}`);
    }
    if (!this.capabilities?.resources)
      throw new ToolError("not_found", `MCP server "${this.name}" offers no resources (it did not declare the resources capability).`);
    let result: unknown;
    try {
      result = await client.request({ method: "resources/read", params: { uri } }, RAW, { signal: opts.signal, timeout: opts.timeoutMs ?? DEFAULT_TIMEOUT_MS });
    } catch (err) {
      if (opts.signal?.aborted) throw opts.signal.reason;
      const e = toMcpToolError(err, this.name);
      if (e.kind === "network") this.drop(client, `reading ${uri} failed: ${describe(err)}`);
      throw e;
    }
    return toResourceContents(result, this.name);
  }

  /**
   * Sends any request to this server as it is (the studio's /api/mcp re-offers its prompts and
   * resources this way) and returns the raw result. The server's own JSON-RPC errors are thrown
   * as the client raised them (their `code` intact); a network failure also drops the connection.
   */
  async request(method: string, params: Record<string, unknown>, opts: { signal?: AbortSignal; timeoutMs?: number } = {}): Promise<Record<string, unknown>> {
    const client = this.client;
    if (!client || this.state !== "connected") {
      throw new ToolError("network", `MCP server "${this.name}" is unavailable: ${this.unavailableReason() ?? "not connected"}`);
    }
    let result: unknown;
    try {
      result = await client.request({ method, params }, RAW, { signal: opts.signal, timeout: opts.timeoutMs ?? DEFAULT_TIMEOUT_MS });
    } catch (err) {
      if (!opts.signal?.aborted && isNetworkFailure(err)) this.drop(client, `${method} failed: ${describe(err)}`);
      throw err;
    }
    if (typeof result !== "object" || result === null || Array.isArray(result)) {
      throw new ToolError("provider", `MCP server "${this.name}" returned a malformed ${method} result.`);
    }
    return result as Record<string, unknown>;
  }

  /**
   * Subscribes to changes of one resource (their notifications/resources/updated reach
   * `onResourceUpdated`): resources/subscribe on a 2025-era connection, a subscriptions/listen
   * stream filtered to the URI on 2026-07-28. Resolves with the function that ends it.
   */
  async subscribeResource(uri: string, timeoutMs = DEFAULT_TIMEOUT_MS): Promise<() => Promise<void>> {
    const client = this.client;
    if (!client || this.state !== "connected")
      throw new ToolError("network", `MCP server "${this.name}" is unavailable: ${this.unavailableReason() ?? "not connected"}`);
    if (this.era === "modern") {
      const subscription = await client.listen({ resourceSubscriptions: [uri] }, { timeout: timeoutMs });
      return () => subscription.close();
    }
    await this.request("resources/subscribe", { uri }, { timeoutMs });
    return async () => {
      if (this.client === client && this.state === "connected") await this.request("resources/unsubscribe", { uri }, { timeoutMs });
    };
  }

  // ------------------------------------------------------------ connecting

  private async attempt(): Promise<void> {
    if (this.closed) return;
    const gen = ++this.generation;
    this.clearTimers();
    this.serverProcess = undefined;
    this.relistWhenConnected = false;
    this.setState("connecting");
    let client: StudioClient | undefined;
    let oauthGuard: { challenged: boolean } | undefined;
    try {
      const {
        transport,
        process: serverProcess,
        passed,
        oauth,
      } = createTransport(this.config, {
        onStderr: (chunk) => this.stderr.write(chunk),
        onDropped: ({ id, bytes }) =>
          this.log(
            `dropped a message of ${bytes} bytes (over STUDIO_MCP_MAX_RESULT_BYTES)${id === null ? " whose request could not be told" : `; request ${String(id).slice(0, 40)} fails with result_too_large`}`,
          ),
        // A broken response stream means the server went away: fail its calls now and reconnect
        // (without this, only the next health check would notice, up to healthCheckMs later).
        onStreamBroken: (err) => this.onStreamBroken(gen, err),
        authProvider: this.config.transport === "http" ? this.opts.oauth?.(this.config) : undefined,
      });
      this.serverProcess = serverProcess;
      oauthGuard = oauth;
      // What the server is given is not shown back to whoever sees its state (viewers too).
      this.stderr.redactor.set(passed);
      client = new StudioClient(this.opts.clientInfo ?? DEFAULT_CLIENT_INFO, {
        capabilities: CLIENT_CAPABILITIES,
        versionNegotiation: { mode: "auto" },
        listChanged: {
          tools: {
            autoRefresh: false,
            debounceMs: 50,
            onChanged: () => {
              if (gen !== this.generation) return;
              // Before the client is adopted (still listing), remember to list again once it is.
              if (this.client) this.refreshInBackground();
              else this.relistWhenConnected = true;
            },
          },
          // Passed on for /api/mcp, which re-offers them (lib/mcp-server/changes.ts).
          prompts: {
            autoRefresh: false,
            debounceMs: 50,
            onChanged: () => gen === this.generation && this.emit({ type: "lists", server: this.name, kind: "prompts" }),
          },
          resources: {
            autoRefresh: false,
            debounceMs: 50,
            onChanged: () => gen === this.generation && this.emit({ type: "lists", server: this.name, kind: "resources" }),
          },
        },
      });
      const c = client;
      this.handleServerRequests(c);
      c.onclose = () => this.onClientClosed(c);
      c.onerror = (err) => this.log(`client error: ${describe(err)}`);
      this.pendingClient = c;
      await c.connect(transport, { timeout: this.opts.connectTimeoutMs ?? 20_000 });
      if (gen !== this.generation || this.closed) return void (await c.close().catch(() => {}));
      this.protocolVersion = c.getNegotiatedProtocolVersion();
      this.era = c.getProtocolEra();
      this.serverInfo = c.getServerVersion();
      this.capabilities = c.getServerCapabilities() as Record<string, unknown> | undefined;
      this.instructions = c.getInstructions();
      await this.loadTools(c, gen);
      if (gen !== this.generation || this.closed) return void (await c.close().catch(() => {}));
      if (this.pendingClosed === c) throw new Error("the connection was closed while listing tools");
      this.pendingClient = undefined;
      this.client = c;
      this.failures = 0;
      this.error = undefined;
      this.authRequired = this.authFailed = false;
      this.connectedAt = new Date();
      this.watch(c, gen);
      this.setState("connected");
      this.rebuild();
      this.log(`connected (protocol ${this.protocolVersion}, ${this.rawTools.length} tools)`);
      if (this.relistWhenConnected) this.refreshInBackground();
    } catch (err) {
      if (gen !== this.generation || this.closed) return;
      this.pendingClient = undefined;
      const exit = this.serverProcess?.exitDescription;
      this.authRequired = isSignInNeeded(err);
      const oauthWhy = this.authRequired ? undefined : oauthFailure(err);
      this.authFailed = !this.authRequired && (oauthWhy !== undefined || oauthGuard?.challenged === true);
      this.fail(this.authRequired ? SIGN_IN_REQUIRED : (oauthWhy ?? `${describe(err)}${exit ? ` (the server process ${exit})` : ""}`));
      // In the background: ending a stuck process can take a few seconds (stdin, then SIGTERM, then SIGKILL).
      client?.close().catch(() => {
        // the attempt has failed already; an error closing its client adds nothing
      });
    }
  }

  /**
   * Requests the server sends this client: elicitation and sampling go to the person who started
   * the call they arrived for; roots are the server's configured `roots`.
   */
  private handleServerRequests(c: StudioClient): void {
    c.setRequestHandler("elicitation/create", (request, hctx) =>
      askElicitation(toElicitation(request.params), this.callAsking(), this.name, hctx.mcpReq.signal, { ...request.params }),
    );
    c.setRequestHandler("sampling/createMessage", (request, hctx) =>
      askSampling(toSampling(request.params), this.callAsking(), this.name, hctx.mcpReq.signal, { ...request.params }),
    );
    c.setNotificationHandler("notifications/message", (n) => this.onLogMessage(n.params));
    c.setRequestHandler("roots/list", () => ({ roots: (this.config.roots ?? []).map((r) => (r.name ? { uri: r.uri, name: r.name } : { uri: r.uri })) }));
    // Elicitation and sampling sent as tasks (2025-11-25) are answered with a task: see client-tasks.ts.
    c.serveTasks();
    c.setNotificationHandler("notifications/resources/updated", (n) => {
      if (this.client !== c || typeof n.params.uri !== "string") return;
      for (const l of [...this.resourceListeners]) {
        try {
          l(n.params.uri);
        } catch (err) {
          this.log(`a resource update listener failed: ${describe(err)}`);
        }
      }
    });
  }

  /**
   * The call a server's request for input belongs to. The 2025 protocol does not say which call
   * a server request is for, so it is the one call in flight on this server; with none or several
   * (of different people) it cannot be told, and the request is refused (a string: why).
   */
  private callAsking(): ToolContext | string {
    const calls = [...this.inFlight];
    if (calls.length === 1) return calls[0];
    if (!calls.length) return "no call is in flight on this server";
    // Several calls of the same person: the oldest gets it (they answer it either way).
    if (calls.every((x) => x.actor === calls[0].actor)) return calls[0];
    return `${calls.length} calls of different people are in flight on this server and the request does not say which one it is for`;
  }

  /**
   * A log message from the server goes to the call it belongs to, when that call's caller takes
   * them (an /api/mcp client): told as for requests for input (callAsking), else dropped.
   */
  private onLogMessage(params: unknown): void {
    const call = this.callAsking();
    if (typeof call === "string" || !call.logs) return;
    const message = toLogMessage(params, this.name);
    if (message && logLevelAtLeast(message.level, call.logs.level)) call.logs.send(message);
  }

  /** `attempt` in the background; it handles its own failures (state "failed", a retry), so this is a last resort. */
  private attemptInBackground(): void {
    this.attempt().catch((err) => console.error(`[tool-studio] MCP server "${this.name}": a connection attempt failed unexpectedly`, err));
  }

  /** `refreshTools` in the background; it records its own failures in the state, so this is a last resort. */
  private refreshInBackground(): void {
    this.refreshTools().catch((err) => console.error(`[tool-studio] MCP server "${this.name}": listing tools failed unexpectedly`, err));
  }

  /** After connecting: notice the server going away (stdio does so through onclose). */
  private watch(client: Client, gen: number): void {
    // 2026-07-28: list_changed arrives on a subscriptions/listen stream; it ending means the server went away.
    client.autoOpenedSubscription?.closed
      .then((how) => {
        if (how === "remote" && gen === this.generation && this.client === client) this.drop(client, "the server closed its event stream");
      })
      .catch((err) => this.log(`watching the event stream failed: ${describe(err)}`));
    const every = this.opts.healthCheckMs ?? 15_000;
    if (this.config.transport === "http" && every > 0) {
      this.healthTimer = setInterval(() => {
        if (gen !== this.generation || this.client !== client) return;
        // 2026-07-28 has no ping: server/discover is the cheap request there.
        const timeout = Math.min(every, 10_000);
        const probe = client.getProtocolEra() === "modern" ? client.discover({ timeout }) : client.ping({ timeout });
        probe.catch((err) => {
          if (isSignInNeeded(err)) return void this.signInLost(client);
          const e = toMcpToolError(err, this.name);
          if (e.kind === "network" || e.kind === "timeout") this.drop(client, `the server stopped answering: ${describe(err)}`);
          else this.log(`health check failed (${e.kind}): ${describe(err)}`);
        });
      }, every);
      this.healthTimer.unref?.();
    }
  }

  private onStreamBroken(gen: number, err: unknown): void {
    if (gen !== this.generation || this.closed) return;
    const reason = `the server's response stream broke: ${describe(err)}`;
    if (this.client) return this.drop(this.client, reason);
    // Still connecting (listing tools): that attempt fails at once, and is retried.
    const pending = this.pendingClient;
    if (pending) {
      this.log(reason);
      pending.close().catch(() => {
        // the attempt fails with the closed connection; nothing to add
      });
    }
  }

  private onClientClosed(client: Client): void {
    if (!this.closed && client === this.pendingClient) this.pendingClosed = client;
    if (this.closed || this.client !== client) return; // ours (close) or a stale / not yet adopted client
    const exit = this.serverProcess?.exitDescription;
    const why = exit ? `the server process ${exit}` : "the connection was closed";
    this.client = undefined;
    this.fail(why);
  }

  /** The server no longer takes the tokens and refreshing did not help: someone has to sign in again. */
  private signInLost(client: Client): ToolError {
    this.authRequired = true;
    this.drop(client, SIGN_IN_REQUIRED);
    return new ToolError("permission_denied", `MCP server "${this.name}" refused access: ${SIGN_IN_REQUIRED}`);
  }

  /** A live connection turned out dead: close it and reconnect with backoff. */
  private drop(client: Client, reason: string): void {
    if (this.closed || this.client !== client) return;
    this.client = undefined;
    this.fail(reason);
    client.close().catch(() => {
      // the connection is dead already; an error closing it adds nothing
    });
  }

  private fail(reason: string): void {
    this.clearTimers();
    this.failures++;
    this.error = this.stderr.redactor.apply(reason);
    const delay = backoffDelay(this.failures, this.opts.backoff);
    this.nextRetryAt = new Date(Date.now() + delay);
    this.log(`failed (${this.error}); retrying in ${delay} ms`);
    this.retryTimer = setTimeout(() => this.attemptInBackground(), delay);
    this.retryTimer.unref?.();
    this.setState("failed");
    this.rebuild();
  }

  private clearTimers(): void {
    if (this.retryTimer) clearTimeout(this.retryTimer);
    if (this.healthTimer) clearInterval(this.healthTimer);
    this.retryTimer = this.healthTimer = undefined;
  }

  // ------------------------------------------------------------ tools

  /** Lists every page of tools/list, then validates and keeps them as the last good list. */
  private async loadTools(client: Client, gen: number): Promise<void> {
    const raw = await listAllTools(client, { timeoutMs: this.opts.listTimeoutMs ?? 30_000, maxPages: this.opts.maxPages ?? 1000 });
    if (gen !== this.generation) return;
    const { accepted, excluded, declarations } = screenTools(raw, (message) => this.log(message));
    this.rawTools = accepted;
    this.rawByName = new Map(accepted.map((t) => [t.name, t]));
    this.declarations = declarations;
    this.excludedTools = excluded;
    this.rebuild();
  }

  private toolTimeout(tool: string): number | undefined {
    return this.config.toolTimeouts?.[tool] ?? this.config.timeoutMs;
  }

  private unavailableReason(): string | undefined {
    // Shown with the server's tools to everyone: why its OAuth failed is for admins (its state).
    const error = this.authFailed ? SIGN_IN_FAILED : this.error;
    switch (this.state) {
      case "connected":
        return undefined;
      case "connecting":
        return error ? `reconnecting (last error: ${error})` : "connecting";
      case "failed":
        return error ?? "the connection failed";
      case "disconnected":
        return "disconnected";
    }
  }

  /** Rebuilds the RegisteredTools from the last good list and the current state; emits "tools". */
  private rebuild(): void {
    const unavailable = this.unavailableReason();
    this.registered = this.closed
      ? []
      : this.rawTools.map((raw) => {
          const spec = toToolSpec(this.name, raw, this.toolTimeout(raw.name as string), this.config.namespace !== false);
          if (unavailable) spec.unavailable = unavailable;
          const tool = raw.name as string;
          return { spec, invoke: (args, ctx) => this.callTool(tool, args, ctx) } satisfies RegisteredTool;
        });
    this.emit({ type: "tools", server: this.name, tools: this.registered.map((t) => t.spec), excluded: [...this.excludedTools] });
  }

  // ------------------------------------------------------------ plumbing

  private setState(state: McpConnectionState): void {
    this.state = state;
    this.emitState();
  }

  private emitState(): void {
    this.emit({ type: "state", server: this.name, status: this.status() });
  }

  private emit(event: McpConnectionEvent): void {
    for (const l of [...this.listeners]) {
      try {
        l(event);
      } catch (err) {
        this.log(`listener failed: ${describe(err)}`);
      }
    }
  }

  private log(message: string): void {
    this.opts.log?.(`[mcp:${this.name}] ${message}`);
  }
}

/** An error's message, with the messages of its causes (e.g. "fetch failed: connect ECONNREFUSED ..."). */
function describe(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  let text = err.message || err.name;
  for (let c: unknown = err.cause, depth = 0; c instanceof Error && depth < 3; c = c.cause, depth++) {
    if (c.message && !text.includes(c.message)) text += `: ${c.message}`;
  }
  return text;
}
