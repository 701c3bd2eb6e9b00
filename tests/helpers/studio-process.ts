// A real studio server (the production build, served by scripts/server.mjs as `npm start` does) in its own process group, for tests
// and benchmarks that must load it, kill it or stop its database under it. Needs an existing
// build (.next/BUILD_ID): Playwright's webServer and the benches make one first.
// Plain Node and pg only, no lib/ imports, so Playwright specs can use it as well as vitest and tsx.
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { copyFileSync, existsSync, mkdtempSync, readFileSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export const MAIN_DATABASE_URL = process.env.TEST_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
  });
}

/** A new, empty database on a PostgreSQL server (the studio migrates it on first use). */
export async function createDatabase(adminUrl = MAIN_DATABASE_URL): Promise<{ url: string; name: string; drop(): Promise<void> }> {
  const name = `tool_studio_proc_${process.pid}_${randomBytes(4).toString("hex")}`;
  const admin = async (sql: string) => {
    const c = new pg.Client({ connectionString: adminUrl });
    await c.connect();
    try {
      await c.query(sql);
    } finally {
      await c.end();
    }
  };
  await admin(`CREATE DATABASE "${name}"`);
  const u = new URL(adminUrl);
  u.pathname = `/${name}`;
  return { url: u.toString(), name, drop: () => admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`) };
}

/** One query on its own connection: how tests look at what the studio stored. */
export async function query<T extends pg.QueryResultRow>(url: string, sql: string, params: unknown[] = []): Promise<T[]> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query<T>(sql, params)).rows;
  } finally {
    await c.end();
  }
}

export interface StudioProcess {
  url: string;
  port: number;
  /** The admin bearer token this studio was started with. */
  adminToken: string;
  pid: number;
  /** The last lines the server printed. */
  log(): string;
  /** SIGKILL to the whole process group, at once: a crash, nothing flushed. */
  kill(): Promise<void>;
  /** SIGTERM, then SIGKILL after a grace period. */
  stop(): Promise<void>;
}

export interface StudioProcessOptions {
  /** PostgreSQL URL; without it the studio uses PGlite in `dataDir` (or a new temporary folder). */
  databaseUrl?: string;
  dataDir?: string;
  /** The config file; default: a copy of config/studio.example.jsonc in a temporary folder. */
  configPath?: string;
  port?: number;
  adminToken?: string;
  env?: Record<string, string>;
  readyWithinMs?: number;
  /**
   * Ready at the first 200 from this path. Default `/api/tools` (as the admin); `/api/health` is
   * what a load balancer asks, for tests of what an instance promises from that answer on.
   */
  readyPath?: string;
  /** Every line the server prints, as it comes (log() keeps only the last 400). */
  onLine?: (line: string) => void;
}

export async function startStudioProcess(opts: StudioProcessOptions = {}): Promise<StudioProcess> {
  if (!existsSync(path.join(root, ".next", "BUILD_ID"))) throw new Error("no build to serve: run `npm run build` first");
  const port = opts.port ?? (await freePort());
  const url = `http://127.0.0.1:${port}`;
  const adminToken = opts.adminToken ?? `proc-admin-${randomBytes(16).toString("hex")}`;
  const scratch = mkdtempSync(path.join(os.tmpdir(), "studio-proc-"));
  const configPath = opts.configPath ?? path.join(scratch, "studio.jsonc");
  if (!opts.configPath) copyFileSync(path.join(root, "config", "studio.example.jsonc"), configPath);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: "production",
    NEXT_TELEMETRY_DISABLED: "1",
    PORT: String(port),
    STUDIO_HOST: "127.0.0.1",
    STUDIO_ADMIN_TOKEN: adminToken,
    STUDIO_CONFIG: configPath,
    DATABASE_URL: opts.databaseUrl ?? "",
    STUDIO_DATA_DIR: opts.databaseUrl ? "" : (opts.dataDir ?? path.join(scratch, "pglite")),
    ...opts.env,
  };
  const lines: string[] = [];
  const keep = (chunk: Buffer) => {
    for (const line of chunk.toString("utf8").split("\n")) {
      if (!line.trim()) continue;
      lines.push(line);
      opts.onLine?.(line);
    }
    if (lines.length > 400) lines.splice(0, lines.length - 400);
  };
  const child: ChildProcess = spawn(process.execPath, [path.join(root, "scripts", "server.mjs")], {
    cwd: root,
    detached: true, // its own process group: kill() takes the whole tree
    stdio: ["ignore", "pipe", "pipe"],
    env,
  });
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  let exited = false;
  const exit = new Promise<void>((resolve) => child.once("exit", () => ((exited = true), resolve())));
  const pid = child.pid!;
  const alive = () => {
    try {
      process.kill(-pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  const signal = async (sig: NodeJS.Signals, waitMs: number) => {
    if (!alive()) return;
    try {
      process.kill(-pid, sig);
    } catch {
      // gone meanwhile
    }
    const until = Date.now() + waitMs;
    while (alive() && Date.now() < until) await sleep(50);
  };
  const kill = async () => {
    await signal("SIGKILL", 5000);
    if (!exited) await Promise.race([exit, sleep(2000)]);
  };
  const stop = async () => {
    await signal("SIGTERM", 8000);
    await kill();
  };
  const log = () => lines.join("\n");

  const until = Date.now() + (opts.readyWithinMs ?? 90_000);
  for (;;) {
    if (exited) throw new Error(`the studio exited before it was ready. Log:\n${log()}`);
    if (Date.now() > until) {
      await kill();
      throw new Error(`the studio was not ready within ${(opts.readyWithinMs ?? 90_000) / 1000} s. Log:\n${log()}`);
    }
    const ok = await fetch(url + (opts.readyPath ?? "/api/tools"), {
      headers: { authorization: `Bearer ${adminToken}` },
      signal: AbortSignal.timeout(5000),
    }).then(
      (r) => r.status === 200,
      () => false,
    );
    if (ok) break;
    await sleep(200);
  }
  return { url, port, adminToken, pid, log, kill, stop };
}

/** A runner, signed in once, and their API token (what an agent or script would hold). */
export async function runnerToken(baseUrl: string, adminToken: string): Promise<string> {
  const email = `bench-${Date.now()}@example.com`;
  const password = randomBytes(12).toString("hex");
  const json = { "content-type": "application/json", origin: baseUrl };
  const add = await fetch(`${baseUrl}/api/users`, {
    method: "POST",
    headers: { ...json, authorization: `Bearer ${adminToken}` },
    body: JSON.stringify({ email, password, role: "runner" }),
  });
  if (add.status !== 201) throw new Error(`could not add the bench user: ${add.status} ${await add.text()}`);
  const signIn = await fetch(`${baseUrl}/api/auth/sign-in/email`, { method: "POST", headers: json, body: JSON.stringify({ email, password }) });
  const cookie = signIn.headers
    .getSetCookie()
    .find((c) => c.startsWith("better-auth.session_token="))
    ?.split(";")[0];
  if (!cookie) throw new Error(`could not sign the bench user in: ${signIn.status}`);
  const created = await fetch(`${baseUrl}/api/tokens`, { method: "POST", headers: { ...json, cookie }, body: JSON.stringify({ name: "bench" }) });
  if (created.status !== 201) throw new Error(`could not create the bench token: ${created.status}`);
  return ((await created.json()) as { token: string }).token;
}

/** Resident memory of the largest process in a process tree (the next-server), in MiB; null if gone. */
export function rssMiB(pid: number): number | null {
  const rss = (p: number): number => {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${p}/status`, "utf8"));
    return m ? Number(m[1]) / 1024 : 0;
  };
  const children = (p: number): number[] => readFileSync(`/proc/${p}/task/${p}/children`, "utf8").trim().split(/\s+/).filter(Boolean).map(Number);
  try {
    let best = 0;
    const todo = [pid];
    while (todo.length) {
      const p = todo.pop()!;
      try {
        best = Math.max(best, rss(p));
        todo.push(...children(p));
      } catch {
        if (p === pid) return null; // the root is gone; a child that just exited is not
      }
    }
    return best;
  } catch {
    return null;
  }
}

export interface WorkerProcess {
  pid: number;
  /** The instance id the worker leases its runs under (runs.owner). */
  instance: string;
  log(): string;
  /** SIGTERM: it finishes the runs in hand, then exits. */
  stop(): Promise<void>;
}

/** `npm run worker` on a PostgreSQL database, ready once it says it takes queued runs. */
export async function startWorkerProcess(opts: { databaseUrl: string; env?: Record<string, string>; readyWithinMs?: number }): Promise<WorkerProcess> {
  const scratch = mkdtempSync(path.join(os.tmpdir(), "studio-worker-"));
  const configPath = path.join(scratch, "studio.jsonc");
  copyFileSync(path.join(root, "config", "studio.example.jsonc"), configPath);
  const child = spawn(path.join(root, "node_modules", ".bin", "tsx"), ["--conditions=react-server", "scripts/worker.ts"], {
    cwd: root,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, NODE_ENV: "production", DATABASE_URL: opts.databaseUrl, STUDIO_CONFIG: configPath, STUDIO_DATA_DIR: "", ...opts.env },
  });
  const lines: string[] = [];
  let instance = "";
  const keep = (chunk: Buffer) => {
    for (const line of chunk.toString("utf8").split("\n")) {
      if (!line.trim()) continue;
      lines.push(line);
      instance ||= /worker (\S+) takes queued runs/.exec(line)?.[1] ?? "";
    }
    if (lines.length > 400) lines.splice(0, lines.length - 400);
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  let exited = false;
  const exit = new Promise<void>((resolve) => child.once("exit", () => ((exited = true), resolve())));
  const pid = child.pid!;
  const log = () => lines.join("\n");
  const stop = async () => {
    try {
      process.kill(-pid, "SIGTERM");
    } catch {
      return;
    }
    await Promise.race([exit, sleep(15_000)]);
    if (!exited) {
      try {
        process.kill(-pid, "SIGKILL");
      } catch {
        // gone meanwhile
      }
    }
  };
  const until = Date.now() + (opts.readyWithinMs ?? 60_000);
  while (!instance) {
    if (exited) throw new Error(`the worker exited before it was ready. Log:\n${log()}`);
    if (Date.now() > until) {
      await stop();
      throw new Error(`the worker was not ready within ${(opts.readyWithinMs ?? 60_000) / 1000} s. Log:\n${log()}`);
    }
    await sleep(100);
  }
  return { pid, instance, log, stop };
}
