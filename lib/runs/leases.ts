import { processSlot } from "../process/slots";
import { randomUUID } from "node:crypto";
import os from "node:os";
import type { RunStore } from "./store";

/**
 * Run leases: the process running a run renews its lease while the run is in flight; when a
 * process dies, its runs' leases run out and whichever instance sweeps next marks them
 * interrupted. So several studios and workers can share one database, and a starting instance
 * never interrupts runs that another live instance is running. Instances' clocks must agree to
 * well within the lease (NTP does).
 */

const instanceSlot = processSlot<string>("instanceId");

/** This process's name as an owner of runs (host, pid and a random part: pids repeat). */
export function instanceId(): string {
  return instanceSlot.use(() => `${os.hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`);
}

/** STUDIO_RUN_LEASE_MS: how long a run stays leased without a renewal (default 30 s, at least 1 s). */
export function leaseMs(env: Record<string, string | undefined> = process.env): number {
  const v = Number(env.STUDIO_RUN_LEASE_MS);
  return Number.isInteger(v) && v >= 1000 ? v : 30_000;
}

export interface LeaseKeeper {
  stop(): void;
}

/**
 * Renews the leases of the runs this process holds every third of the lease, and sweeps runs
 * whose lease has ended every half lease. Failures (the database away) are retried at the next
 * tick: a lease has two renewals' worth of slack. A process never sweeps the runs it holds, and
 * sweeps nothing for one lease after it saw the database fail: an outage longer than a lease
 * ends every lease at once, and the live owners need one renewal after it to say they are alive.
 */
export function keepLeases(runs: RunStore, opts: { ms: number; held: () => string[] }): LeaseKeeper {
  let troubleAt = Number.NEGATIVE_INFINITY;
  const quiet = (what: string) => (err: unknown) => {
    troubleAt = Date.now();
    console.warn(`[tool-studio] run leases: ${what} failed (retried): ${(err as Error)?.message ?? String(err)}`.slice(0, 500));
  };
  const renew = setInterval(
    () => {
      runs.renewLeases(opts.held()).catch(quiet("renewal"));
    },
    Math.max(200, Math.floor(opts.ms / 3)),
  );
  const sweep = setInterval(
    () => {
      if (!maySweep(troubleAt, Date.now(), opts.ms)) return;
      runs.expireLeases(new Date(), opts.held()).catch(quiet("sweep"));
    },
    Math.max(500, Math.floor(opts.ms / 2)),
  );
  renew.unref?.();
  sweep.unref?.();
  return {
    stop() {
      clearInterval(renew);
      clearInterval(sweep);
    },
  };
}

/** Whether a sweep may run now: not within one lease of the last time the database failed this process. */
export function maySweep(troubleAt: number, now: number, ms: number): boolean {
  return now - troubleAt >= ms;
}
