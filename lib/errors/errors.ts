/**
 * The studio's one error model: a closed list of kinds, each with the one HTTP status it answers
 * with, and one base class that every error the studio throws on purpose extends.
 *
 * A StudioError's message is written for the caller (it is sent as it is); what only the operator
 * may read goes elsewhere (ToolError's `detail`, the server log).
 */

/** Every kind the studio answers with, and its status. A tool's run outcomes use the first group. */
export const ERROR_STATUS = {
  // A tool's kinds (lib/tools/errors.ts ERROR_KINDS): the outcome of a run.
  invalid_args: 400,
  not_found: 404,
  timeout: 504,
  cancelled: 409,
  permission_denied: 403,
  rate_limited: 429,
  result_too_large: 502,
  provider: 502,
  network: 502,
  other: 500,
  // The request's own.
  bad_request: 400,
  payload_too_large: 413,
  unauthenticated: 401,
  forbidden: 403,
  method_not_allowed: 405,
  conflict: 409,
  invalid_config: 400,
  io: 500,
  unavailable: 503,
} as const satisfies Record<string, number>;

/** The kinds of the API's `{ error: { kind } }`: one closed list. */
export type ApiErrorKind = keyof typeof ERROR_STATUS;
export const API_ERROR_KINDS = Object.keys(ERROR_STATUS) as ApiErrorKind[];

export function isApiErrorKind(v: unknown): v is ApiErrorKind {
  return typeof v === "string" && Object.hasOwn(ERROR_STATUS, v);
}

export function statusOf(kind: ApiErrorKind): number {
  return ERROR_STATUS[kind];
}

/** A failure tied to one field of the input. */
export interface FieldError {
  /** JSON pointer into the input ("" for the root). */
  path: string;
  message: string;
}

/**
 * Marks a StudioError with the tags of its class and its ancestors. Next loads lib/ twice (once
 * for pages, once for route handlers), so an error may come from the other copy of its class:
 * `instanceof` and class identity cannot tell, a registered symbol and a written-out tag can.
 */
const MARK = Symbol.for("tool-studio.error");

type Tagged = { readonly tag: string };

export class StudioError extends Error {
  /** The class's name, written out because bundlers rename classes; each subclass declares its own. */
  static readonly tag: string = "StudioError";
  readonly kind: ApiErrorKind;
  readonly details?: FieldError[];

  constructor(kind: ApiErrorKind, message: string, opts: { details?: FieldError[]; cause?: unknown } = {}) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    const tags: string[] = [];
    for (let c: unknown = new.target; typeof c === "function" && c !== Error; c = Object.getPrototypeOf(c)) {
      const tag = (c as { tag?: unknown }).tag;
      if (Object.hasOwn(c, "tag") && typeof tag === "string") tags.push(tag);
    }
    Object.defineProperty(this, MARK, { value: tags });
    this.name = tags[0] ?? "StudioError";
    this.kind = kind;
    if (opts.details) this.details = opts.details;
  }

  get status(): number {
    return ERROR_STATUS[this.kind];
  }

  /** `err` is one of this class (from either module copy): `ToolError.isInstance(err)`. */
  static isInstance<T extends StudioError>(this: Tagged & { prototype: T }, err: unknown): err is T {
    if (!Object.hasOwn(this, "tag")) throw new Error(`${String((this as { name?: unknown }).name)} extends StudioError without its own static tag.`);
    const tags = typeof err === "object" && err !== null ? (err as Record<symbol, unknown>)[MARK] : undefined;
    return Array.isArray(tags) && tags.includes(this.tag);
  }
}
