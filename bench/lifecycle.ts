import { spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { spawnSync } from "node:child_process";
import { createTestDatabase, TEST_DATABASE_URL, type TestDatabase } from "../tests/helpers/db";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/**
 * Starts bench/reaper.mjs, a detached helper that removes the process groups and databases a bench
 * told it about if the bench is killed outright (SIGKILL skips every handler; tsx does that on an
 * unacknowledged Ctrl-C). Returns how to tell it: `{pgid}`, `{pgidGone}`, `{db}`, `{dbGone}`, and
 * `{done: true}` at the end (then it exits quietly if everything was removed).
 */
export function startReaper(maxSeconds: number): { tell(msg: object): void; end(): void } {
  const reaper = spawn(process.execPath, [path.join(root, "bench", "reaper.mjs")], {
    cwd: root,
    detached: true,
    stdio: ["pipe", "ignore", "inherit"],
    env: { ...process.env, REAPER_ADMIN_URL: TEST_DATABASE_URL, REAPER_MAX_S: String(maxSeconds) },
  });
  reaper.unref();
  reaper.stdin?.on("error", () => {}); // the reaper is gone: nobody to tell
  return {
    tell(msg) {
      try {
        reaper.stdin?.write(JSON.stringify(msg) + "\n");
      } catch {
        // the reaper is gone: nobody to tell
      }
    },
    end() {
      reaper.stdin?.end();
    },
  };
}

export interface BenchLifecycle {
  /** Tell the reaper (see startReaper). */
  tell(msg: object): void;
  /** Run in reverse order by cleanup(), on Ctrl-C and when the time limit is reached. */
  cleanups: (() => Promise<void>)[];
  cleanup(): Promise<void>;
  /** The bench finished in time. */
  disarm(): void;
  /** A fresh migrated database, dropped by cleanup() (or by the reaper). */
  database(): Promise<TestDatabase>;
}

/** Builds the studio when its build is older than its sources (scripts/studio.mjs decides). */
export function buildStudio(): void {
  const r = spawnSync(process.execPath, [path.join(root, "scripts", "studio.mjs"), "--build-only"], { cwd: root, stdio: "inherit" });
  if (r.status !== 0) throw new Error("the build failed");
}

/**
 * The reaper, a cleanup list that runs once (at the end, on SIGINT/SIGTERM with exit 130, and at
 * `timeoutS` with exit 2), for the benches that start one studio (page-weight, big-registry).
 */
export function benchLifecycle(name: string, timeoutS: number): BenchLifecycle {
  const reaper = startReaper(timeoutS + 120);
  const cleanups: (() => Promise<void>)[] = [];
  let cleaning: Promise<void> | undefined;
  const cleanup = (): Promise<void> =>
    (cleaning ??= (async () => {
      for (const fn of cleanups.splice(0).reverse()) {
        try {
          await fn();
        } catch (e) {
          console.error(`cleanup: ${(e as Error).message}`);
        }
      }
      reaper.tell({ done: true });
      reaper.end();
    })());
  for (const sig of ["SIGINT", "SIGTERM"] as const) {
    process.once(sig, () => {
      console.error(`\n${sig}: cleaning up…`);
      cleanup()
        .finally(() => process.exit(130))
        .catch(() => process.exit(130));
    });
  }
  const watchdog = setTimeout(() => {
    console.error(`\n${name} exceeded BENCH_TIMEOUT_S=${timeoutS}s: cleaning up and failing.`);
    cleanup()
      .finally(() => process.exit(2))
      .catch(() => process.exit(2));
  }, timeoutS * 1000);
  watchdog.unref();
  const database = async () => {
    const db = await createTestDatabase({ migrate: true });
    reaper.tell({ db: db.name });
    cleanups.push(async () => {
      await db.drop();
      reaper.tell({ dbGone: db.name });
    });
    return db;
  };
  return { tell: reaper.tell, cleanups, cleanup, disarm: () => clearTimeout(watchdog), database };
}
