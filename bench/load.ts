// npm run bench:load: the studio under sustained load, and nothing lost.
//
// Starts the production build (`npm start`: scripts/server.mjs) on a fresh PostgreSQL database (BENCH_LOAD_DB=pglite:
// the embedded database instead), then BENCH_LOAD_CLIENTS clients (200) call `add` through
// POST /api/tools/add/run for BENCH_LOAD_SECONDS (60) with a runner's API token, each call marked
// by its arguments (client, sequence). Reports the answers' statuses, latency p50/p95/p99, runs/s,
// the server's resident memory over time, and then matches the database against what the clients
// were told: acknowledged runs missing (lost) or stored twice (duplicated) must both be 0.
// Exits non-zero when anything was lost, duplicated, answered 5xx or dropped.
// Results: printed, and bench/results/load-latest.json.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { accountRuns, percentile, startLoad, statusCounts } from "../tests/helpers/load";
import { createDatabase, rssMiB, runnerToken, startStudioProcess, type StudioProcess } from "../tests/helpers/studio-process";
import { intEnv } from "./env";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const cfg = {
  clients: intEnv("BENCH_LOAD_CLIENTS", 200, 1, 5000),
  seconds: intEnv("BENCH_LOAD_SECONDS", 60, 1, 3600),
  pglite: process.env.BENCH_LOAD_DB === "pglite",
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function main(): Promise<number> {
  if (!existsSync(path.join(root, ".next", "BUILD_ID")) || process.env.BENCH_BUILD === "1") {
    console.log("Building the studio…");
    const r = spawnSync(path.join(root, "node_modules", ".bin", "next"), ["build"], { cwd: root, stdio: "inherit" });
    if (r.status !== 0) return 1;
  }
  const db = cfg.pglite ? null : await createDatabase();
  let studio: StudioProcess | undefined;
  const cleanup = async () => {
    await studio?.kill();
    await db?.drop().catch((e: unknown) => console.error(`could not drop ${db.name}: ${(e as Error).message}`));
  };
  process.once("SIGINT", () => {
    cleanup()
      .catch((e: unknown) => console.error("cleanup failed", e))
      .finally(() => process.exit(130));
  });
  try {
    studio = await startStudioProcess(db ? { databaseUrl: db.url } : {});
    const token = await runnerToken(studio.url, studio.adminToken);
    console.log(
      `Tool Studio load bench: ${cfg.clients} clients for ${cfg.seconds} s on ${db ? "PostgreSQL" : "PGlite"} (node ${process.version}, ${os.cpus().length} cores)`,
    );

    const rss: { s: number; mib: number }[] = [];
    const t0 = Date.now();
    const sample = () => {
      const mib = rssMiB(studio!.pid);
      if (mib !== null) rss.push({ s: Math.round((Date.now() - t0) / 1000), mib: Math.round(mib) });
    };
    sample();
    const sampler = setInterval(sample, 1000);
    const load = startLoad({ url: studio.url, token, clients: cfg.clients, durationMs: cfg.seconds * 1000, requestTimeoutMs: 60_000 });
    const calls = await load.done;
    clearInterval(sampler);
    sample();
    const wallS = (Date.now() - t0) / 1000;
    await sleep(500);
    // Nothing is in flight once every client has its answer, so the database holds the final count.
    const account = db ? await accountRuns(db.url, calls) : null;

    const ms = calls.map((c) => c.ms).sort((a, b) => a - b);
    const statuses = statusCounts(calls);
    const acked = calls.filter((c) => c.runId).length;
    const bad = calls.filter((c) => typeof c.status !== "number" || c.status >= 500).length;
    const perTen = rss.filter((r, i) => r.s % 10 === 0 || i === rss.length - 1);
    const result = {
      at: new Date().toISOString(),
      clients: cfg.clients,
      seconds: cfg.seconds,
      database: db ? "postgresql" : "pglite",
      calls: calls.length,
      statuses,
      latencyMs: { p50: percentile(ms, 0.5), p95: percentile(ms, 0.95), p99: percentile(ms, 0.99), max: ms.at(-1) ?? NaN },
      runsPerSec: acked / wallS,
      rssMiB: { start: rss[0]?.mib, max: Math.max(...rss.map((r) => r.mib)), end: rss.at(-1)?.mib, timeline: perTen },
      runs: account
        ? {
            acknowledged: account.acknowledged,
            stored: account.stored,
            lost: account.lost.length,
            duplicated: account.duplicated.length,
            running: account.running,
          }
        : null,
    };
    const f = (n: number) => n.toFixed(n < 10 ? 1 : 0);
    console.log(
      `\ncalls ${calls.length} in ${wallS.toFixed(1)} s; statuses ${Object.entries(statuses)
        .map(([s, n]) => `${s}×${n}`)
        .join(" ")}`,
    );
    console.log(
      `latency p50 ${f(result.latencyMs.p50)} ms, p95 ${f(result.latencyMs.p95)} ms, p99 ${f(result.latencyMs.p99)} ms, max ${f(result.latencyMs.max)} ms`,
    );
    console.log(`runs/s ${f(result.runsPerSec)} (acknowledged runs over the wall time)`);
    console.log(`server RSS MiB: ${perTen.map((r) => `${r.s}s ${r.mib}`).join(", ")} (max ${result.rssMiB.max})`);
    if (result.runs)
      console.log(
        `runs: ${result.runs.acknowledged} acknowledged, ${result.runs.stored} stored, ${result.runs.lost} lost, ${result.runs.duplicated} duplicated, ${result.runs.running} still running`,
      );
    else console.log("runs: not matched on PGlite (the studio holds the only connection to its data dir)");
    mkdirSync(path.join(root, "bench", "results"), { recursive: true });
    writeFileSync(path.join(root, "bench", "results", "load-latest.json"), JSON.stringify(result, null, 2));

    const problems = [
      ...(bad ? [`${bad} calls answered 5xx or were dropped`] : []),
      ...(account?.lost.length ? [`lost: ${account.lost.slice(0, 5).join(", ")}`] : []),
      ...(account?.duplicated.length ? [`duplicated: ${account.duplicated.slice(0, 5).join(", ")}`] : []),
      ...(account?.running ? [`${account.running} runs still running`] : []),
    ];
    for (const p of problems) console.error(`PROBLEM: ${p}`);
    return problems.length ? 1 : 0;
  } finally {
    await cleanup();
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
