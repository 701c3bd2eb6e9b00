/**
 * What exists once per process, whichever copy of lib/ asks: Next loads lib/ more than once
 * (the proxy, pages, route handlers) and reloads it in dev, the production server's own router
 * loads its bundle of the hot routes (scripts/fast-routes.ts), and every copy must reach the same
 * database, studio, runs in flight... This module is the only one that touches `globalThis`:
 * one slot per name below, under one registered symbol.
 */

/** Every process-wide value, by name (one owner module each). */
export const PROCESS_SLOTS = {
  studio: "the composition root (lib/studio/studio.ts getStudio)",
  db: "the database client, migrated (lib/db/client.ts getDb)",
  dbHealth: "the door's last reachability check (lib/db/health.ts)",
  config: "this instance's config file (lib/config/store.ts getConfigStore)",
  mcpEndpoints: "the /api/mcp endpoint of each studio, with its 2025-era sessions (lib/mcp-server/server.ts)",
  inputFlows: "calls of /api/mcp waiting for a client's input (lib/mcp-server/input-flow.ts)",
  resourceFollows: "upstream resource subscriptions shared by their followers (lib/servers/follow.ts)",
  instanceId: "this process's name as an owner of runs (lib/runs/leases.ts)",
  activeRuns: "runs in flight here, for cancel (lib/execution/active-runs.ts)",
  storingRuns: "runs whose outcome waits for the database (lib/execution/active-runs.ts)",
  pendingInputs: "a server's requests for input during a run (lib/execution/pending-input.ts)",
} as const;

export type SlotName = keyof typeof PROCESS_SLOTS;

export interface ProcessSlot<T> {
  get(): T | undefined;
  set(value: T | undefined): void;
  /** The value, made by `create` if there is none yet. */
  use(create: () => T): T;
}

const KEY = Symbol.for("tool-studio.process-slots");

function table(): Map<SlotName, unknown> {
  const g = globalThis as { [KEY]?: Map<SlotName, unknown> };
  return (g[KEY] ??= new Map());
}

/** The slot `name`; its type is its owner's (one module uses each name). */
export function processSlot<T>(name: SlotName): ProcessSlot<T> {
  return {
    get: () => table().get(name) as T | undefined,
    set: (value) => void (value === undefined ? table().delete(name) : table().set(name, value)),
    use: (create) => {
      const t = table();
      if (!t.has(name)) t.set(name, create());
      return t.get(name) as T;
    },
  };
}

/** A global a library reads by its own name (e.g. Prisma's wasm panic hook), set once. */
export function provideLibraryGlobal(name: string, value: unknown): void {
  const g = globalThis as Record<string, unknown>;
  g[name] ??= value;
}
