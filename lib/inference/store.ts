/**
 * ShapeStore: the observed shapes of each tool's outputs and arguments, kept in `shape_stats`
 * (one row per tool and kind) and merged incrementally from captured runs.
 *
 * What is sampled (the same rules for live runs and for `rebuild`):
 * - "output": runs with status success. The sample is `structuredContent`; when a run has none,
 *   its content is used only if it is exactly one text block whose text is a JSON object or
 *   array (at most 1 MB) — what older tools send instead of structured content. Anything else
 *   gives no output sample.
 * - "arguments": every run that was checked and executed: success, error, timeout, cancelled
 *   (not rejected, not running; interrupted runs never reach an observer, so they are left out
 *   of rebuilds too).
 *
 * Concurrency: `observe` only queues (per tool, in memory) and schedules a flush; it never waits
 * for the database. A flush takes the tool's whole queue, reduces it to one batch of statistics
 * per kind and merges that into the row in a transaction holding the row with
 * `SELECT ... FOR UPDATE` (after `INSERT ... ON CONFLICT DO NOTHING` creates it), so concurrent
 * flushes — of this process or another — serialize on the row and no sample is lost or counted
 * twice. Within the process, flushes of one tool are chained, so they do not wait on each other's
 * row locks. A failed flush puts its samples back at the head of the queue and retries later.
 *
 * Missing statistics (runs captured before inference existed, or rows deleted) are recomputed
 * from the runs table by `rebuild`: on the first `get` of a tool that has runs but no rows, and
 * when a flush creates a tool's row while runs of it from before the store was created exist.
 * A rebuild is exact against this process's live runs (their queued samples are matched by run
 * id). With several studio processes on one PostgreSQL database, runs of the same tool that
 * another process has queued while a rebuild reads them may be counted twice.
 */
import type { Prisma, PrismaClient } from "../db/generated/client";
import type { RunObserver } from "../execution/execute";
import type { Run, RunStatus } from "../runs/types";
import type { JsonSchema } from "../tools/spec";
import { compareWithDeclared, type Difference } from "./compare";
import { deriveSchema, describeFields, type FieldSummary } from "./schema";
import { addSample, emptyStats, mergeInto, parseStats, statsOf, type ShapeStatsData } from "./stats";

export const SHAPE_KINDS = ["output", "arguments"] as const;
export type ShapeKind = (typeof SHAPE_KINDS)[number];

export interface InferredPart {
  schema: JsonSchema;
  samples: number;
  fields: FieldSummary[];
  updatedAt: string;
  /** Arguments only, when the caller passed the tool's inputSchema: observed vs declared. */
  differences?: Difference[];
}

export interface OutputViolation {
  id: string;
  startedAt: string;
  outputErrors: { path: string; message: string }[];
}

export interface InferredShapes {
  output: InferredPart | null;
  arguments: InferredPart | null;
  /** Only for a tool that declares an outputSchema (pass it to `get`). */
  declared?: JsonSchema;
  /** Where the observed output and the declared outputSchema differ. */
  differences?: Difference[];
  /** Recent runs whose structured content did not match the outputSchema, newest first. */
  violations?: OutputViolation[];
}

export interface ShapeStoreOptions {
  /** Delay between the first queued sample of a tool and its flush (batches bursts). */
  flushDelayMs?: number;
  /** Queue length of one tool that triggers a flush at once. */
  maxQueue?: number;
  /** Delay before retrying a failed flush. */
  retryMs?: number;
  /** How many recent violating runs `get` lists. */
  violations?: number;
  log?: (message: string, err?: unknown) => void;
}

interface Queued {
  runId: string;
  kind: ShapeKind;
  value?: unknown;
  /** A text block to parse as JSON at flush time (not on the run's path). */
  text?: string;
}

const EXECUTED: RunStatus[] = ["success", "error", "timeout", "cancelled"];
const MAX_TEXT_SAMPLE = 1024 * 1024;
const REBUILD_PAGE = 500;
/** Queued samples per tool beyond which new ones are dropped (the database is not keeping up). */
const MAX_QUEUED_PER_TOOL = 20_000;
/** How long ids read by a rebuild are remembered, to drop late observer calls for them. */
const REBUILD_MEMORY_MS = 60_000;

