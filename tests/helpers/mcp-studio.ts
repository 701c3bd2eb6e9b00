import { AuditLog } from "@/lib/audit/log";
import { createBuiltinSource } from "@/lib/builtin-tools";
import { RuntimeConfigSchema, type RuntimeConfig } from "@/lib/config/schema";
import { DomainService } from "@/lib/domains/service";
import { executeTool, type ExecuteRequest } from "@/lib/execution/execute";
import type { McpStudio } from "@/lib/mcp-server/server";
import { OutboxStore } from "@/lib/outbox/store";
import { Registry, type ToolSourceProvider } from "@/lib/registry/registry";
import { RunStore } from "@/lib/runs/store";
import type { TestDatabase } from "./db";

/**
 * What /api/mcp serves, built the way lib/studio/studio.ts boot() builds it: the built-in tools,
 * then `sources` (e.g. an McpManager's), a run store on the test's database and executeTool,
 * the option domains over `config` (the live runtime config; empty by default), an audit log (relayed answers to servers' requests for input are audited there).
 */
export function buildMcpStudio(
  db: TestDatabase,
  opts: { sources?: ToolSourceProvider[]; mcp?: McpStudio["mcp"]; config?: () => RuntimeConfig } = {},
): { studio: McpStudio; registry: Registry; runs: RunStore } {
  const outbox = new OutboxStore(db.prisma);
  const empty = RuntimeConfigSchema.parse({});
  const config = opts.config ?? (() => empty);
  const runs = new RunStore(db.prisma);
  const registry = new Registry();
  registry.addSource(createBuiltinSource({ outbox, config, listTools: () => registry.list() }));
  for (const s of opts.sources ?? []) registry.addSource(s);
  const domains = new DomainService({ config, tools: async () => (await registry.snapshot()).tools });
  const mcp = opts.mcp;
  const studio: McpStudio = {
    registry,
    execute: (req: ExecuteRequest) => executeTool({ registry, runs, domains, ...(mcp ? { sourcesSettled: () => mcp.settled() } : {}) }, req),
    ...(mcp ? { mcp } : {}),
    domains,
    audit: new AuditLog(db.prisma),
  };
  return { studio, registry, runs };
}
