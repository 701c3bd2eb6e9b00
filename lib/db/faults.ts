/**
 * Is this error the database being unreachable, frozen or gone (as opposed to a bad query)?
 * Such errors answer 503 `unavailable` with Retry-After, and the studio recovers by itself when
 * the database is back: the pool reconnects, nothing needs a restart.
 */
const UNREACHABLE_KINDS = new Set(["DatabaseNotReachable", "ConnectionClosed", "SocketTimeout", "TooManyConnections", "TlsConnectionError"]);
const UNREACHABLE_CODES = new Set(["P1001", "P1002", "P1008", "P1017", "P2024", "ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "57P01", "57P03"]);
const UNREACHABLE_TEXT = /ECONNREFUSED|ECONNRESET|Connection terminated|timeout exceeded when trying to connect|Query read timeout|Can't reach database|the database system is (starting up|shutting down)|terminating connection/i;

export function isDatabaseUnavailable(err: unknown): boolean {
  let e: unknown = err;
  for (let depth = 0; e && depth < 6; depth++) {
    if (typeof e !== "object") break;
    const o = e as { name?: unknown; code?: unknown; kind?: unknown; message?: unknown; cause?: unknown; errorCode?: unknown };
    if (o.name === "PrismaClientInitializationError") return true;
    if (typeof o.kind === "string" && UNREACHABLE_KINDS.has(o.kind)) return true;
    if (typeof o.code === "string" && UNREACHABLE_CODES.has(o.code)) return true;
    if (typeof o.errorCode === "string" && UNREACHABLE_CODES.has(o.errorCode)) return true;
    if (typeof o.message === "string" && UNREACHABLE_TEXT.test(o.message)) return true;
    e = o.cause;
  }
  return false;
}

/** How long the studio waits for the database (STUDIO_DB_CONNECT_TIMEOUT_MS, STUDIO_DB_QUERY_TIMEOUT_MS). */
export function dbTimeouts(env: Record<string, string | undefined> = process.env): { connectMs: number; queryMs: number } {
  const n = (v: string | undefined, d: number) => (v && Number.isFinite(Number(v)) && Number(v) > 0 ? Number(v) : d);
  return { connectMs: n(env.STUDIO_DB_CONNECT_TIMEOUT_MS, 5_000), queryMs: n(env.STUDIO_DB_QUERY_TIMEOUT_MS, 30_000) };
}
