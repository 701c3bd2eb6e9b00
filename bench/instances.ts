// npm run bench:instances: the web tier on one and on two instances, measured in one run.
//
// One fresh PostgreSQL database; instance A (the production build, `npm start`: scripts/server.mjs), then A and B,
// each phase behind the same small round-robin proxy on loopback (tests/helpers/round-robin.ts)
// so both pay the same hop. BENCH_INSTANCES_CLIENTS clients (32) call `add` through
// POST /api/tools/add/run for BENCH_INSTANCES_SECONDS (15) per phase, after a 3 s warm-up.
// Besides runs/s and latency, it reports what a capacity model needs per run: CPU ms of the web
// instances and of PostgreSQL (from /proc), database commits and WAL bytes (pg_stat_database,
// pg_stat_wal). Results: printed, and bench/results/instances-latest.json.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { percentile, startLoad, statusCounts } from "../tests/helpers/load";
import { startRoundRobin } from "../tests/helpers/round-robin";
import { createDatabase, query, runnerToken, startStudioProcess, type StudioProcess } from "../tests/helpers/studio-process";
import { intEnv } from "./env";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const cfg = { clients: intEnv("BENCH_INSTANCES_CLIENTS", 32, 1, 2000), seconds: intEnv("BENCH_INSTANCES_SECONDS", 15, 1, 600) };
const TICK_MS = 1000 / 100; // USER_HZ

/** CPU time (user + system) of a process and its children that were waited for, in ms. */
function cpuMs(pid: number): number {
  try {
    const f = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return (Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14])) * TICK_MS;
  } catch {
    return 0;
  }
}

/** Every process of a server (its pid and all its descendants). */
function tree(pid: number): number[] {
  const parent = new Map<number, number>();
  for (const d of readdirSync("/proc")) {
    if (!/^\d+$/.test(d)) continue;
    try {
      parent.set(Number(d), Number(readFileSync(`/proc/${d}/stat`, "utf8").split(") ")[1]!.split(" ")[1]));
    } catch {
      /* gone */
    }
  }
  const out = [pid];
  for (let i = 0; i < out.length; i++) for (const [p, pp] of parent) if (pp === out[i]) out.push(p);
  return out;
}

/** CPU ms of all PostgreSQL backends on this machine (the server runs locally). */
function postgresCpuMs(): number {
  let sum = 0;
  for (const d of readdirSync("/proc")) {
    if (!/^\d+$/.test(d)) continue;
    try {
      if (readFileSync(`/proc/${d}/comm`, "utf8").trim() === "postgres") sum += cpuMs(Number(d));
    } catch {
      /* gone */
    }
  }
  return sum;
}

async function dbStats(url: string, name: string): Promise<{ commits: number; walBytes: number }> {
  const [c] = await query<{ n: string }>(url, "SELECT xact_commit::text AS n FROM pg_stat_database WHERE datname = $1", [name]);
  const [w] = await query<{ b: string }>(url, "SELECT wal_bytes::text AS b FROM pg_stat_wal").catch(() => [{ b: "0" }]);
  return { commits: Number(c?.n ?? 0), walBytes: Number(w?.b ?? 0) };
}

async function phase(label: string, instances: StudioProcess[], token: string, db: { url: string; name: string }) {
  const proxy = await startRoundRobin(instances.map((i) => i.url));
  try {
    await startLoad({ url: proxy.url, token, clients: cfg.clients, durationMs: 3000 }).done; // warm-up
    await new Promise((r) => setTimeout(r, 1000)); // let stats settle
    const pids = instances.flatMap((i) => tree(i.pid));
    const webBefore = pids.reduce((s, p) => s + cpuMs(p), 0);
    const pgBefore = postgresCpuMs();
    const statsBefore = await dbStats(db.url, db.name);
    const selfBefore = process.cpuUsage();
    const t0 = performance.now();
    const calls = await startLoad({ url: proxy.url, token, clients: cfg.clients, durationMs: cfg.seconds * 1000 }).done;
    const wallS = (performance.now() - t0) / 1000;
    const self = process.cpuUsage(selfBefore);
    await new Promise((r) => setTimeout(r, 600)); // pg_stat counters are flushed at most every 500 ms
    const statsAfter = await dbStats(db.url, db.name);
    const runs = calls.filter((c) => c.status === 200).length;
    const ms = calls.map((c) => c.ms).sort((a, b) => a - b);
    const bad = calls.filter((c) => c.status !== 200).length;
    return {
      label,
      instances: instances.length,
      calls: calls.length,
      statuses: statusCounts(calls),
      bad,
      runsPerSec: runs / wallS,
      p50: percentile(ms, 0.5),
      p95: percentile(ms, 0.95),
      webCpuMsPerRun: (pids.reduce((s, p) => s + cpuMs(p), 0) - webBefore) / runs,
      pgCpuMsPerRun: (postgresCpuMs() - pgBefore) / runs,
      // The clients and the proxy share the machine: what they take is not available to the studio.
      loadCpuMsPerRun: (self.user + self.system) / 1000 / runs,
      commitsPerRun: (statsAfter.commits - statsBefore.commits) / runs,
      walBytesPerRun: (statsAfter.walBytes - statsBefore.walBytes) / runs,
      perBackend: proxy.counts,
    };
  } finally {
    await proxy.close();
  }
}

