/**
 * Is this error the database being unreachable, frozen or gone (as opposed to a bad query)?
 * Such errors answer 503 `unavailable` with Retry-After, and the studio recovers by itself when
 * the database is back: the pool reconnects, nothing needs a restart.
 */
const UNREACHABLE_KINDS = new Set(["DatabaseNotReachable", "ConnectionClosed", "SocketTimeout", "TooManyConnections", "TlsConnectionError"]);
// Prisma's connection errors, Node's socket errors, and PostgreSQL's SQLSTATEs for a server that
// is going or not there yet (57P01-57P05: shut down, crashed, not yet accepting connections, idle
// session timeout) and for too many connections (53300); class 08 is "connection exception".
const UNREACHABLE_CODES = new Set(["P1001", "P1002", "P1008", "P1017", "P2024", "ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "57P01", "57P02", "57P03", "57P05", "53300"]);
const UNREACHABLE_TEXT = /ECONNREFUSED|ECONNRESET|Connection terminated|timeout exceeded when trying to connect|Query read timeout|Can't reach database|the database system is (starting up|shutting down|not yet accepting connections|in recovery mode)|terminating connection/i;

const unreachableCode = (c: unknown) => typeof c === "string" && (UNREACHABLE_CODES.has(c) || /^08[0-9A-Z]{3}$/.test(c));

export function isDatabaseUnavailable(err: unknown): boolean {
  // Breadth-first through what wraps what: `cause`, and Prisma's driver adapter error in `meta`.
  const todo: unknown[] = [err];
  for (let seen = 0; todo.length && seen < 12; seen++) {
    const e = todo.shift();
    if (!e || typeof e !== "object") continue;
    const o = e as { name?: unknown; code?: unknown; originalCode?: unknown; errorCode?: unknown; kind?: unknown; message?: unknown; originalMessage?: unknown; cause?: unknown; meta?: { driverAdapterError?: unknown } };
    if (o.name === "PrismaClientInitializationError") return true;
    if (typeof o.kind === "string" && UNREACHABLE_KINDS.has(o.kind)) return true;
    if (unreachableCode(o.code) || unreachableCode(o.originalCode) || unreachableCode(o.errorCode)) return true;
    if (typeof o.message === "string" && UNREACHABLE_TEXT.test(o.message)) return true;
    if (typeof o.originalMessage === "string" && UNREACHABLE_TEXT.test(o.originalMessage)) return true;
    todo.push(o.cause, o.meta?.driverAdapterError);
  }
  return false;
}

/** How long the studio waits for the database (STUDIO_DB_CONNECT_TIMEOUT_MS, STUDIO_DB_QUERY_TIMEOUT_MS). */
export function dbTimeouts(env: Record<string, string | undefined> = process.env): { connectMs: number; queryMs: number } {
  const n = (v: string | undefined, d: number) => (v && Number.isFinite(Number(v)) && Number(v) > 0 ? Number(v) : d);
  return { connectMs: n(env.STUDIO_DB_CONNECT_TIMEOUT_MS, 5_000), queryMs: n(env.STUDIO_DB_QUERY_TIMEOUT_MS, 30_000) };
}
