import type { ChildProcess } from "node:child_process";
import {
  Client,
  StreamableHTTPClientTransport,
  type Implementation,
  type StandardSchemaV1,
  type Transport,
} from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import type { z } from "zod";
import type { McpServer } from "../config/schema";
import { resolveEnvRecord } from "../config/secrets";
import { DEFAULT_TIMEOUT_MS } from "../execution/execute";
import type { RegisteredTool, ToolContext } from "../tools/define";
import { ToolError } from "../tools/errors";
import type { ContentBlock, ToolOutput } from "../tools/output";
import type { JsonSchema, ToolAnnotations, ToolIcon, ToolSpec } from "../tools/spec";
import { errorDetail, isNetworkFailure, toMcpToolError } from "./errors";
import { mcpParamHeaders, scanXMcpHeaders, type XMcpHeaderDeclaration } from "./x-mcp-header";

/** One `mcpServers` entry of the runtime config (defaults applied). */
export type McpServerConfig = z.output<typeof McpServer>;

export type McpConnectionState = "connecting" | "connected" | "failed" | "disconnected";

/** A tool the server listed that the studio does not offer, and why. */
export interface McpExcludedTool {
  tool: string;
  reason: string;
}

export interface McpConnectionStatus {
  name: string;
  transport: "stdio" | "http";
  state: McpConnectionState;
  /** Why the last attempt failed or the connection dropped (kept while reconnecting). */
  error?: string;
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
  | { type: "tools"; server: string; tools: ToolSpec[]; excluded: McpExcludedTool[] };

export type McpConnectionListener = (event: McpConnectionEvent) => void;

export interface BackoffOptions {
  /** First retry delay (default 500 ms); doubles on each failure... */
  initialMs?: number;
  /** ...up to this (default 30 s). */
  maxMs?: number;
  /** Random spread, as a fraction of the delay (default 0.2 = +-20 %). */
  jitter?: number;
}

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
}

const DEFAULT_CLIENT_INFO: Implementation = { name: "tool-studio", version: "0.1.0" };

/** Passes the result through untouched, so tools and results keep every field as received. */
const RAW: StandardSchemaV1<unknown, unknown> = {
  "~standard": { version: 1, vendor: "tool-studio", validate: (value: unknown) => ({ value }) },
};

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** Exponential backoff with jitter: initial * 2^(failures-1), capped, +-jitter. */
export function backoffDelay(failures: number, opts: BackoffOptions = {}, random: () => number = Math.random): number {
  const initial = opts.initialMs ?? 500;
  const max = opts.maxMs ?? 30_000;
  const jitter = opts.jitter ?? 0.2;
  const base = Math.min(max, initial * 2 ** Math.max(0, failures - 1));
  return Math.max(0, Math.min(max, Math.round(base * (1 + jitter * (random() * 2 - 1)))));
}

