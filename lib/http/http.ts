import type { ZodType } from "zod";
import { StudioError, statusOf, type ApiErrorKind, type FieldError } from "../errors/errors";
import { clientAddress } from "./client-address";
import { inspectJson, type InputProblem } from "./input";
import { databaseInputRefusal, isDatabaseUnavailable } from "../db/faults";

/** Request bodies above this are refused before they are read in full. */
export const MAX_BODY_BYTES = Number(process.env.STUDIO_MAX_BODY_BYTES) || 1024 * 1024;

/** A refusal written for the HTTP answer; its status is its kind's (lib/errors/errors.ts). */
export class HttpError extends StudioError {
  static override readonly tag: string = "HttpError";
  constructor(kind: ApiErrorKind, message: string, details?: FieldError[]) {
    super(kind, message, { details });
  }
}

/** The answer for an error: `{ error: { kind, message, details? } }` with the kind's status. */
export function errorResponse(kind: ApiErrorKind, message: string, details?: FieldError[], extra: object = {}): Response {
  return Response.json({ error: { kind, message, ...(details ? { details } : {}) }, ...extra }, { status: statusOf(kind) });
}

/**
 * The one place anything thrown in a handler becomes an answer. A StudioError is answered as it
 * says (its message is written for the caller); anything else never leaks its text.
 */
export function toErrorResponse(err: unknown): Response {
  if (StudioError.isInstance(err)) return errorResponse(err.kind, err.message, err.details);
  const refused = databaseInputRefusal(err);
  if (refused) {
    // A check at the boundary is missing (it would have named the field and its limit): said in the log, answered as the input's fault.
    console.warn(`[tool-studio] the database refused a value of a request (SQLSTATE ${refused.code}): ${refused.detail}`);
    return errorResponse("bad_request", `A value of this request ${refused.reason} (PostgreSQL ${refused.code}: ${refused.detail}).`);
  }
  if (isDatabaseUnavailable(err)) {
    const res = errorResponse("unavailable", "The database is unreachable right now; try again shortly.");
    res.headers.set("retry-after", "5");
    return res;
  }
  console.error("[tool-studio] unexpected error", err);
  return errorResponse("other", "Internal error in the studio; see the server log.");
}

/** Reads a JSON body with a size limit and parses it with a zod schema into field errors. */
export async function readJson<T>(req: Request, schema: ZodType<T>): Promise<T> {
  const { data, problems } = await readJsonChecked(req);
  if (problems.length) throw inputError(problems);
  return parseWith(schema, data, "request body");
}

/**
 * The one JSON body reader: size limit while streaming, then JSON.parse, then inspectJson
 * (lib/http/input.ts). Returns the problems instead of throwing for them, for the run route,
 * which still captures a run whose arguments cannot be stored as sent.
 */
export async function readJsonChecked(req: Request): Promise<{ data: unknown; problems: InputProblem[] }> {
  const text = Buffer.from(await readBody(req)).toString("utf8");
  let data: unknown = {};
  if (text.trim()) {
    try {
      data = JSON.parse(text);
    } catch (err) {
      throw new HttpError("bad_request", `The request body is not valid JSON: ${(err as Error).message}`);
    }
  }
  return { data, problems: inspectJson(data) };
}

/**
 * The body's bytes, at most MAX_BODY_BYTES (checked on the declared length and while streaming).
 * Over the limit: 413, once the body is read and dropped (see discardBody).
 */
export async function readBody(req: Request): Promise<Uint8Array> {
  const declared = Number(req.headers.get("content-length"));
  const reader = req.body?.getReader();
  if (declared > MAX_BODY_BYTES) {
    await discardBody(reader, 0);
    throw tooLarge();
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (reader) {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > MAX_BODY_BYTES) {
        await discardBody(reader, size);
        throw tooLarge();
      }
      chunks.push(value);
    }
  }
  return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
}

/** Input the studio cannot take as it is: 400 naming each path. */
export function inputError(problems: InputProblem[]): HttpError {
  return new HttpError("bad_request", `Invalid request body: ${problems.map((p) => `${p.path || "(root)"} ${p.message}`).join("; ")}`, problems);
}

export function parseWith<T>(schema: ZodType<T>, data: unknown, what: string): T {
  const r = schema.safeParse(data);
  if (r.success) return r.data;
  const details = r.error.issues.map((i) => ({
    path: i.path.length ? "/" + i.path.map(String).join("/") : "",
    message: i.message,
  }));
  throw new HttpError("bad_request", `Invalid ${what}: ${details.map((d) => `${d.path || "(root)"} ${d.message}`).join("; ")}`, details);
}

/**
 * How much of a body over the limit is read (and dropped) so that its 413 reaches the client.
 * Closing the connection while a client is still sending makes its next write fail (EPIPE) or
 * its kernel discard the answer on the reset, so the client never reads why: the rest is read
 * first, as Node's and nginx's lingering close do. A body past this bound is cut off.
 */
export const DISCARD_BODY_BYTES = Math.max(64 * 1024 * 1024, 4 * MAX_BODY_BYTES);

async function discardBody(reader: ReadableStreamDefaultReader<Uint8Array> | undefined, seen: number): Promise<void> {
  if (!reader) return;
  try {
    for (let size = seen; size <= DISCARD_BODY_BYTES;) {
      const { done, value } = await reader.read();
      if (done) return;
      size += value.byteLength;
    }
    await reader.cancel();
  } catch {
    // The client went away meanwhile: nobody is left to read the answer.
  }
}

export function tooLarge(): HttpError {
  return new HttpError("payload_too_large", `The request body is larger than the limit of ${MAX_BODY_BYTES} bytes (STUDIO_MAX_BODY_BYTES).`);
}

/**
 * Where a request came from, for the audit log: the client's address as the server established
 * it (lib/http/client-address.ts), the X-Forwarded-For chain as claimed, and the user agent.
 */
export function requestOrigin(req: Request): string {
  const addr = clientAddress(req.headers);
  const fwd = req.headers.get("x-forwarded-for");
  const ua = req.headers.get("user-agent");
  const where = [addr ? `addr ${addr}` : null, fwd ? `forwarded ${fwd.slice(0, 200)}` : null].filter(Boolean);
  return [...(where.length ? where : ["local"]), ua ? `ua ${ua.slice(0, 120)}` : null].filter(Boolean).join("; ");
}
