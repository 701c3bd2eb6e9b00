// npm run worker: a process that runs queued tool runs (`"mode": "async"`) and nothing else. Start
// as many as the work needs, on this machine or others, with the studio's DATABASE_URL; they take
// jobs from the same pg-boss queue as the web instances (which stop taking them with STUDIO_WORKER=off).
//
// SIGTERM or SIGINT: stop taking jobs, let the runs in hand finish (up to STUDIO_WORKER_DRAIN_MS,
// default 30 s), then exit. A run still going then is cut short and stored `interrupted` (if the
// process dies first, its lease running out ends it the same way).
import { closeDb } from "../lib/db/client";
import { instanceId } from "../lib/runs/leases";
import { getStudio } from "../lib/studio/studio";

// A log reader that went away (a supervisor that died, a test runner killed, `| head`) must not
// spin the server: Next logs every uncaught error to stderr, and a write to a closed pipe is one
// more, so an unheard EPIPE looped at a core's full speed. Logs that nobody can read are dropped.
for (const stream of [process.stdout, process.stderr]) {
  stream.on("error", (err: NodeJS.ErrnoException) => {
    if (err.code !== "EPIPE") throw err;
  });
}

if (!process.env.DATABASE_URL) {
  console.error(
    "npm run worker needs DATABASE_URL (PostgreSQL). On the embedded database (PGlite) the studio process is the only one that can open it, and it runs queued runs itself.",
  );
  process.exit(2);
}

const concurrency = Number(process.env.STUDIO_WORKER_CONCURRENCY) || 4;
const studio = await getStudio({ worker: true, role: "worker" });
console.log(`[tool-studio] worker ${instanceId()} takes queued runs, ${concurrency} at a time`);

let stopping = false;
async function stop(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  console.log(`[tool-studio] worker: ${signal}, finishing the runs in hand`);
  const drainMs = Number(process.env.STUDIO_WORKER_DRAIN_MS) || 30_000;
  try {
    await studio.queue.stop(drainMs);
    await studio.mcp.close();
    await studio.notifier?.close();
    await closeDb();
  } catch (err) {
    console.error("[tool-studio] worker: stopping failed", err);
    process.exit(1);
  }
  process.exit(0);
}
for (const sig of ["SIGINT", "SIGTERM"] as const)
  process.on(sig, () => {
    stop(sig).catch((err) => console.error(err));
  });
