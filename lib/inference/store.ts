/**
 * ShapeStore: the observed shapes of each tool's outputs and arguments, kept in `shape_stats`
 * (one row per tool and kind) and merged incrementally from captured runs. A facade: it composes
 * the rooms below and is what the rest of the studio uses.
 *
 * - lib/inference/samples.ts: what is sampled (the same rules for live runs and for `rebuild`).
 * - lib/inference/queue.ts: the observer side — queues samples in memory and flushes them.
 * - lib/inference/storage.ts: the rows — merges batches under a row lock, recounts, replaces.
 * - lib/inference/queries.ts: reading shapes for the API — schemas derived on read, compared.
 *
 * Missing statistics (runs captured before inference existed, or rows deleted) are recomputed
 * from the runs table by `rebuild`: on any `get` of a tool that has runs but no rows, and
 * when a flush creates a tool's row while runs of it from before the store was created exist.
 * Each run is counted exactly once, whichever process captured it, queued it or rebuilt its tool:
 * merges and rebuilds mark the runs they count (`runs.shape_counted`, see storage.ts). Samples
 * still queued in a process that dies are counted by `sweep`, which any process runs.
 */
import type { PrismaClient } from "../db/generated/client";
import type { RunObserver } from "../execution/execute";
import type { Run } from "../runs/types";
import type { JsonSchema } from "../tools/spec";
import { recentViolations, shapesOf, type InferredShapes, type OutputViolation } from "./queries";
import { SampleQueue } from "./queue";
import type { Queued, ShapeKind } from "./samples";
import type { ShapeStatsData } from "./stats";
import { ShapeStatsStorage, type ShapeAudit, type ShapeRevisionInfo } from "./storage";

export { SHAPE_KINDS, outputSample, samplesOf, type ShapeKind } from "./samples";
export type { InferredPart, InferredShapes, OutputViolation } from "./queries";
export type { ShapeAudit, ShapeRevisionInfo } from "./storage";

export interface ShapeStoreOptions {
  /**
   * Delay between the first queued sample of a tool and its flush (default 500 ms). A flush
   * rewrites the tool's statistics (a read, a merge and two JSON rows): once per run at a steady
   * rate it cost more than the run's own capture (issue 12's profile). Readers in this process
   * flush first (`get`); other instances see the samples within the delay.
   */
  flushDelayMs?: number;
  /** Queue length of one tool that triggers a flush at once. */
  maxQueue?: number;
  /** Delay before retrying a failed flush. */
  retryMs?: number;
  /** How many recent violating runs `get` lists. */
  violations?: number;
  log?: (message: string, err?: unknown) => void;
  /** The entry each new revision of a tool's output shape commits with (the studio's `shape.change`). */
  audit?: ShapeAudit;
}

export class ShapeStore {
  private readonly opts: Required<Omit<ShapeStoreOptions, "audit">>;
  private readonly storage: ShapeStatsStorage;
  private readonly queue: SampleQueue;

  constructor(
    private readonly prisma: PrismaClient,
    opts: ShapeStoreOptions = {},
  ) {
    this.opts = {
      flushDelayMs: opts.flushDelayMs ?? 500,
      maxQueue: opts.maxQueue ?? 256,
      retryMs: opts.retryMs ?? 2_000,
      violations: opts.violations ?? 20,
      log: opts.log ?? ((m, e) => console.error(`[tool-studio] ${m}`, e ?? "")),
    };
    this.storage = new ShapeStatsStorage(prisma, opts.audit);
    this.queue = new SampleQueue({ write: (tool, batch) => this.write(tool, batch), rowCreated: (tool, batch) => this.rebuildOlder(tool, batch) }, this.opts);
  }

  private async write(tool: string, batch: Queued[]): Promise<boolean> {
    return (await this.storage.merge(tool, batch)).created;
  }

  /** The revisions of a tool's output shape, newest first, each with its schema. */
  revisions(tool: string, limit?: number): Promise<(ShapeRevisionInfo & { schema: unknown })[]> {
    return this.storage.revisions(tool, "output", limit);
  }

  /** Tools whose output shape changed since `since` (revisions after the first), with when. */
  changedSince(since: Date): Promise<Map<string, Date>> {
    return this.storage.changedSince(since);
  }

