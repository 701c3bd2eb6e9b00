import type { Prisma, PrismaClient } from "../db/generated/client";
import { canonicalJson, sha256Hex } from "../tools/hash";
import type { McpManager } from "./source";

/** NOTIFY channel: the published MCP servers changed (lib/mcp/directory.ts re-reads them). */
export const MCP_STATES_CHANNEL = "studio_mcp_states";

export interface PublisherOptions {
  /** Who writes (lib/runs/leases.ts instanceId). */
  publisher: string;
  /** Changes within this window are written together (default 100 ms). */
  debounceMs?: number;
  /** How long to wait before writing again after a failed write (default 1 s). */
  retryMs?: number;
}

/**
 * Keeps `mcp_server_states` in step with this process's connections, for the web instances that
 * leave connections to the workers: each server's status and tool list, written when they change
 * (a connect, a failure, an upstream tools/list_changed, a config change), rows of servers no
 * longer configured deleted, then one NOTIFY. Several workers hold the same servers and may each
 * write: they follow the same config revisions, so what they write agrees but for
 * process details (pid, connectedAt), and the last write stands.
 */
export class McpPublisher {
  private readonly written = new Map<string, string>();
  private timer: ReturnType<typeof setTimeout> | null = null;
  private writing: Promise<void> | null = null;
  private again = false;
  private stopped = false;
  /** The first write also deletes what an earlier process left, even with no server configured. */
  private wroteOnce = false;
  private readonly unsubscribe: () => void;

  constructor(
    private readonly manager: McpManager,
    private readonly prisma: PrismaClient,
    private readonly opts: PublisherOptions,
  ) {
    this.unsubscribe = manager.subscribe(() => this.schedule());
    this.schedule();
  }

  /** Resolves once what is known now has been written (tests, and a worker that stops). */
  async flush(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
      this.start();
    }
    while (this.writing) await this.writing;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.unsubscribe();
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    while (this.writing) await this.writing;
  }

  private schedule(delay = this.opts.debounceMs ?? 100): void {
    if (this.stopped || this.timer) return;
    if (this.writing) {
      this.again = true;
      return;
    }
    this.timer = setTimeout(() => {
      this.timer = null;
      this.start();
    }, delay);
    this.timer.unref?.();
  }

  private start(): void {
    this.writing = this.write()
      .then(
        () => false,
        (err: unknown) => {
          console.error("[tool-studio] could not publish MCP server states (retrying)", err instanceof Error ? err.message : err);
          return true;
        },
      )
      .then((failed) => {
        this.writing = null;
        if (failed || this.again) {
          this.again = false;
          this.schedule(failed ? (this.opts.retryMs ?? 1000) : undefined);
        }
      });
  }

  private async write(): Promise<void> {
    const now = this.manager.published();
    const changed = now.map((s) => ({ ...s, hash: sha256Hex(canonicalJson(s)) })).filter((s) => this.written.get(s.name) !== s.hash);
    const names = now.map((s) => s.name);
    const gone = [...this.written.keys()].filter((n) => !names.includes(n));
    if (!changed.length && !gone.length && this.wroteOnce) return;
    await this.prisma.$transaction(async (tx) => {
      for (const s of changed) {
        const data = { configHash: s.configHash, state: toJson(s.state), tools: toJson(s.tools), publisher: this.opts.publisher, updatedAt: new Date() };
        await tx.mcpServerState.upsert({ where: { name: s.name }, create: { name: s.name, ...data }, update: data });
      }
      // Rows of servers the config no longer has (including ones a process that died left behind).
      await tx.mcpServerState.deleteMany({ where: { name: { notIn: names } } });
      await tx.$executeRaw`SELECT pg_notify(${MCP_STATES_CHANNEL}, '')`;
    });
    this.wroteOnce = true;
    for (const s of changed) this.written.set(s.name, s.hash);
    for (const n of gone) this.written.delete(n);
  }
}

/** JSON columns take plain JSON: drop undefined fields the way JSON.stringify does. */
function toJson(v: unknown): Prisma.InputJsonValue {
  return JSON.parse(JSON.stringify(v)) as Prisma.InputJsonValue;
}
