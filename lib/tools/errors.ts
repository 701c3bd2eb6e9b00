/** Tool errors: a closed set of kinds, a caller-safe message, and an operator-only detail. */

import { StudioError, type ApiErrorKind, type FieldError } from "../errors/errors";

export type { FieldError };

export const ERROR_KINDS = [
  "invalid_args",
  "not_found",
  "timeout",
  "cancelled",
  "permission_denied",
  "rate_limited",
  "result_too_large",
  "provider",
  "network",
  "other",
] as const satisfies readonly ApiErrorKind[];

export type ErrorKind = (typeof ERROR_KINDS)[number];

/** A list of field errors (e.g. read back from a JSON column). */
export function isFieldErrors(v: unknown): v is FieldError[] {
  return (
    Array.isArray(v) &&
    v.every((e: unknown) => typeof e === "object" && e !== null && typeof (e as FieldError).path === "string" && typeof (e as FieldError).message === "string")
  );
}

export function isErrorKind(v: unknown): v is ErrorKind {
  return typeof v === "string" && (ERROR_KINDS as readonly string[]).includes(v);
}

export class ToolError extends StudioError {
  static override readonly tag: string = "ToolError";
  declare readonly kind: ErrorKind;
  /** Operator-only: stored with the run, never sent to other callers. */
  readonly detail?: string;

  constructor(kind: ErrorKind, message: string, opts: { detail?: string; fields?: FieldError[]; cause?: unknown } = {}) {
    super(kind, message, { details: opts.fields, cause: opts.cause });
    this.detail = opts.detail;
  }

  /** The field errors under the name a run's error uses (`StudioError.details`). */
  get fields(): FieldError[] | undefined {
    return this.details;
  }
}

export function isToolError(err: unknown): err is ToolError {
  return ToolError.isInstance(err);
}

/**
 * Turns anything thrown by a tool into a ToolError. Unknown errors get a generic
 * caller-safe message; their real text goes to the operator-only detail.
 */
export function toToolError(err: unknown): ToolError {
  if (isToolError(err)) return err;
  if (err instanceof Error) {
    return new ToolError("other", "The tool failed with an unexpected error.", {
      detail: err.stack ?? `${err.name}: ${err.message}`,
      cause: err,
    });
  }
  return new ToolError("other", "The tool failed with an unexpected error.", { detail: String(err) });
}
