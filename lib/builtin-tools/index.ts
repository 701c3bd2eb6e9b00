import type { RegisteredTool } from "../tools/define";
import type { ToolSourceProvider } from "../registry/registry";
import { addTool } from "./add";
import { chartPngTool } from "./chart-png";
import { createEventTool } from "./create-event";
import { failTool } from "./fail";
import { jsonQueryTool } from "./json-query";
import { slowCountTool } from "./slow-count";
import { createSendMessageTool } from "./send-message";
import { createNotifyGroupTool } from "./notify-group";
import { createDescribeTool } from "./describe-tool";
import { createClearOutboxTool } from "./clear-outbox";
import type { OutboxStore } from "../outbox/store";
import type { RuntimeConfig } from "../config/schema";
import type { ToolSpec } from "../tools/spec";

export { addTool, chartPngTool, createEventTool, failTool, jsonQueryTool, slowCountTool };

/** The tools that ship with the studio; they run in-process and need no network. */
export const builtinTools: RegisteredTool[] = [addTool, jsonQueryTool, chartPngTool, createEventTool, slowCountTool, failTool];

/** The built-in tools as a registry source (the self-contained ones only). */
export const builtinSource: ToolSourceProvider = {
  id: "builtin",
  list: () => builtinTools,
};

export interface BuiltinDeps {
  outbox: OutboxStore;
  /** The live runtime config, read at each listing for live triggers. */
  config(): RuntimeConfig;
  /** Every registered tool, for tools that work on other tools. */
  listTools(): Promise<ToolSpec[]>;
}

/** All built-in tools, including those that deliver to the outbox or read the registry. */
export function createBuiltinSource(deps: BuiltinDeps): ToolSourceProvider {
  const byConfig = new WeakMap<RuntimeConfig, RegisteredTool[]>();
  const tools = [
    ...builtinTools,
    createSendMessageTool(deps.outbox),
    createNotifyGroupTool(deps.outbox),
    createDescribeTool(deps.listTools),
    createClearOutboxTool(deps.outbox),
  ];
  return {
    id: "builtin",
    // Triggers follow the config, so edits show at once; the list is made once per config (the
    // same objects until it changes, so what is derived from a spec, e.g. its hash, is kept).
    list: () => {
      const config = deps.config();
      let list = byConfig.get(config);
      if (!list) byConfig.set(config, (list = tools.map((t) => (t.liveTriggers ? withLiveTriggers(t, t.liveTriggers(config)) : t))));
      return list;
    },
  };
}

function withLiveTriggers(tool: RegisteredTool, live: string[]): RegisteredTool {
  const triggers = [...new Set([...(tool.spec.invocationTriggers ?? []), ...live])];
  return { ...tool, spec: { ...tool.spec, invocationTriggers: triggers } };
}
