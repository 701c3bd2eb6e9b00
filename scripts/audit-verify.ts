// npm run audit:verify [-- --checkpoint <seq>:<hash>] [--from <seq> [--from-hash <hash>]] [--batch <n>] [--json]
//
// Re-checks the audit log's hash chain in DATABASE_URL, or in the PGlite data dir (STUDIO_DATA_DIR,
// default ./data/pglite) when DATABASE_URL is unset. PGlite allows one process per data dir: stop
// the studio first. Read-only: it never migrates or writes.
//
// Exit code: 0 the chain is intact, 1 it is broken (the first bad entry is printed), 2 it could not
// be checked (bad arguments, no database, no audit_log table).
//
// Save the printed head (`--checkpoint <seq>:<hash>`) somewhere else: a later run given it also
// detects a tail that was rewritten consistently, which nothing inside the database can show.
import { parseArgs } from "node:util";
import { AuditLog, type AuditVerifyOptions } from "../lib/audit/log";
import { createPrisma } from "../lib/db/client";

function fail(message: string): never {
  console.error(`audit:verify: ${message}`);
  process.exit(2);
}

let args;
try {
  args = parseArgs({
    options: {
      from: { type: "string" },
      "from-hash": { type: "string" },
      checkpoint: { type: "string" },
      batch: { type: "string" },
      json: { type: "boolean", default: false },
    },
    allowPositionals: false,
  }).values;
} catch (err) {
  fail((err as Error).message);
}

const positiveInt = (v: string | undefined, what: string) => {
  if (v === undefined) return undefined;
  if (!/^[1-9][0-9]{0,15}$/.test(v)) fail(`--${what} must be a positive integer`);
  return Number(v);
};
const HASH = /^[0-9a-f]{64}$/;
const opts: AuditVerifyOptions = { from: positiveInt(args.from, "from"), batch: positiveInt(args.batch, "batch") };
if (args["from-hash"] !== undefined) {
  if (!HASH.test(args["from-hash"])) fail("--from-hash must be 64 lower-case hex digits");
  if (opts.from === undefined) fail("--from-hash needs --from");
  opts.fromHash = args["from-hash"];
}
if (args.checkpoint !== undefined) {
  const m = /^([1-9][0-9]{0,15}):([0-9a-f]{64})$/.exec(args.checkpoint);
  if (!m) fail("--checkpoint must be <seq>:<hash>");
  opts.checkpoint = { seq: Number(m[1]), hash: m[2]! };
}

const where = process.env.DATABASE_URL ? "PostgreSQL (DATABASE_URL)" : `PGlite (${process.env.STUDIO_DATA_DIR ?? "./data/pglite"})`;
let db;
try {
  db = await createPrisma();
} catch (err) {
  fail(`could not open ${where}: ${(err as Error).message}`);
}
let code = 2;
try {
  const started = Date.now();
  let lastShown = 0;
  const report = await new AuditLog(db.prisma).verify({
    ...opts,
    onProgress: (n) => {
      if (!args.json && process.stderr.isTTY && n - lastShown >= 100_000) {
        lastShown = n;
        process.stderr.write(`\r${n} entries checked...`);
      }
    },
  });
  if (lastShown) process.stderr.write("\n");
  const secs = ((Date.now() - started) / 1000).toFixed(1);
  if (args.json) {
    console.log(JSON.stringify(report));
  } else if (report.ok) {
    console.log(`${where}: audit chain intact: ${report.entries} entries checked in ${secs} s.`);
    if (report.head) console.log(`head: --checkpoint ${report.head.seq}:${report.head.hash}`);
  } else {
    console.error(`${where}: audit chain BROKEN at entry #${report.firstBad!.seq}: ${report.firstBad!.reason}`);
    console.error(`(${report.entries} entries before it are intact; checked in ${secs} s)`);
  }
  code = report.ok ? 0 : 1;
} catch (err) {
  console.error(`audit:verify: could not check ${where}: ${(err as Error).message}`);
  code = 2;
} finally {
  await db.close().catch(() => {});
}
process.exit(code);
