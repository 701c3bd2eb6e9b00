// npm run bench:audit — the audit chain's throughput under several writers: 1, 2 and 4 processes
// (as studio instances would be) append to one chain on one PostgreSQL database, each with 16
// callers at once, for a few seconds per point. The chain is one sequence serialized by an
// advisory lock, so more writers share it rather than add to it; group commit (one transaction
// per batch) is what keeps it from being one entry per round trip. Every point ends with a full
// verification of the chain. Knobs: BENCH_AUDIT_SECONDS (5), BENCH_AUDIT_CALLERS (16).
import { fork } from "node:child_process";
import { fileURLToPath } from "node:url";
import os from "node:os";
import { AuditLog } from "../lib/audit";
import { createPrisma } from "../lib/db/client";
import { createTestDatabase } from "../tests/helpers/db";
import { intEnv } from "./env";

const seconds = intEnv("BENCH_AUDIT_SECONDS", 5, 1, 120);
const callers = intEnv("BENCH_AUDIT_CALLERS", 16, 1, 256);
const self = fileURLToPath(import.meta.url);

if (process.env.AUDIT_WRITER_URL) {
  // A child: append for the given time, then report how many entries it appended.
  const db = await createPrisma({ databaseUrl: process.env.AUDIT_WRITER_URL });
  const audit = new AuditLog(db.prisma);
  await db.prisma.auditEntry.count(); // connected before the clock starts
  // Every writer starts at the same instant, given by the parent once all are ready.
  const until = await new Promise<number>((resolve) => {
    process.once("message", (m: { until: number }) => resolve(m.until));
    process.send?.({ ready: true });
  });
  let n = 0;
  const me = process.pid;
  await Promise.all(
    Array.from({ length: callers }, async (_, c) => {
      while (Date.now() < until) {
        await audit.append({ actor: `bench-${me}-${c}`, action: "run", target: "add", detail: { runId: `${me}-${c}-${n}`, status: "success" } });
        n++;
      }
    }),
  );
  await db.close();
  process.send?.({ appended: n });
  process.exit(0);
}

async function point(writers: number): Promise<{ writers: number; entries: number; perSec: number; verified: boolean; verifyMs: number }> {
  const db = await createTestDatabase();
  try {
    const children = Array.from({ length: writers }, () => fork(self, [], { env: { ...process.env, AUDIT_WRITER_URL: db.url }, execArgv: process.execArgv }));
    const message = <T>(child: (typeof children)[number], key: string) =>
      new Promise<T>((resolve, reject) => {
        const on = (m: Record<string, unknown>) => {
          if (key in m) {
            child.off("message", on);
            resolve(m[key] as T);
          }
        };
        child.on("message", on);
        child.once("exit", (code) => (code ? reject(new Error(`writer exited with ${code}`)) : undefined));
      });
    await Promise.all(children.map((c) => message(c, "ready")));
    const until = Date.now() + seconds * 1000;
    for (const c of children) c.send({ until });
    const counts = await Promise.all(children.map((c) => message<number>(c, "appended")));
    const entries = counts.reduce((a, b) => a + b, 0);
    const v0 = performance.now();
    const report = await new AuditLog(db.prisma).verify();
    const verifyMs = performance.now() - v0;
    if (report.entries !== entries) throw new Error(`${entries} appended but the chain holds ${report.entries}`);
    return { writers, entries, perSec: entries / seconds, verified: report.ok, verifyMs };
  } finally {
    await db.drop();
  }
}

console.log(
  `audit chain under several writers: ${callers} callers per process, ${seconds} s per point (${os.cpus().length} cores, load ${os.loadavg()[0].toFixed(2)})`,
);
const rows = [];
for (const w of [1, 2, 4]) rows.push(await point(w));
console.log("writers  entries  entries/s  chain verified  verify ms");
for (const r of rows)
  console.log(
    `${String(r.writers).padStart(7)}  ${String(r.entries).padStart(7)}  ${r.perSec.toFixed(0).padStart(9)}  ${String(r.verified).padStart(14)}  ${r.verifyMs.toFixed(0).padStart(9)}`,
  );
const bad = rows.filter((r) => !r.verified);
if (bad.length) {
  console.error("the chain did not verify");
  process.exit(1);
}
process.exit(0);