async function main(): Promise<number> {
  if (!existsSync(path.join(root, ".next", "BUILD_ID")) || process.env.BENCH_BUILD === "1") {
    console.log("Building the studio…");
    const r = spawnSync(path.join(root, "node_modules", ".bin", "next"), ["build"], { cwd: root, stdio: "inherit" });
    if (r.status !== 0) return 1;
  }
  const db = await createDatabase();
  const started: StudioProcess[] = [];
  try {
    const adminToken = `bench-${Date.now()}`;
    const a = await startStudioProcess({ databaseUrl: db.url, adminToken });
    started.push(a);
    const token = await runnerToken(a.url, adminToken);
    console.log(
      `Tool Studio web tier, 1 vs 2 instances: ${cfg.clients} clients, ${cfg.seconds} s per phase, one PostgreSQL (node ${process.version}, ${os.cpus().length} cores, load ${os.loadavg()[0]!.toFixed(2)})`,
    );
    const one = await phase("1 web instance", [a], token, db);
    const b = await startStudioProcess({ databaseUrl: db.url, adminToken });
    started.push(b);
    const two = await phase("2 web instances", [a, b], token, db);
    const rows = [one, two];
    // What a run leaves on disk: the runs table and the audit log with their indexes, per run stored.
    const [size] = await query<{ runs: string; audit: string; n: string }>(
      db.url,
      "SELECT pg_total_relation_size('runs')::text AS runs, pg_total_relation_size('audit_log')::text AS audit, (SELECT count(*) FROM runs)::text AS n",
    );
    const stored = { runs: Number(size!.runs) / Number(size!.n), audit: Number(size!.audit) / Number(size!.n), count: Number(size!.n) };
    const f = (n: number, d = 1) => n.toFixed(d);
    console.log("\n| phase | runs/s | p50 ms | p95 ms | web CPU ms/run | PostgreSQL CPU ms/run | clients+proxy CPU ms/run | commits/run | WAL bytes/run |");
    console.log("| --- | --- | --- | --- | --- | --- | --- | --- | --- |");
    for (const r of rows)
      console.log(
        `| ${r.label} | ${f(r.runsPerSec, 0)} | ${f(r.p50)} | ${f(r.p95)} | ${f(r.webCpuMsPerRun, 2)} | ${f(r.pgCpuMsPerRun, 2)} | ${f(r.loadCpuMsPerRun, 2)} | ${f(r.commitsPerRun, 2)} | ${f(r.walBytesPerRun, 0)} |`,
      );
    console.log(`\nstored per run: ${f(stored.runs, 0)} bytes in runs + ${f(stored.audit, 0)} bytes in audit_log (indexes included, ${stored.count} runs)`);
    console.log(`2 vs 1: ${f(two.runsPerSec / one.runsPerSec, 2)}x the runs/s; requests per backend ${JSON.stringify(two.perBackend)}`);
    mkdirSync(path.join(root, "bench", "results"), { recursive: true });
    writeFileSync(
      path.join(root, "bench", "results", "instances-latest.json"),
      JSON.stringify({ at: new Date().toISOString(), cores: os.cpus().length, ...cfg, phases: rows, storedBytesPerRun: stored }, null, 2),
    );
    const bad = rows.reduce((s, r) => s + r.bad, 0);
    if (bad) console.error(`PROBLEM: ${bad} calls not answered 200`);
    return bad ? 1 : 0;
  } finally {
    for (const s of started) await s.kill().catch(() => undefined);
    await db.drop().catch((e: unknown) => console.error(`could not drop ${db.name}: ${(e as Error).message}`));
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
