// A private PostgreSQL for fault tests: its own data directory and loopback port, started with
// the machine's binaries as the postgres user, so a test may stop or freeze it without touching
// the machine's main server.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort } from "./studio-process";

const BIN = (() => {
  const base = "/usr/lib/postgresql";
  const version = fs.existsSync(base) ? fs.readdirSync(base).sort().pop() : undefined;
  return version ? path.join(base, version, "bin") : null;
})();

/** Fault tests need the server binaries and root (to run them as postgres); say why they are skipped otherwise. */
export const privatePgUnavailable: string | null = !BIN
  ? "PostgreSQL server binaries are not installed"
  : process.getuid?.() !== 0
    ? "fault tests start a private PostgreSQL as the postgres user: run them as root"
    : null;

const asPostgres = (cmd: string, args: string[]) =>
  execFileSync("runuser", ["-u", "postgres", "--", path.join(BIN!, cmd), ...args], { stdio: "pipe", timeout: 60_000 });

export interface PrivatePg {
  url: string;
  start(): void;
  stop(): void;
  /** SIGSTOP (or SIGCONT) the server and every backend: a frozen database. */
  freeze(on: boolean): void;
  destroy(): void;
}

export async function startPrivatePg(): Promise<PrivatePg> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "private-pg-"));
  fs.chmodSync(dir, 0o777);
  const data = path.join(dir, "data");
  execFileSync("chown", ["postgres", dir]);
  asPostgres("initdb", ["-D", data, "-A", "trust", "-U", "postgres"]);
  const port = await freePort();
  const start = () =>
    asPostgres("pg_ctl", ["-D", data, "-w", "-l", path.join(dir, "log"), "-o", `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1`, "start"]);
  const stop = () => asPostgres("pg_ctl", ["-D", data, "-w", "-m", "immediate", "stop"]);
  start();
  const pids = () => {
    const main = Number(fs.readFileSync(path.join(data, "postmaster.pid"), "utf8").split("\n")[0]);
    const children = execFileSync("ps", ["-o", "pid=", "--ppid", String(main)])
      .toString()
      .split("\n")
      .map((s) => Number(s.trim()))
      .filter(Boolean);
    return [main, ...children];
  };
  return {
    url: `postgresql://postgres@127.0.0.1:${port}/postgres`,
    start,
    stop,
    freeze(on) {
      for (const pid of pids()) process.kill(pid, on ? "SIGSTOP" : "SIGCONT");
    },
    destroy() {
      try {
        stop();
      } catch {
        // already stopped
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