/** The studio's name for an MCP tool: `<server>__<tool>`. */
export const namespacedName = (server: string, tool: string): string => `${server}__${tool}`;

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

  private stderrLines: string[] = [];
  private stderrPartial = "";
  private pid?: number;
  private exitDescription?: string;

  /** Last good tool list: raw definitions and their x-mcp-header declarations. */
  private rawTools: Record<string, unknown>[] = [];
  private declarations = new Map<string, XMcpHeaderDeclaration[]>();
  private excludedTools: McpExcludedTool[] = [];
  private registered: RegisteredTool[] = [];

  private listeners = new Set<McpConnectionListener>();

  constructor(config: McpServerConfig, options: McpConnectionOptions = {}) {
    this.name = config.name;
    this.config = config;
    this.opts = options;
  }

  // ------------------------------------------------------------ public surface

  /** Starts connecting in the background (idempotent). Use `waitFor` or `connect` to wait. */
  start(): void {
    if (this.closed) throw new Error(`MCP connection "${this.name}" is closed`);
    if (this.started) return;
    this.started = true;
    void this.attempt();
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
      stderrTail: this.stderrTail(),
      protocolVersion: this.protocolVersion,
      era: this.era,
      serverInfo: this.serverInfo,
      capabilities: this.capabilities,
      instructions: this.instructions,
      toolCount: this.rawTools.length,
      excluded: [...this.excludedTools],
      pid: this.pid,
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
   * x-mcp-header arguments into Mcp-Param-* headers on Streamable HTTP.
   */
  async callTool(tool: string, args: Record<string, unknown>, ctx: ToolContext): Promise<ToolOutput> {
    if (ctx.signal.aborted) throw ctx.signal.reason;
    const client = this.client;
    if (!client || this.state !== "connected") {
      const reason = this.unavailableReason() ?? "not connected";
      throw new ToolError("network", `MCP server "${this.name}" is unavailable: ${reason}`, { detail: JSON.stringify(this.status()) });
    }
    const declared = this.declarations.get(tool) ?? [];
    const headers =
      this.config.transport === "http" && client.getProtocolEra() === "modern" && declared.length ? mcpParamHeaders(declared, args) : undefined;
    const studioTimeout = (ctx as ToolContext & { timeoutMs?: number }).timeoutMs;
    const timeout = Math.max(this.toolTimeout(tool) ?? DEFAULT_TIMEOUT_MS, studioTimeout ?? 0) + (this.opts.callSlackMs ?? 5_000);
    let result: unknown;
    try {
      result = await client.request({ method: "tools/call", params: { name: tool, arguments: args } }, RAW, {
        signal: ctx.signal,
        timeout,
        resetTimeoutOnProgress: true,
        onprogress: (p) => ctx.progress({ progress: p.progress, total: p.total, message: p.message }),
        headers,
      });
    } catch (err) {
      if (ctx.signal.aborted) throw ctx.signal.reason;
      const e = toMcpToolError(err, this.name);
      if (e.kind === "network") this.drop(client, `the call to ${tool} failed: ${describe(err)}`);
      throw e;
    }
    return toToolOutput(result, this.name);
  }

  // ------------------------------------------------------------ connecting

  private async attempt(): Promise<void> {
    if (this.closed) return;
    const gen = ++this.generation;
    this.clearTimers();
    this.pid = undefined;
    this.exitDescription = undefined;
    this.relistWhenConnected = false;
    this.setState("connecting");
    let client: Client | undefined;
    try {
      const transport = this.makeTransport();
      client = new Client(this.opts.clientInfo ?? DEFAULT_CLIENT_INFO, {
        versionNegotiation: { mode: "auto" },
        listChanged: {
          tools: {
            autoRefresh: false,
            debounceMs: 50,
            onChanged: () => {
              if (gen !== this.generation) return;
              // Before the client is adopted (still listing), remember to list again once it is.
              if (this.client) void this.refreshTools();
              else this.relistWhenConnected = true;
            },
          },
        },
      });
      const c = client;
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
      this.connectedAt = new Date();
      this.watch(c, gen);
      this.setState("connected");
      this.rebuild();
      this.log(`connected (protocol ${this.protocolVersion}, ${this.rawTools.length} tools)`);
      if (this.relistWhenConnected) void this.refreshTools();
    } catch (err) {
      if (gen !== this.generation || this.closed) return;
      this.pendingClient = undefined;
      this.fail(`${describe(err)}${this.exitDescription ? ` (the server process ${this.exitDescription})` : ""}`);
      // In the background: ending a stuck process can take a few seconds (stdin, then SIGTERM, then SIGKILL).
      void client?.close().catch(() => {});
    }
  }

  private makeTransport(): Transport {
    const cfg = this.config;
    // `${env:NAME}` references are resolved on every attempt; an unset variable throws, so this
    // attempt fails with that message in the server's state (and is retried with backoff).
    const where = `/mcpServers/${cfg.name}`;
    if (cfg.transport === "http") {
      const headers = resolveEnvRecord(cfg.headers, `${where}/headers`);
      return new StreamableHTTPClientTransport(new URL(cfg.url), { requestInit: { headers } });
    }
    const env = resolveEnvRecord(cfg.env, `${where}/env`);
    const transport = new StdioClientTransport({ command: cfg.command, args: cfg.args, env, cwd: cfg.cwd, stderr: "pipe" });
    transport.stderr?.on("data", (chunk: Buffer | string) => this.onStderr(chunk));
    // Wrap start on the instance (not a subclass: the SDK probes the era on a disposable sibling
    // process only for the exact base class) to learn the pid and how the process ended.
    const start = transport.start.bind(transport);
    transport.start = async () => {
      await start();
      const proc = (transport as unknown as { _process?: ChildProcess })._process;
      this.pid = proc?.pid ?? transport.pid ?? undefined;
      proc?.once("exit", (code, signal) => {
        this.exitDescription = signal ? `was killed by ${signal}` : `exited with code ${code}`;
        this.pid = undefined;
      });
    };
    return transport;
  }

  /** After connecting: notice the server going away (stdio does so through onclose). */
  private watch(client: Client, gen: number): void {
    // 2026-07-28: list_changed arrives on a subscriptions/listen stream; it ending means the server went away.
    client.autoOpenedSubscription?.closed.then((how) => {
      if (how === "remote" && gen === this.generation && this.client === client) this.drop(client, "the server closed its event stream");
    });
    const every = this.opts.healthCheckMs ?? 15_000;
    if (this.config.transport === "http" && every > 0) {
      this.healthTimer = setInterval(() => {
        if (gen !== this.generation || this.client !== client) return;
        // 2026-07-28 has no ping: server/discover is the cheap request there.
        const timeout = Math.min(every, 10_000);
        const probe = client.getProtocolEra() === "modern" ? client.discover({ timeout }) : client.ping({ timeout });
        probe.catch((err) => {
          const e = toMcpToolError(err, this.name);
          if (e.kind === "network" || e.kind === "timeout") this.drop(client, `the server stopped answering: ${describe(err)}`);
          else this.log(`health check failed (${e.kind}): ${describe(err)}`);
        });
      }, every);
      this.healthTimer.unref?.();
    }
  }

  private onClientClosed(client: Client): void {
    if (!this.closed && client === this.pendingClient) this.pendingClosed = client;
    if (this.closed || this.client !== client) return; // ours (close) or a stale / not yet adopted client
    const why = this.exitDescription ? `the server process ${this.exitDescription}` : "the connection was closed";
    this.client = undefined;
    this.fail(why);
  }

  /** A live connection turned out dead: close it and reconnect with backoff. */
  private drop(client: Client, reason: string): void {
    if (this.closed || this.client !== client) return;
    this.client = undefined;
    this.fail(reason);
    void client.close().catch(() => {});
  }

  private fail(reason: string): void {
    this.clearTimers();
    this.failures++;
    this.error = reason;
    const delay = backoffDelay(this.failures, this.opts.backoff);
    this.nextRetryAt = new Date(Date.now() + delay);
    this.log(`failed (${reason}); retrying in ${delay} ms`);
    this.retryTimer = setTimeout(() => void this.attempt(), delay);
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
    const raw: unknown[] = [];
    if (client.getServerCapabilities()?.tools) {
      const seenCursors = new Set<string>();
      let cursor: string | undefined;
      const maxPages = this.opts.maxPages ?? 1000;
      for (let page = 0; ; page++) {
        if (page >= maxPages) throw new Error(`tools/list did not end after ${maxPages} pages`);
        const result = await client.request({ method: "tools/list", params: cursor === undefined ? {} : { cursor } }, RAW, {
          timeout: this.opts.listTimeoutMs ?? 30_000,
        });
        if (!isObject(result) || !Array.isArray(result.tools)) throw new Error("tools/list returned a malformed result (no tools array)");
        raw.push(...result.tools);
        const next = result.nextCursor;
        if (typeof next !== "string" || next === "") break;
        if (seenCursors.has(next)) throw new Error(`tools/list repeated the cursor ${JSON.stringify(next)}`);
        seenCursors.add(next);
        cursor = next;
      }
    }
    if (gen !== this.generation) return;
    const accepted: Record<string, unknown>[] = [];
    const excluded: McpExcludedTool[] = [];
    const declarations = new Map<string, XMcpHeaderDeclaration[]>();
    for (const t of raw) {
      if (!isObject(t) || typeof t.name !== "string" || t.name === "") {
        excluded.push({ tool: isObject(t) ? String(t.name ?? "(unnamed)") : "(not an object)", reason: "malformed tool definition: no name" });
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
        this.log(`excluding tool ${t.name}: invalid x-mcp-header: ${scan.reason}`);
        continue;
      }
      declarations.set(t.name, scan.declarations);
      accepted.push(t);
    }
    this.rawTools = accepted;
    this.declarations = declarations;
    this.excludedTools = excluded;
    this.rebuild();
  }

  private toolTimeout(tool: string): number | undefined {
    return this.config.toolTimeouts?.[tool] ?? this.config.timeoutMs;
  }

  private unavailableReason(): string | undefined {
    switch (this.state) {
      case "connected":
        return undefined;
      case "connecting":
        return this.error ? `reconnecting (last error: ${this.error})` : "connecting";
      case "failed":
        return this.error ?? "the connection failed";
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
          const spec = toToolSpec(this.name, raw, this.toolTimeout(raw.name as string));
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

  private onStderr(chunk: Buffer | string): void {
    const lines = (this.stderrPartial + chunk.toString()).split(/\r?\n/);
    this.stderrPartial = (lines.pop() ?? "").slice(-4000);
    const keep = this.opts.stderrLines ?? 50;
    for (const line of lines) this.stderrLines.push(line.length > 2000 ? `${line.slice(0, 2000)}…` : line);
    if (this.stderrLines.length > keep) this.stderrLines.splice(0, this.stderrLines.length - keep);
  }

  private stderrTail(): string[] {
    const keep = this.opts.stderrLines ?? 50;
    const all = this.stderrPartial ? [...this.stderrLines, this.stderrPartial] : [...this.stderrLines];
    return all.slice(-keep);
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

/** Maps one raw MCP Tool to the studio's ToolSpec (every field kept, and the raw JSON as `raw`). */
export function toToolSpec(server: string, raw: Record<string, unknown>, timeoutMs: number | undefined): ToolSpec {
  const spec: ToolSpec = {
    name: namespacedName(server, String(raw.name)),
    inputSchema: raw.inputSchema as JsonSchema,
    source: { kind: "mcp", id: `mcp:${server}`, server },
    raw,
  };
  if (typeof raw.title === "string") spec.title = raw.title;
  if (typeof raw.description === "string") spec.description = raw.description;
  if (isObject(raw.outputSchema)) spec.outputSchema = raw.outputSchema;
  if (isObject(raw.annotations)) spec.annotations = raw.annotations as ToolAnnotations;
  if (Array.isArray(raw.icons)) {
    const icons = raw.icons.filter((i): i is ToolIcon => isObject(i) && typeof i.src === "string");
    if (icons.length) spec.icons = icons;
  }
  if (isObject(raw._meta)) spec._meta = raw._meta;
  if (isObject(raw.execution)) spec.execution = raw.execution;
  if (timeoutMs !== undefined) spec.timeoutMs = timeoutMs;
  return spec;
}

/** Maps a tools/call result to ToolOutput: content blocks as they are, structuredContent, isError. */
export function toToolOutput(result: unknown, server: string): ToolOutput {
  if (!isObject(result)) {
    throw new ToolError("provider", `MCP server "${server}" returned a malformed tool result.`, { detail: errorDetail(result) });
  }
  let content = Array.isArray(result.content) ? (result.content.filter(isObject) as unknown as ContentBlock[]) : [];
  // Protocol 2024-10-07 servers answer { toolResult } instead of content.
  if (!Array.isArray(result.content) && result.toolResult !== undefined) {
    content = [{ type: "text", text: JSON.stringify(result.toolResult, null, 2) }];
  }
  const output: ToolOutput = { content };
  if (result.structuredContent !== undefined) output.structuredContent = result.structuredContent;
  if (result.isError === true) output.isError = true;
  return output;
}
