/**
 * The sample queue: the observer side of inference. It queues the samples of captured runs (per
 * tool, in memory) and flushes them to a writer; it never touches the database itself.
 *
 * Concurrency: `observe` only queues and schedules a flush; it never waits for the database. A
 * flush takes the tool's whole queue and hands it to the writer as one batch (the writer merges
 * it into the rows under a row lock, see lib/inference/storage.ts). Within the process, flushes
 * of one tool are chained (`serialize`, which rebuilds join too), so they do not wait on each
 * other's row locks. A failed flush puts its samples back at the head of the queue and retries
 * later.
 */
import type { Run } from "../runs/types";
import { samplesOf, type Queued } from "./samples";

/** Queued samples per tool beyond which new ones are dropped (the database is not keeping up). */
const MAX_QUEUED_PER_TOOL = 20_000;
/** How long ids read by a rebuild are remembered, to drop late observer calls for them. */
const REBUILD_MEMORY_MS = 60_000;

export interface SampleQueueOptions {
  /** Delay between the first queued sample of a tool and its flush (batches bursts). */
  flushDelayMs: number;
  /** Queue length of one tool that triggers a flush at once. */
  maxQueue: number;
  /** Delay before retrying a failed flush. */
  retryMs: number;
  log: (message: string, err?: unknown) => void;
}

/** Where a flush writes a tool's batch. */
export interface SampleWriter {
  /** Merges one batch into the rows; true when a row had to be created. A throw puts the batch back. */
  write(tool: string, batch: Queued[]): Promise<boolean>;
  /**
   * After a write that created a row, still in the tool's turn. A throw fails the flush but
   * does not put the batch back (it has been written).
   */
  rowCreated(tool: string, batch: Queued[]): Promise<void>;
}

export class SampleQueue {
  private readonly queues = new Map<string, Queued[]>();
  private readonly chains = new Map<string, Promise<void>>();
  private readonly timers = new Map<string, ReturnType<typeof setTimeout>>();
  private readonly rebuiltIds = new Map<string, { ids: Set<string>; until: number }>();
  private readonly overflowed = new Set<string>();

  constructor(
    private readonly writer: SampleWriter,
    private readonly opts: SampleQueueOptions,
  ) {}

  /** Queues the samples of a captured run; the write happens later (see `flushTool`). */
  observe(run: Run): void {
    const recent = this.rebuiltIds.get(run.tool);
    if (recent) {
      if (recent.until < Date.now()) this.rebuiltIds.delete(run.tool);
      else if (recent.ids.has(run.id)) return; // already counted by a rebuild
    }
    this.enqueue(run.tool, samplesOf(run));
  }

  /** Queues samples of a tool's runs (a captured run's, or the sweep's). */
  enqueue(tool: string, samples: Queued[]): void {
    if (!samples.length) return;
    let q = this.queues.get(tool);
    if (!q) this.queues.set(tool, (q = []));
    if (q.length >= MAX_QUEUED_PER_TOOL) {
      // The database has been failing for a while: keep memory bounded, say so once.
      if (!this.overflowed.has(tool)) {
        this.overflowed.add(tool);
        this.opts.log(`shape stats queue of tool "${tool}" is full; samples are dropped until it drains (the sweep or rebuild() counts them)`);
      }
      return;
    }
    this.overflowed.delete(tool);
    q.push(...samples);
    this.schedule(tool, q.length >= this.opts.maxQueue ? 0 : this.opts.flushDelayMs);
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
  serialize<T>(tool: string, fn: () => Promise<T>): Promise<T> {
    const prev = this.chains.get(tool) ?? Promise.resolve();
    const next = prev.then(fn);
    const tail = next.then(
      () => {},
      () => {},
    );
    this.chains.set(tool, tail);
    tail
      .then(() => {
        if (this.chains.get(tool) === tail) this.chains.delete(tool);
      })
      // `tail` never rejects and the clean-up does not throw: logged should that ever change
      .catch((err) => this.opts.log(`shape stats: clean-up of the queue of tool "${tool}" failed`, err));
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
        created = await this.writer.write(tool, batch);
      } catch (err) {
        // back at the head, before anything queued meanwhile: order is kept, nothing is lost
        const later = this.queues.get(tool) ?? [];
        this.queues.set(tool, [...batch, ...later]);
        throw err;
      }
      if (created) await this.writer.rowCreated(tool, batch);
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

  /**
   * A rebuild has counted the runs `ids`: their queued samples are dropped, and observer calls
   * for them arriving in the next REBUILD_MEMORY_MS are ignored, so nothing is counted twice.
   */
  dropRebuilt(tool: string, ids: Set<string>): void {
    // Samples of runs read by the rebuild that were queued meanwhile (or arrive late) are dropped.
    const q = this.queues.get(tool);
    if (q) {
      const rest = q.filter((s) => !ids.has(s.runId));
      if (rest.length) this.queues.set(tool, rest);
      else this.queues.delete(tool);
    }
    this.rebuiltIds.set(tool, { ids, until: Date.now() + REBUILD_MEMORY_MS });
  }
}
