import type { RegisteredTool } from "../tools/define";
import type { ToolSpec } from "../tools/spec";

/** A source of tools: built-in, an MCP server, or tools defined at run time. */
export interface ToolSourceProvider {
  id: string;
  list(): Promise<RegisteredTool[]> | RegisteredTool[];
}

/** A name claimed by more than one source: the first source keeps it, the rest are reported. */
export interface NameCollision {
  name: string;
  keptFrom: string;
  droppedFrom: string;
}

/** Holds tools from several sources; listing asks every source, so it is always current. */
export class Registry {
  private sources: ToolSourceProvider[] = [];

  addSource(source: ToolSourceProvider): void {
    if (this.sources.some((s) => s.id === source.id)) throw new Error(`Tool source "${source.id}" is already registered`);
    this.sources.push(source);
  }

  async snapshot(): Promise<{ tools: RegisteredTool[]; collisions: NameCollision[] }> {
    const byName = new Map<string, RegisteredTool>();
    const collisions: NameCollision[] = [];
    for (const source of this.sources) {
      for (const tool of await source.list()) {
        const kept = byName.get(tool.spec.name);
        if (kept) collisions.push({ name: tool.spec.name, keptFrom: kept.spec.source.id, droppedFrom: tool.spec.source.id });
        else byName.set(tool.spec.name, tool);
      }
    }
    return { tools: [...byName.values()], collisions };
  }

  async list(): Promise<ToolSpec[]> {
    return (await this.snapshot()).tools.map((t) => t.spec);
  }

  async get(name: string): Promise<RegisteredTool | undefined> {
    return (await this.snapshot()).tools.find((t) => t.spec.name === name);
  }
}
