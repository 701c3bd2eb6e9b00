/**
 * Is this error the database being unreachable, frozen or gone (as opposed to a bad query)?
 * Such errors answer 503 `unavailable` with Retry-After, and the studio recovers by itself when
 * the database is back: the pool reconnects, nothing needs a restart.
 */
const UNREACHABLE_KINDS = new Set(["DatabaseNotReachable", "ConnectionClosed", "SocketTimeout", "TooManyConnections", "TlsConnectionError"]);
// Prisma's connection errors, Node's socket errors, and PostgreSQL's SQLSTATEs for a server that
// is going or not there yet (57P01-57P05: shut down, crashed, not yet accepting connections, idle
// session timeout) and for too many connections (53300); class 08 is "connection exception".
const UNREACHABLE_CODES = new Set([
  "P1001",
  "P1002",
  "P1008",
  "P1017",
  "P2024",
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "57P01",
  "57P02",
  "57P03",
  "57P05",
  "53300",
]);
// Prisma closes an interactive transaction the database did not answer within its timeout (P2028, "Transaction already closed"): the database is away, not the query wrong.
const UNREACHABLE_TEXT =
  /ECONNREFUSED|ECONNRESET|Connection terminated|timeout exceeded when trying to connect|Query read timeout|Can't reach database|the database system is (starting up|shutting down|not yet accepting connections|in recovery mode)|terminating connection|Transaction already closed/i;

const unreachableCode = (c: unknown) => typeof c === "string" && (UNREACHABLE_CODES.has(c) || /^08[0-9A-Z]{3}$/.test(c));

type Wrapped = {
  name?: unknown;
  code?: unknown;
  originalCode?: unknown;
  errorCode?: unknown;
  kind?: unknown;
  message?: unknown;
  originalMessage?: unknown;
  cause?: unknown;
  meta?: { driverAdapterError?: unknown };
};

/** Breadth-first through what wraps what: `cause`, and Prisma's driver adapter error in `meta`; stops at the first `found`. */
function findInError<T>(err: unknown, found: (o: Wrapped) => T | null | undefined): T | null {
  const todo: unknown[] = [err];
  for (let seen = 0; todo.length && seen < 12; seen++) {
    const e = todo.shift();
    if (!e || typeof e !== "object") continue;
    const o = e as Wrapped;
    const hit = found(o);
    if (hit) return hit;
    todo.push(o.cause, o.meta?.driverAdapterError);
  }
  return null;
}

export function isDatabaseUnavailable(err: unknown): boolean {
  return !!findInError(err, (o) => {
    if (o.name === "PrismaClientInitializationError") return true;
    if (typeof o.kind === "string" && UNREACHABLE_KINDS.has(o.kind)) return true;
    if (unreachableCode(o.code) || unreachableCode(o.originalCode) || unreachableCode(o.errorCode)) return true;
    if (typeof o.message === "string" && UNREACHABLE_TEXT.test(o.message)) return true;
    if (typeof o.originalMessage === "string" && UNREACHABLE_TEXT.test(o.originalMessage)) return true;
    return null;
  });
}

/**
 * SQLSTATEs with which PostgreSQL (and PGlite) refuses a value it was given, not the query or
 * the server: such an error is the request's input (a 400), never a 500. The route's own checks
 * name the field and its limit first; this is the net for whatever slips past them.
 */
const INPUT_REFUSALS: Record<string, string> = {
  "54000": "is too long for the database to index", // program_limit_exceeded: "index row size … exceeds …"
  "22001": "is longer than its column allows", // string_data_right_truncation
  "22003": "is a number out of the database's range", // numeric_value_out_of_range
  "22008": "is a date or time out of the database's range", // datetime_field_overflow
  "22007": "is not a date or time the database reads", // invalid_datetime_format
  "22009": "is a date or time out of the database's range", // invalid_time_zone_displacement_value: how it reads a year past 4713 BC
  "22021": "contains a character the database cannot store (NUL)", // character_not_in_repertoire
  "22P05": "contains a character the database cannot store (NUL)", // untranslatable_character (\u0000 in jsonb)
  "22P02": "is not valid for its type (e.g. invalid Unicode in JSON)", // invalid_text_representation
};

export interface DatabaseInputRefusal {
  /** The SQLSTATE. */
  code: string;
  /** What is wrong with the value, in the studio's words. */
  reason: string;
  /** The database's own words (they name the index or the type), cut to 300 characters. */
  detail: string;
}

/** The database refused a value it was given (see INPUT_REFUSALS), or null. */
export function databaseInputRefusal(err: unknown): DatabaseInputRefusal | null {
  return findInError(err, (o) => {
    for (const c of [o.originalCode, o.code, o.errorCode]) {
      if (typeof c !== "string" || !Object.hasOwn(INPUT_REFUSALS, c)) continue;
      const text = typeof o.originalMessage === "string" ? o.originalMessage : typeof o.message === "string" ? o.message : "";
      return { code: c, reason: INPUT_REFUSALS[c]!, detail: text.slice(0, 300) };
    }
    return null;
  });
}

/** How long the studio waits for the database (STUDIO_DB_CONNECT_TIMEOUT_MS, STUDIO_DB_QUERY_TIMEOUT_MS). */
export function dbTimeouts(env: Record<string, string | undefined> = process.env): { connectMs: number; queryMs: number } {
  const n = (v: string | undefined, d: number) => (v && Number.isFinite(Number(v)) && Number(v) > 0 ? Number(v) : d);
  return { connectMs: n(env.STUDIO_DB_CONNECT_TIMEOUT_MS, 5_000), queryMs: n(env.STUDIO_DB_QUERY_TIMEOUT_MS, 30_000) };
}
