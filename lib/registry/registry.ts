import type { RegisteredTool } from "../tools/define";
import type { ToolSpec } from "../tools/spec";

/** A source of tools: built-in, an MCP server, or tools defined at run time. */
export interface ToolSourceProvider {
  id: string;
  list(): Promise<RegisteredTool[]> | RegisteredTool[];
  /** Calls `listener` when what `list()` returns may have changed (servers, upstream list_changed, config); returns the unsubscribe function. */
  subscribe?(listener: () => void): () => void;
}

/** A name claimed by more than one source: the first source keeps it, the rest are reported. */
export interface NameCollision {
  name: string;
  keptFrom: string;
  droppedFrom: string;
}

export interface RegistrySnapshot {
  tools: RegisteredTool[];
  collisions: NameCollision[];
}

/**
 * Holds tools from several sources; listing asks every source, so it is always current. The
 * merged view is rebuilt only when a source lists something else than last time (another array
 * member, not another array): every run looks its tool up, and with an MCP server of thousands
 * of tools a rebuild per run was the largest cost of a lookup (issue 12).
 */
export class Registry {
  private sources: ToolSourceProvider[] = [];
  private memo: { lists: RegisteredTool[][]; snapshot: RegistrySnapshot; byName: Map<string, RegisteredTool>; specs?: readonly ToolSpec[] } | null = null;

  addSource(source: ToolSourceProvider): void {
    if (this.sources.some((s) => s.id === source.id)) throw new Error(`Tool source "${source.id}" is already registered`);
    this.sources.push(source);
    this.memo = null;
  }

  private async merged(): Promise<NonNullable<Registry["memo"]>> {
    const lists: RegisteredTool[][] = [];
    for (const source of this.sources) lists.push(await source.list());
    if (this.memo && sameLists(this.memo.lists, lists)) return this.memo;
    const byName = new Map<string, RegisteredTool>();
    const collisions: NameCollision[] = [];
    for (const list of lists) {
      for (const tool of list) {
        const kept = byName.get(tool.spec.name);
        if (kept) collisions.push({ name: tool.spec.name, keptFrom: kept.spec.source.id, droppedFrom: tool.spec.source.id });
        else byName.set(tool.spec.name, tool);
      }
    }
    this.memo = { lists, snapshot: { tools: [...byName.values()], collisions }, byName };
    return this.memo;
  }

  /** Every tool (first source wins a name) and the names claimed twice. The arrays are the caller's own. */
  async snapshot(): Promise<RegistrySnapshot> {
    const { snapshot } = await this.merged();
    return { tools: [...snapshot.tools], collisions: [...snapshot.collisions] };
  }

  /**
   * Calls `listener` whenever a source says its tools may have changed (a hint: the listener
   * compares what it cares about). Sources without a signal are not covered; returns the
   * unsubscribe function.
   */
  subscribe(listener: () => void): () => void {
    const stops = this.sources.flatMap((s) => (s.subscribe ? [s.subscribe(listener)] : []));
    return () => {
      for (const stop of stops.splice(0)) stop();
    };
  }

  async list(): Promise<ToolSpec[]> {
    return [...(await this.specs())];
  }

  /**
   * Every tool's spec, as one frozen array that stays the same object until the registry changes:
   * what is made from the whole list (GET /api/tools's encoded body) can be cached by it.
   */
  async specs(): Promise<readonly ToolSpec[]> {
    const memo = await this.merged();
    return (memo.specs ??= Object.freeze(memo.snapshot.tools.map((t) => t.spec)));
  }

  async get(name: string): Promise<RegisteredTool | undefined> {
    return (await this.merged()).byName.get(name);
  }
}

function sameLists(a: RegisteredTool[][], b: RegisteredTool[][]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    const y = b[i]!;
    if (x === y) continue;
    if (x.length !== y.length) return false;
    for (let j = 0; j < x.length; j++) if (x[j] !== y[j]) return false;
  }
  return true;
}
