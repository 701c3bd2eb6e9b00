/** When to try a failed MCP connection again. */

export interface BackoffOptions {
  /** First retry delay (default 500 ms); doubles on each failure... */
  initialMs?: number;
  /** ...up to this (default 30 s). */
  maxMs?: number;
  /** Random spread, as a fraction of the delay (default 0.2 = +-20 %). */
  jitter?: number;
}

/** Exponential backoff with jitter: initial * 2^(failures-1), capped, +-jitter. */
export function backoffDelay(failures: number, opts: BackoffOptions = {}, random: () => number = Math.random): number {
  const initial = opts.initialMs ?? 500;
  const max = opts.maxMs ?? 30_000;
  const jitter = opts.jitter ?? 0.2;
  const base = Math.min(max, initial * 2 ** Math.max(0, failures - 1));
  return Math.max(0, Math.min(max, Math.round(base * (1 + jitter * (random() * 2 - 1)))));
}
