// Group commit: units of work submitted at the same moment are written together, in ONE
// transaction, so a busy studio pays one lock, one chain-head read and one flushed commit per
// batch instead of per unit. The audit log's appends and a run's end (lib/runs/store.ts) both
// use it; what a batch's transaction holds is the writer's business.
//
// While a batch is written, new units wait for the next one (at most `max`, in submission order).
// Every unit's promise settles only after its batch's transaction: with its result once it has
// committed, or with the error. A batch that fails is retried unit by unit for the units that may
// be (`alone`), so only the unit at fault is lost to its caller; the others share their batch's fate.
// An idle committer writes a lone unit at once: a single caller waits no longer than without it.

interface Pending<U> {
  unit: U;
  resolve(value: unknown): void;
  reject(err: unknown): void;
}

type Outcome = { ok: true; value: unknown } | { ok: false; err: unknown };

export class GroupCommit<U> {
  private queue: Pending<U>[] = [];
  private writing = false;

  /**
   * `write`: one transaction for the whole batch, resolving with one result per unit, in order.
   * `alone`: whether a unit of a failed batch is retried by itself.
   */
  constructor(
    private readonly write: (batch: U[]) => Promise<unknown[]>,
    private readonly opts: { max: number; alone: (unit: U) => boolean; name: string },
  ) {}

  submit<R>(unit: U): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.queue.push({ unit, resolve: resolve as (v: unknown) => void, reject });
      if (this.writing) return;
      this.writing = true;
      // After the current synchronous code, so units submitted together share the first batch.
      queueMicrotask(() => {
        this.drain().catch((err) => console.error(`[tool-studio] ${this.opts.name}: the batch writer failed`, err));
      });
    });
  }

  /** Writes batches until the queue is empty; the only consumer of the queue. Never rejects. */
  private async drain(): Promise<void> {
    try {
      while (this.queue.length) {
        const batch = this.queue.splice(0, this.opts.max);
        let outcomes: Outcome[];
        try {
          const values = await this.write(batch.map((p) => p.unit));
          outcomes = values.map((value) => ({ ok: true, value }));
        } catch (err) {
          outcomes = [];
          for (const p of batch) outcomes.push(batch.length > 1 && this.opts.alone(p.unit) ? await this.writeAlone(p.unit) : { ok: false, err });
        }
        batch.forEach((p, i) => {
          const o = outcomes[i]!;
          if (o.ok) p.resolve(o.value);
          else p.reject(o.err);
        });
      }
    } finally {
      this.writing = false;
    }
  }

  private async writeAlone(unit: U): Promise<Outcome> {
    try {
      return { ok: true, value: (await this.write([unit]))[0] };
    } catch (err) {
      return { ok: false, err };
    }
  }
}
