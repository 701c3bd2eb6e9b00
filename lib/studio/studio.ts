import os from "node:os";
import { AuditLog, auditRunObserver, watchConfigChanges } from "../audit";
import { createBuiltinSource } from "../builtin-tools";
import { getConfigStore } from "../config/store";
import { getDb } from "../db/client";
import { DomainService } from "../domains/service";
import { executeTool, type ExecuteRequest, type RunObserver } from "../execution/execute";
import { activeRunIds } from "../execution/active-runs";
import { ShapeStore } from "../inference/store";
import { OutboxStore } from "../outbox/store";
import { McpManager } from "../mcp/source";
import { PresetStore } from "../runs/presets";
import { Registry } from "../registry/registry";
import { RunStore } from "../runs/store";
import { createRuntimeSource } from "../runtime-tools";

/**
 * The composition root: one registry, run store and domain service per process, wired to the
 * database and the runtime config. Kept on globalThis so Next's module reloading in dev does
 * not create a second one.
 */
export interface Studio {
  registry: Registry;
  runs: RunStore;
  outbox: OutboxStore;
  domains: DomainService;
  mcp: McpManager;
  presets: PresetStore;
  /** The tamper-evident audit log: append "server.add", "server.remove", "export", "purge" here (see lib/audit/log.ts). */
  audit: AuditLog;
  /** Inferred shapes of tool outputs and arguments, fed by the "inference" run observer. */
  shapes: ShapeStore;
  execute(req: ExecuteRequest): ReturnType<typeof executeTool>;
}

const g = globalThis as unknown as { __toolStudio?: Promise<Studio> };

export function getStudio(): Promise<Studio> {
  return (g.__toolStudio ??= boot().catch((err) => {
    g.__toolStudio = undefined; // let the next request retry (e.g. the database came up)
    throw err;
  }));
}

async function boot(): Promise<Studio> {
  const db = await getDb();
  const runs = new RunStore(db.prisma);
  // Runs left `running` by an earlier process will never finish: say so.
  await runs.markInterrupted(activeRunIds());
  const outbox = new OutboxStore(db.prisma);
  const presets = new PresetStore(db.prisma);
  const configStore = getConfigStore();
  const config = () => configStore.current().config;
  const registry = new Registry();
  registry.addSource(createBuiltinSource({ outbox, config, listTools: () => registry.list() }));
  // MCP servers follow the runtime config: added, changed or removed entries apply on each change.
  const mcp = new McpManager({ clientInfo: { name: "tool-studio", version: "0.1.0" } });
  registry.addSource(mcp.source());
  // Tools defined in the config come last: on a name clash the built-in or MCP tool is kept (and reported).
  registry.addSource(createRuntimeSource(config));
  const syncMcp = () => mcp.sync(config().mcpServers).catch((err) => console.error("[tool-studio] MCP sync failed", err));
  void syncMcp();
  configStore.subscribe(() => void syncMcp());
  const domains = new DomainService({ config, tools: async () => (await registry.snapshot()).tools });
  const audit = new AuditLog(db.prisma);
  // Config changes made on disk outside the studio (API saves are recorded by the config route).
  watchConfigChanges(audit, configStore, { actor: localActor });
  const shapes = new ShapeStore(db.prisma);
  const observers: RunObserver[] = [auditRunObserver(audit), shapes.observer()];
  return { registry, runs, outbox, domains, mcp, presets, audit, shapes, execute: (req) => executeTool({ registry, runs, domains, observers }, req) };
}

/** Who a run is attributed to until login exists: the local user of the machine. */
export function localActor(): string {
  return process.env.STUDIO_ACTOR || `local:${safeUser()}`;
}

function safeUser(): string {
  try {
    return os.userInfo().username;
  } catch {
    return "user";
  }
}
