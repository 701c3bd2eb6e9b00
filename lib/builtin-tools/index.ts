import type { RegisteredTool } from "../tools/define";
import type { ToolSourceProvider } from "../registry/registry";
import { addTool } from "./add";
import { chartPngTool } from "./chart-png";
import { createEventTool } from "./create-event";
import { failTool } from "./fail";
import { jsonQueryTool } from "./json-query";
import { slowCountTool } from "./slow-count";

export { addTool, chartPngTool, createEventTool, failTool, jsonQueryTool, slowCountTool };

/** The tools that ship with the studio; they run in-process and need no network. */
export const builtinTools: RegisteredTool[] = [addTool, jsonQueryTool, chartPngTool, createEventTool, slowCountTool, failTool];

/** The built-in tools as a registry source. */
export const builtinSource: ToolSourceProvider = {
  id: "builtin",
  list: () => builtinTools,
};