  /** The RunObserver to hand to executeTool: queues and returns at once. */
  observer(): RunObserver {
    return { name: "inference", onRunCaptured: (run) => this.observe(run) };
  }

  /** Queues the samples of a captured run; the write happens later (see `flush`). */
  observe(run: Run): void {
    this.queue.observe(run);
  }

  /** Samples queued and not yet written (all tools). */
  pending(): number {
    return this.queue.pending();
  }

  /** Writes everything queued for one tool. */
  flushTool(tool: string): Promise<void> {
    return this.queue.flushTool(tool);
  }

  /** Writes everything queued, for every tool, including what is queued while it runs. */
  flush(): Promise<void> {
    return this.queue.flush();
  }

  /**
   * A flush just created a row of the tool: if the tool has executed runs besides those of this
   * batch (history captured before inference, or stats deleted while the studio runs), count them
   * all once with a rebuild, queued behind this flush.
   */
  private async rebuildOlder(tool: string, batch: Queued[]): Promise<void> {
    const ids = new Set(batch.map((q) => q.runId));
    const runs = await this.storage.countRuns(tool);
    if (runs > ids.size) this.rebuild(tool).catch((err) => this.opts.log(`shape stats rebuild failed for tool "${tool}"`, err));
  }

  /**
   * Recomputes a tool's statistics from the runs table (oldest first, keyset-paged), replacing
   * the stored rows. Queued samples of runs the rebuild read are dropped, so nothing is counted
   * twice; runs still running are left to their observer call.
   */
  rebuild(tool: string): Promise<Record<ShapeKind, number>> {
    return this.queue.serialize(tool, async () => {
      const { stats, seen } = await this.storage.rebuild(tool);
      this.queue.dropRebuilt(tool, seen); // their merges would find them counted; no need to try
      return { output: stats.output.samples, arguments: stats.arguments.samples };
    });
  }

  /**
   * Counts runs whose samples no process wrote (it died with them queued): executed runs started
   * within `windowMs`, finished over `graceMs` ago (their own process has had time to write them),
   * still not marked counted. They are queued here and merged like live ones (a merge skips any
   * its own process wrote meanwhile). Returns how many runs were found (at most `limit`).
   */
  async sweep({ windowMs, graceMs, limit = 1000 }: { windowMs: number; graceMs: number; limit?: number }): Promise<number> {
    const now = Date.now();
    const found = await this.storage.uncounted(new Date(now - windowMs), new Date(now - graceMs), limit);
    for (const { tool, samples } of found) this.queue.enqueue(tool, samples);
    await this.queue.flush();
    return found.length;
  }

  /** The raw statistics of one tool and kind (null when none are stored). */
  stats(tool: string, kind: ShapeKind): Promise<{ samples: number; stats: ShapeStatsData; updatedAt: Date } | null> {
    return this.storage.stats(tool, kind);
  }

  /**
   * The inferred shapes of a tool. Writes the tool's queued samples first. With the tool's
   * declared schemas, also compares: `declared`, `differences` and `violations` for an
   * outputSchema, `arguments.differences` for the inputSchema. A tool with runs but no stored
   * statistics (history from before inference, or rows deleted) is rebuilt, each time they are missing.
   */
  async get(tool: string, declared: { outputSchema?: JsonSchema; inputSchema?: JsonSchema } = {}): Promise<InferredShapes> {
    try {
      await this.flushTool(tool);
    } catch (err) {
      this.opts.log(`shape stats flush failed for tool "${tool}"`, err);
    }
    let rows = await this.storage.rows(tool);
    // Whenever the rows are missing (never written, or deleted since): a rebuild writes both
    // kinds, so a tool with runs is rebuilt once per loss, not on every read.
    if (!rows.length) {
      if (await this.storage.hasRuns(tool)) {
        await this.rebuild(tool);
        rows = await this.storage.rows(tool);
      }
    }
    const result = shapesOf(rows, declared);
    if (declared.outputSchema) result.violations = await this.violations(tool);
    result.revisions = (await this.storage.revisions(tool)).map(({ schema: _schema, ...r }) => r);
    return result;
  }

  /** Recent runs whose structured content did not match the declared outputSchema. */
  violations(tool: string, limit = this.opts.violations): Promise<OutputViolation[]> {
    return recentViolations(this.prisma, tool, limit);
  }
}
