import { defineTool } from "../tools/define";
import { ToolError } from "../tools/errors";
import { structured } from "../tools/output";
import type { ToolSpec } from "../tools/spec";

/** Reads the definition of any registered tool: what an agent needs before calling it. */
export function createDescribeTool(listTools: () => Promise<ToolSpec[]>) {
  return defineTool({
    name: "describe_tool",
    title: "Describe a tool",
    description: "Returns the full definition of a registered tool (schemas, annotations, option domains, triggers), chosen from every source.",
    inputSchema: {
      type: "object",
      properties: { tool: { type: "string", title: "Tool" } },
      required: ["tool"],
      additionalProperties: false,
    } as const,
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    paramDomains: { tool: "tool_names" },
    invocationTriggers: ["describe tool", "what does the tool", "tool schema"],
    async run({ tool }) {
      const spec = (await listTools()).find((t) => t.name === tool);
      if (!spec) throw new ToolError("not_found", `No tool named "${tool}" is registered.`);
      return structured(spec);
    },
  });
}
