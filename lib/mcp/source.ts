import type { ToolSourceProvider } from "../registry/registry";
import type { RegisteredTool } from "../tools/define";
import type { ToolSpec } from "../tools/spec";
import { canonicalJson, sha256Hex } from "../tools/hash";
import { McpConnection, type McpConnectionEvent, type McpConnectionOptions, type McpConnectionStatus, type McpServerConfig } from "./connection";

export type McpServerOrigin = "config" | "runtime";

/** One row of a Servers page: the connection's status plus where the entry comes from. */
export interface McpServerState extends Omit<McpConnectionStatus, "instructions"> {
  origin: McpServerOrigin;
  enabled: boolean;
}

export interface McpSyncResult {
  started: string[];
  restarted: string[];
  stopped: string[];
  unchanged: string[];
  /** Entries not started, and why (e.g. a second server with the same name). */
  refused: { name: string; reason: string }[];
}

export type McpManagerEvent = McpConnectionEvent | { type: "servers"; servers: McpServerState[] };
export type McpManagerListener = (event: McpManagerEvent) => void;

export interface McpManagerOptions extends McpConnectionOptions {
  /** For tests: how a connection is made. */
  createConnection?: (config: McpServerConfig, options: McpConnectionOptions) => McpConnection;
}

interface Entry {
  config: McpServerConfig;
  hash: string;
  origin: McpServerOrigin;
  /** Absent for a disabled config entry (listed, not connected). */
  connection?: McpConnection;
  unsubscribe?: () => void;
}

/** The hash that decides whether a server entry changed (key order does not matter). */
export const entryHash = (config: McpServerConfig): string => sha256Hex(canonicalJson(config));

/**
 * What the rest of the studio asks of MCP servers, whether this process holds their connections
 * (McpManager) or leaves them to the workers and reads what they publish (McpDirectory).
 */
export interface McpView {
  /** False on a web instance that leaves connections to workers (STUDIO_WORKER=off): its MCP tools run on a worker. */
  readonly holdsConnections: boolean;
  states(): McpServerState[];
  state(name: string): McpServerState | undefined;
  /** The live connection, only where this process holds it. */
  connection(name: string): McpConnection | undefined;
  source(): ToolSourceProvider;
  /** Brings connections in line with the config's entries (a no-op where another process holds them). */
  sync(servers: readonly McpServerConfig[]): Promise<unknown>;
  settled(timeoutMs?: number): Promise<void>;
  /** Connects one server afresh now (after an OAuth sign-in or sign-out); false where this process holds no connection for it. */
  restart(name: string): Promise<boolean>;
  close(): Promise<void>;
}

/**
 * Owns the MCP connections: the config's servers (`sync` on every config load; the Servers page
 * adds and removes servers by editing the config). Its `source()` is the registry's "mcp" tool source: every server's tools, namespaced
 * `<server>__<tool>`, so names cannot collide across servers; two servers with the same name
 * are refused.
 */
export class McpManager implements McpView {
  readonly holdsConnections = true;
  private entries = new Map<string, Entry>();
  private listeners = new Set<McpManagerListener>();
  private closed = false;

  constructor(private readonly options: McpManagerOptions = {}) {}

  /**
   * Brings the config's servers in line with `servers`: starts new ones, restarts changed ones
   * (by entry hash), stops removed or disabled ones. Run-time servers are left alone; a config
   * entry whose name a run-time server (or an earlier entry) already has is refused.
   */
  async sync(servers: readonly McpServerConfig[]): Promise<McpSyncResult> {
    this.assertOpen();
    const result: McpSyncResult = { started: [], restarted: [], stopped: [], unchanged: [], refused: [] };
    const wanted = new Map<string, McpServerConfig>();
    for (const s of servers) {
      if (wanted.has(s.name)) {
        result.refused.push({ name: s.name, reason: `another entry of the config already uses the name "${s.name}"` });
        continue;
      }
      const existing = this.entries.get(s.name);
      if (existing?.origin === "runtime") {
        result.refused.push({ name: s.name, reason: `a server added at run time already uses the name "${s.name}"` });
        continue;
      }
      wanted.set(s.name, s);
    }
    const stops: Promise<void>[] = [];
    for (const [name, entry] of this.entries) {
      if (entry.origin !== "config" || wanted.has(name)) continue;
      this.entries.delete(name);
      if (entry.connection) result.stopped.push(name);
      stops.push(this.stop(entry));
    }
    for (const [name, config] of wanted) {
      const hash = entryHash(config);
      const existing = this.entries.get(name);
      if (existing && existing.hash === hash) {
        result.unchanged.push(name);
        continue;
      }
      const wasRunning = !!existing?.connection;
      if (existing) stops.push(this.stop(existing));
      const entry: Entry = { config, hash, origin: "config" };
      this.entries.set(name, entry);
      if (config.enabled) {
        this.open(entry);
        (wasRunning ? result.restarted : result.started).push(name);
      } else if (wasRunning) {
        result.stopped.push(name);
      }
    }
    await Promise.all(stops);
    this.emitServers();
    return result;
  }

