import { Registry } from "@/lib/registry/registry";
import { defineTool } from "@/lib/tools/define";
import { structured } from "@/lib/tools/output";

/** A tool that runs until the test releases it (returns `{ done: true }`), alone in a registry. */
export function gatedTool(name: string): { registry: Registry; release: () => void } {
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  const tool = defineTool({
    name,
    description: "waits for the test",
    inputSchema: { type: "object", properties: {}, additionalProperties: false } as const,
    async run() {
      await gate;
      return structured({ done: true });
    },
  });
  const registry = new Registry();
  registry.addSource({ id: "builtin", list: () => [tool] });
  return { registry, release };
}