/** The text of content that is exactly one text block looking like a JSON object or array. */
function jsonText(content: unknown): string | undefined {
  if (!Array.isArray(content) || content.length !== 1) return undefined;
  const block = content[0] as { type?: unknown; text?: unknown };
  if (block?.type !== "text" || typeof block.text !== "string" || block.text.length > MAX_TEXT_SAMPLE) return undefined;
  const t = block.text.trim();
  if (!(t.startsWith("{") && t.endsWith("}")) && !(t.startsWith("[") && t.endsWith("]"))) return undefined;
  return t;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The output sample of a run, or undefined (see the module comment). */
export function outputSample(status: RunStatus, structuredContent: unknown, content: unknown): unknown {
  if (status !== "success") return undefined;
  if (structuredContent !== undefined && structuredContent !== null) return structuredContent;
  const t = jsonText(content);
  return t === undefined ? undefined : parseJson(t);
}

/** The samples one run contributes, by kind (JSON text is parsed later, at flush). */
export function samplesOf(run: Pick<Run, "id" | "status" | "arguments" | "output">): Queued[] {
  const out: Queued[] = [];
  if (!EXECUTED.includes(run.status)) return out;
  if (run.status === "success") {
    const sc = run.output?.structuredContent;
    if (sc !== undefined && sc !== null) out.push({ runId: run.id, kind: "output", value: sc });
    else {
      const t = jsonText(run.output?.content);
      if (t !== undefined) out.push({ runId: run.id, kind: "output", text: t });
    }
  }
  out.push({ runId: run.id, kind: "arguments", value: run.arguments ?? {} });
  return out;
}

const sampleValue = (q: Queued): unknown => (q.text !== undefined ? parseJson(q.text) : q.value);

export class ShapeStore {
  private readonly queues = new Map<string, Queued[]>();
  private readonly chains = new Map<string, Promise<void>>();
  private readonly timers = new Map<string, ReturnType<typeof setTimeout>>();
  private readonly rebuiltIds = new Map<string, { ids: Set<string>; until: number }>();
  private readonly autoRebuilt = new Set<string>();
  private readonly overflowed = new Set<string>();
  private readonly opts: Required<ShapeStoreOptions>;
  private readonly createdAt = new Date();

  constructor(
    private readonly prisma: PrismaClient,
    opts: ShapeStoreOptions = {},
  ) {
    this.opts = {
      flushDelayMs: opts.flushDelayMs ?? 50,
      maxQueue: opts.maxQueue ?? 256,
      retryMs: opts.retryMs ?? 2_000,
      violations: opts.violations ?? 20,
      log: opts.log ?? ((m, e) => console.error(`[tool-studio] ${m}`, e ?? "")),
    };
  }

  /** The RunObserver to hand to executeTool: queues and returns at once. */
  observer(): RunObserver {
    return { name: "inference", onRunCaptured: (run) => this.observe(run) };
  }

  /** Queues the samples of a captured run; the write happens later (see `flush`). */
  observe(run: Run): void {
    const recent = this.rebuiltIds.get(run.tool);
    if (recent) {
      if (recent.until < Date.now()) this.rebuiltIds.delete(run.tool);
      else if (recent.ids.has(run.id)) return; // already counted by a rebuild
    }
    const samples = samplesOf(run);
    if (!samples.length) return;
    let q = this.queues.get(run.tool);
    if (!q) this.queues.set(run.tool, (q = []));
    if (q.length >= MAX_QUEUED_PER_TOOL) {
      // The database has been failing for a while: keep memory bounded, say so once.
      if (!this.overflowed.has(run.tool)) {
        this.overflowed.add(run.tool);
        this.opts.log(`shape stats queue of tool "${run.tool}" is full; samples are dropped until it drains (rebuild() recounts)`);
      }
      return;
    }
    this.overflowed.delete(run.tool);
    q.push(...samples);
    this.schedule(run.tool, q.length >= this.opts.maxQueue ? 0 : this.opts.flushDelayMs);
  }

  /** Samples queued and not yet written (all tools). */
  pending(): number {
    let n = 0;
    for (const q of this.queues.values()) n += q.length;
    return n;
  }

  private schedule(tool: string, delayMs: number): void {
    const existing = this.timers.get(tool);
    if (existing) {
      if (delayMs > 0) return;
      clearTimeout(existing);
    }
    const timer = setTimeout(() => {
      this.timers.delete(tool);
      this.flushTool(tool).catch((err) => {
        this.opts.log(`shape stats flush failed for tool "${tool}"; retrying`, err);
        this.schedule(tool, this.opts.retryMs);
      });
    }, delayMs);
    timer.unref?.();
    this.timers.set(tool, timer);
  }

  /** Runs `fn` after every earlier flush/rebuild of the tool (one at a time per tool). */
  private serialize<T>(tool: string, fn: () => Promise<T>): Promise<T> {
    const prev = this.chains.get(tool) ?? Promise.resolve();
    const next = prev.then(fn);
    const tail = next.then(
      () => {},
      () => {},
    );
    this.chains.set(tool, tail);
    void tail.then(() => {
      if (this.chains.get(tool) === tail) this.chains.delete(tool);
    });
    return next;
  }

  /** Writes everything queued for one tool. */
  flushTool(tool: string): Promise<void> {
    return this.serialize(tool, async () => {
      const batch = this.queues.get(tool);
      if (!batch?.length) return;
      this.queues.delete(tool);
      let created: boolean;
      try {
        created = await this.write(tool, batch);
      } catch (err) {
        // back at the head, before anything queued meanwhile: order is kept, nothing is lost
        const later = this.queues.get(tool) ?? [];
        this.queues.set(tool, [...batch, ...later]);
        throw err;
      }
      // A row was just created: if the tool has runs from before this store existed (history
      // captured before inference, or stats deleted), count them all once with a rebuild, queued
      // behind this flush. Runs started since are this process's (or another live one's) to count.
      if (created) {
        const older = await this.prisma.run.findFirst({
          where: { toolName: tool, status: { in: EXECUTED }, startedAt: { lt: this.createdAt } },
          select: { id: true },
        });
        if (older) void this.rebuild(tool).catch((err) => this.opts.log(`shape stats rebuild failed for tool "${tool}"`, err));
      }
    });
  }

  /** Writes everything queued, for every tool, including what is queued while it runs. */
  async flush(): Promise<void> {
    for (let round = 0; round < 100; round++) {
      const tools = new Set([...this.queues.keys(), ...this.chains.keys()]);
      if (!tools.size) return;
      for (const t of tools) {
        const timer = this.timers.get(t);
        if (timer) {
          clearTimeout(timer);
          this.timers.delete(t);
        }
      }
      await Promise.all([...tools].map((t) => this.flushTool(t)));
    }
  }

  /** Merges one batch into the rows; true when a row had to be created. */
  private async write(tool: string, batch: Queued[]): Promise<boolean> {
    const byKind = new Map<ShapeKind, ShapeStatsData>();
    for (const kind of SHAPE_KINDS) {
      const values = batch.filter((q) => q.kind === kind).map(sampleValue).filter((v) => v !== undefined);
      if (values.length) byKind.set(kind, statsOf(values));
    }
    return this.prisma.$transaction(
      async (tx) => {
        let created = false;
        // Rows are always locked in the order of SHAPE_KINDS, so two writers cannot deadlock.
        for (const [kind, stats] of byKind) {
          const { count } = await tx.shapeStats.createMany({ data: [{ toolName: tool, kind, samples: 0, stats: json(emptyStats()) }], skipDuplicates: true });
          if (count) created = true;
          const [row] = await tx.$queryRaw<{ stats: unknown }[]>`
            SELECT stats FROM shape_stats WHERE tool_name = ${tool} AND kind = ${kind} FOR UPDATE`;
          const merged = mergeInto(parseStats(row?.stats), stats);
          await tx.shapeStats.update({
            where: { toolName_kind: { toolName: tool, kind } },
            data: { samples: merged.samples, stats: json(merged) },
          });
        }
        return created;
      },
      { maxWait: 30_000, timeout: 60_000 },
    );
  }

  /**
   * Recomputes a tool's statistics from the runs table (oldest first, keyset-paged), replacing
   * the stored rows. Queued samples of runs the rebuild read are dropped, so nothing is counted
   * twice; runs still running are left to their observer call.
   */
  rebuild(tool: string): Promise<Record<ShapeKind, number>> {
    return this.serialize(tool, async () => {
      const stats: Record<ShapeKind, ShapeStatsData> = { output: emptyStats(), arguments: emptyStats() };
      const seen = new Set<string>();
      let after: { startedAt: Date; id: string } | null = null;
      for (;;) {
        const rows: { id: string; startedAt: Date; status: RunStatus; arguments: unknown; structuredContent: unknown; content: unknown }[] =
          await this.prisma.run.findMany({
            where: {
              toolName: tool,
              status: { in: EXECUTED },
              ...(after ? { OR: [{ startedAt: { gt: after.startedAt } }, { startedAt: after.startedAt, id: { gt: after.id } }] } : {}),
            },
            orderBy: [{ startedAt: "asc" }, { id: "asc" }],
            take: REBUILD_PAGE,
            select: { id: true, startedAt: true, status: true, arguments: true, structuredContent: true, content: true },
          });
        for (const r of rows) {
          seen.add(r.id);
          const o = outputSample(r.status, r.structuredContent, r.content);
          if (o !== undefined) addSample(stats.output, o);
          addSample(stats.arguments, r.arguments ?? {});
        }
        if (rows.length < REBUILD_PAGE) break;
        const last = rows[rows.length - 1];
        after = { startedAt: last.startedAt, id: last.id };
      }
      // Samples of runs read above that were queued meanwhile (or arrive late) are dropped.
      const q = this.queues.get(tool);
      if (q) {
        const rest = q.filter((s) => !seen.has(s.runId));
        if (rest.length) this.queues.set(tool, rest);
        else this.queues.delete(tool);
      }
      this.rebuiltIds.set(tool, { ids: seen, until: Date.now() + REBUILD_MEMORY_MS });
      await this.prisma.$transaction(
        async (tx) => {
          for (const kind of SHAPE_KINDS) {
            await tx.shapeStats.createMany({ data: [{ toolName: tool, kind, samples: 0, stats: json(emptyStats()) }], skipDuplicates: true });
            await tx.$queryRaw`SELECT 1 FROM shape_stats WHERE tool_name = ${tool} AND kind = ${kind} FOR UPDATE`;
            await tx.shapeStats.update({
              where: { toolName_kind: { toolName: tool, kind } },
              data: { samples: stats[kind].samples, stats: json(stats[kind]) },
            });
          }
        },
        { maxWait: 30_000, timeout: 60_000 },
      );
      return { output: stats.output.samples, arguments: stats.arguments.samples };
    });
  }

  /** The raw statistics of one tool and kind (null when none are stored). */
  async stats(tool: string, kind: ShapeKind): Promise<{ samples: number; stats: ShapeStatsData; updatedAt: Date } | null> {
    const row = await this.prisma.shapeStats.findUnique({ where: { toolName_kind: { toolName: tool, kind } } });
    return row ? { samples: row.samples, stats: parseStats(row.stats), updatedAt: row.updatedAt } : null;
  }

  /**
   * The inferred shapes of a tool. Writes the tool's queued samples first. With the tool's
   * declared schemas, also compares: `declared`, `differences` and `violations` for an
   * outputSchema, `arguments.differences` for the inputSchema. A tool with runs but no stored
   * statistics (history from before inference) is rebuilt once.
   */
  async get(tool: string, declared: { outputSchema?: JsonSchema; inputSchema?: JsonSchema } = {}): Promise<InferredShapes> {
    try {
      await this.flushTool(tool);
    } catch (err) {
      this.opts.log(`shape stats flush failed for tool "${tool}"`, err);
    }
    let rows = await this.prisma.shapeStats.findMany({ where: { toolName: tool } });
    if (!rows.length && !this.autoRebuilt.has(tool)) {
      this.autoRebuilt.add(tool);
      const any = await this.prisma.run.findFirst({ where: { toolName: tool, status: { in: EXECUTED } }, select: { id: true } });
      if (any) {
        await this.rebuild(tool);
        rows = await this.prisma.shapeStats.findMany({ where: { toolName: tool } });
      }
    }
    const part = (kind: ShapeKind, against?: JsonSchema): InferredPart | null => {
      const row = rows.find((r) => r.kind === kind);
      if (!row || row.samples === 0) return null;
      const stats = parseStats(row.stats);
      return {
        schema: deriveSchema(stats),
        samples: stats.samples,
        fields: describeFields(stats),
        updatedAt: row.updatedAt.toISOString(),
        ...(against ? { differences: compareWithDeclared(against, stats) } : {}),
      };
    };
    const result: InferredShapes = { output: part("output"), arguments: part("arguments", declared.inputSchema) };
    if (declared.outputSchema) {
      const row = rows.find((r) => r.kind === "output");
      result.declared = declared.outputSchema;
      result.differences = row && row.samples ? compareWithDeclared(declared.outputSchema, parseStats(row.stats)) : [];
      result.violations = await this.violations(tool);
    }
    return result;
  }

  /** Recent runs whose structured content did not match the declared outputSchema. */
  async violations(tool: string, limit = this.opts.violations): Promise<OutputViolation[]> {
    const rows = await this.prisma.run.findMany({
      where: { toolName: tool, outputValid: false },
      orderBy: [{ startedAt: "desc" }, { id: "desc" }],
      take: limit,
      select: { id: true, startedAt: true, outputErrors: true },
    });
    return rows.map((r) => ({
      id: r.id,
      startedAt: r.startedAt.toISOString(),
      outputErrors: Array.isArray(r.outputErrors) ? (r.outputErrors as unknown as OutputViolation["outputErrors"]) : [],
    }));
  }
}

const json = (s: ShapeStatsData) => s as unknown as Prisma.InputJsonValue;