  /** Every server, config ones first (in config order), then run-time ones. */
  states(): McpServerState[] {
    const all = [...this.entries.values()];
    return [...all.filter((e) => e.origin === "config"), ...all.filter((e) => e.origin === "runtime")].map((e) => this.stateOf(e));
  }

  state(name: string): McpServerState | undefined {
    const e = this.entries.get(name);
    return e && this.stateOf(e);
  }

  connection(name: string): McpConnection | undefined {
    return this.entries.get(name)?.connection;
  }

  /** All tools of all servers (namespaced; marked `unavailable` for servers that are down). */
  tools(): RegisteredTool[] {
    // Every registry lookup (several per run) asks for this: the same array comes back until a
    // server's list changes, so the registry sees an unchanged source at once (no statuses built).
    const parts: RegisteredTool[][] = [];
    for (const origin of ["config", "runtime"] as const) {
      for (const e of this.entries.values()) if (e.origin === origin && e.connection) parts.push(e.connection.tools());
    }
    const memo = this.toolsMemo;
    if (memo && memo.parts.length === parts.length && memo.parts.every((p, i) => p === parts[i])) return memo.all;
    const all = parts.flat();
    this.toolsMemo = { parts, all };
    return all;
  }

  private toolsMemo: { parts: RegisteredTool[][]; all: RegisteredTool[] } | undefined;

  /** Each server as the workers publish it (lib/mcp/publish.ts): its entry's hash, status and tools. */
  published(): { name: string; configHash: string; state: McpServerState; tools: ToolSpec[] }[] {
    return this.states().map((state) => {
      const e = this.entries.get(state.name)!;
      return { name: state.name, configHash: e.hash, state, tools: (e.connection?.tools() ?? []).map((t) => t.spec) };
    });
  }

  /** The registry's tool source for MCP servers (id "mcp"). */
  source(): ToolSourceProvider {
    return { id: "mcp", list: () => this.tools(), subscribe: (listener) => this.subscribe(() => listener()) };
  }

  /** Listens to state changes, tool-list changes and server-set changes; returns the unsubscribe function. */
  subscribe(listener: McpManagerListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Resolves once every enabled server has connected or failed (or after `timeoutMs`): a worker
   * that just started must not call an MCP tool "unknown" because its server is still connecting.
   */
  async settled(timeoutMs = 10_000): Promise<void> {
    const waits = [...this.entries.values()].map((e) =>
      e.connection?.waitFor((s) => s.state === "connected" || s.state === "failed", timeoutMs).catch(() => undefined),
    );
    await Promise.all(waits);
  }

  async restart(name: string): Promise<boolean> {
    const entry = this.entries.get(name);
    if (!entry?.connection || this.closed) return false;
    await this.stop(entry);
    this.open(entry);
    this.emitServers();
    return true;
  }

  /** Stops every server. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const entries = [...this.entries.values()];
    this.entries.clear();
    await Promise.all(entries.map((e) => this.stop(e)));
    this.listeners.clear();
  }

  // ------------------------------------------------------------

  private open(entry: Entry): void {
    const { createConnection, ...connectionOptions } = this.options;
    const connection = createConnection ? createConnection(entry.config, connectionOptions) : new McpConnection(entry.config, connectionOptions);
    entry.connection = connection;
    entry.unsubscribe = connection.subscribe((event) => this.emit(event));
    connection.start();
  }

  private async stop(entry: Entry): Promise<void> {
    entry.unsubscribe?.();
    const c = entry.connection;
    entry.connection = undefined;
    await c?.close();
  }

  private stateOf(e: Entry): McpServerState {
    const s = e.connection?.status();
    return {
      name: e.config.name,
      transport: e.config.transport,
      origin: e.origin,
      enabled: e.config.enabled,
      state: s?.state ?? "disconnected",
      error: s?.error,
      ...(s?.authRequired ? { authRequired: true } : {}),
      ...(s?.authFailed ? { authFailed: true } : {}),
      stderrTail: s?.stderrTail ?? [],
      protocolVersion: s?.protocolVersion,
      era: s?.era,
      serverInfo: s?.serverInfo,
      capabilities: s?.capabilities,
      toolCount: s?.toolCount ?? 0,
      excluded: s?.excluded ?? [],
      pid: s?.pid,
      failures: s?.failures ?? 0,
      nextRetryAt: s?.nextRetryAt,
      connectedAt: s?.connectedAt,
    };
  }

  private emitServers(): void {
    this.emit({ type: "servers", servers: this.states() });
  }

  private emit(event: McpManagerEvent): void {
    for (const l of [...this.listeners]) {
      try {
        l(event);
      } catch {
        /* a listener's failure is its own */
      }
    }
  }

  private assertOpen(): void {
    if (this.closed) throw new Error("The MCP manager is closed");
  }
}
