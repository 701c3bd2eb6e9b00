import os from "node:os";
import { createBuiltinSource } from "../builtin-tools";
import { getConfigStore } from "../config/store";
import { getDb } from "../db/client";
import { DomainService } from "../domains/service";
import { executeTool, type ExecuteRequest } from "../execution/execute";
import { activeRunIds } from "../execution/active-runs";
import { OutboxStore } from "../outbox/store";
import { McpManager } from "../mcp/source";
import { PresetStore } from "../runs/presets";
import { Registry } from "../registry/registry";
import { RunStore } from "../runs/store";

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
  const syncMcp = () => mcp.sync(config().mcpServers).catch((err) => console.error("[tool-studio] MCP sync failed", err));
  void syncMcp();
  configStore.subscribe(() => void syncMcp());
  const domains = new DomainService({ config, tools: async () => (await registry.snapshot()).tools });
  return { registry, runs, outbox, domains, mcp, presets, execute: (req) => executeTool({ registry, runs, domains }, req) };
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
