// Cleans up after bench/run.ts if it dies without doing so itself (e.g. SIGKILL: tsx kills its
// child with SIGKILL when a relayed Ctrl-C is not acknowledged within 30 ms).
// The bench writes JSON lines to our stdin: {"pgid": n} / {"pgidGone": n} for the studio's process
// group, {"db": name} / {"dbGone": name} for databases, {"done": true} when it has cleaned up.
// When stdin ends without "done" (the bench is gone), we SIGKILL the group and drop the databases.
// Bounded: we also give up waiting after REAPER_MAX_S seconds and clean up then.
import { clearInterval, setInterval } from "node:timers";
import pg from "pg";

const adminUrl = process.env.REAPER_ADMIN_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
const maxS = Number(process.env.REAPER_MAX_S) || 600;
const groups = new Set();
const dbs = new Set();
let done = false;
let buf = "";
let reaping = false;

process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => {
  buf += chunk;
  let i;
  while ((i = buf.indexOf("\n")) >= 0) {
    const line = buf.slice(0, i);
    buf = buf.slice(i + 1);
    let m;
    try {
      m = JSON.parse(line);
    } catch {
      continue;
    }
    if (Number.isInteger(m.pgid) && m.pgid > 1) groups.add(m.pgid);
    if (Number.isInteger(m.pgidGone)) groups.delete(m.pgidGone);
    if (typeof m.db === "string" && /^tool_studio_test_[0-9a-z_]+$/.test(m.db)) dbs.add(m.db);
    if (typeof m.dbGone === "string") dbs.delete(m.dbGone);
    if (m.done === true) done = true;
  }
});
// reap() reports its own failures; this catch is the last resort (and the reaper must still exit).
const reapInBackground = (why) =>
  reap(why).catch((e) => {
    console.error(`[bench reaper] cleanup failed: ${e?.message ?? e}`);
    process.exit(1);
  });
process.stdin.on("end", () => reapInBackground("the bench ended"));
process.stdin.on("error", () => reapInBackground("the bench pipe broke"));
setTimeout(() => reapInBackground(`REAPER_MAX_S=${maxS} reached`), maxS * 1000).unref();
// Keep alive while waiting for stdin (the timer above is unref'd).
const keepAlive = setInterval(() => {}, 60_000);

async function reap(why) {
  if (reaping) return;
  reaping = true;
  clearInterval(keepAlive);
  if (done && groups.size === 0 && dbs.size === 0) process.exit(0);
  console.error(`[bench reaper] ${why} without cleaning up: removing ${groups.size} process group(s), ${dbs.size} database(s)`);
  for (const g of groups) {
    try {
      process.kill(-g, "SIGKILL");
    } catch {
      // the group is gone already
    }
  }
  if (dbs.size) {
    const c = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 5000 });
    try {
      await c.connect();
      for (const d of dbs) {
        try {
          await c.query(`DROP DATABASE IF EXISTS "${d}" WITH (FORCE)`);
        } catch (e) {
          console.error(`[bench reaper] could not drop ${d}: ${e.message}`);
        }
      }
    } catch (e) {
      console.error(`[bench reaper] could not connect to drop databases: ${e.message}`);
    } finally {
      await c.end().catch(() => {});
    }
  }
  process.exit(0);
}
