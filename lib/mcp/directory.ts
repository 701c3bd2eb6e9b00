import type { PrismaClient } from "../db/generated/client";
import type { PgNotifier } from "../db/notify";
import type { ToolSourceProvider } from "../registry/registry";
import type { RegisteredTool } from "../tools/define";
import { ToolError } from "../tools/errors";
import type { ToolSpec } from "../tools/spec";
import type { McpConnection, McpServerConfig } from "./connection";
import { MCP_STATES_CHANNEL } from "./publish";
import { entryHash, type McpServerState, type McpView } from "./source";

interface Published {
  configHash: string;
  state: McpServerState;
  tools: RegisteredTool[];
}

export interface DirectoryOptions {
  /** The config's servers, read at each use. */
  servers: () => readonly McpServerConfig[];
  /** PostgreSQL: re-read as soon as a worker publishes. */
  notifier: PgNotifier | null;
  /** Re-read this often as well, for a notification missed while the connection was down (default 5 s). */
  pollMs?: number;
}

/**
 * The MCP servers of a web instance that holds no connections (STUDIO_WORKER=off): their status
 * and tools as the workers publish them (lib/mcp/publish.ts), for listing, forms and /api/mcp.
 * Its tools are never called here: executeTool hands their runs to the workers (lib/execution/delegate.ts).
 * A server is shown as connecting until a worker publishes it for the config entry in force.
 */
export class McpDirectory implements McpView {
  readonly holdsConnections = false;
  private rows = new Map<string, Published>();
  private loaded: Promise<void> | null = null;
  private readonly stops: (() => void)[] = [];
  private readonly listeners = new Set<() => void>();

  constructor(
    private readonly prisma: PrismaClient,
    private readonly opts: DirectoryOptions,
  ) {}

  async start(): Promise<void> {
    if (this.opts.notifier) {
      this.stops.push(await this.opts.notifier.listen(MCP_STATES_CHANNEL, () => this.refresh()));
      this.stops.push(this.opts.notifier.onReconnect(() => this.refresh()));
    }
    const timer = setInterval(() => this.refresh(), this.opts.pollMs ?? 5000);
    timer.unref?.();
    this.stops.push(() => clearInterval(timer));
    await (this.loaded = this.reload());
  }

  states(): McpServerState[] {
    return this.entries().map((s) => this.current(s)?.state ?? placeholder(s));
  }

  state(name: string): McpServerState | undefined {
    const s = this.entries().find((e) => e.name === name);
    return s && (this.current(s)?.state ?? placeholder(s));
  }

  connection(): McpConnection | undefined {
    return undefined;
  }

  tools(): RegisteredTool[] {
    return this.entries().flatMap((s) => (s.enabled ? (this.current(s)?.tools ?? []) : []));
  }

  source(): ToolSourceProvider {
    return {
      id: "mcp",
      list: () => this.tools(),
      subscribe: (listener) => {
        this.listeners.add(listener);
        return () => this.listeners.delete(listener);
      },
    };
  }

  /** The workers connect when the config changes; nothing to do here. */
  async sync(): Promise<void> {}

  /** Resolves once every enabled server is published connected or failed (or after `timeoutMs`). */
  async settled(timeoutMs = 10_000): Promise<void> {
    await this.loaded;
    const end = Date.now() + timeoutMs;
    const done = () => this.entries().every((s) => !s.enabled || ["connected", "failed"].includes(this.current(s)?.state.state ?? ""));
    while (!done() && Date.now() < end) {
      await new Promise((r) => setTimeout(r, 100));
      await this.reload().catch(() => undefined);
    }
  }

  /** The workers hold the connections: they retry by themselves and find new tokens in the database. */
  async restart(): Promise<boolean> {
    return false;
  }

  async close(): Promise<void> {
    this.listeners.clear();
    for (const stop of this.stops.splice(0)) stop();
  }

  /** The config's entries, first of each name (as McpManager.sync refuses a second one). */
  private entries(): McpServerConfig[] {
    const seen = new Set<string>();
    return this.opts.servers().filter((s) => !seen.has(s.name) && !!seen.add(s.name));
  }

  /** What a worker published for this entry as it stands (an older entry's row is stale). */
  private current(s: McpServerConfig): Published | undefined {
    const row = this.rows.get(s.name);
    return row && row.configHash === entryHash(s) ? row : undefined;
  }

  private refresh(): void {
    this.reload().catch((err: unknown) => console.warn("[tool-studio] could not read the published MCP servers:", err instanceof Error ? err.message : err));
  }

  private async reload(): Promise<void> {
    const rows = await this.prisma.mcpServerState.findMany();
    this.rows = new Map(
      rows.map((r) => [
        r.name,
        { configHash: r.configHash, state: r.state as object as McpServerState, tools: (r.tools as object[] as ToolSpec[]).map(heldElsewhere) },
      ]),
    );
  }
}

function placeholder(s: McpServerConfig): McpServerState {
  return {
    name: s.name,
    transport: s.transport,
    origin: "config",
    enabled: s.enabled,
    state: s.enabled ? "connecting" : "disconnected",
    stderrTail: [],
    toolCount: 0,
    excluded: [],
    failures: 0,
  };
}

/** A tool whose server a worker holds: listed here, run there. */
function heldElsewhere(spec: ToolSpec): RegisteredTool {
  return {
    spec,
    async invoke() {
      throw new ToolError("provider", `The MCP server of "${spec.name}" is connected on the workers, not on this instance; its runs are handed to them.`);
    },
  };
}
