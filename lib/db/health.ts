import { processSlot } from "../process/slots";
import pg from "pg";
import { dbTimeouts } from "./faults";

/**
 * Is the PostgreSQL server reachable? Asked by the door (proxy.ts) before a page renders, so a
 * page answers 503 with a page that says so, as the API does, instead of failing half-way.
 * Plain pg on one connection of its own (the proxy holds no Prisma client), bounded by the same
 * timeouts as every query: one `SELECT 1` per page request (requests at the same moment share
 * it), a few hundred microseconds on a local server. Always true for the embedded database (PGlite lives in this process).
 */
const CACHE_MS = 1000;

interface Health {
  pool?: pg.Pool;
  url?: string;
  at: number;
  ok: boolean;
  pending?: Promise<boolean>;
}
// One per process whichever copy of lib/ asks (Next loads it for the proxy and for the app).
const h = processSlot<Health>("dbHealth").use(() => ({ at: 0, ok: true }));

export async function databaseReachable(url = process.env.DATABASE_URL): Promise<boolean> {
  if (!url) return true;
  // "Unreachable" is reused for a second; "reachable" is not (a database that froze a moment
  // ago must not let pages through to fail half-way). Requests at the same moment share one check.
  if (!h.ok && Date.now() - h.at < CACHE_MS && h.url === url) return false;
  return (h.pending ??= check(url).finally(() => (h.pending = undefined)));
}

async function check(url: string): Promise<boolean> {
  if (!h.pool || h.url !== url) {
    await h.pool?.end().catch(() => {});
    const t = dbTimeouts();
    h.pool = new pg.Pool({ connectionString: url, max: 1, connectionTimeoutMillis: t.connectMs, query_timeout: t.queryMs, idleTimeoutMillis: 30_000 });
    h.pool.on("error", () => {}); // an idle connection dropped by the server: the next check reconnects
    h.url = url;
  }
  const ok = await h.pool.query("SELECT 1").then(
    () => true,
    () => false,
  );
  h.at = Date.now();
  h.ok = ok;
  return ok;
}
