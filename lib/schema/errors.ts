import { StudioError } from "../errors/errors";

/** A JSON Schema that cannot be used: broken, too big, or with a pattern the linear-time engine refuses. */
export class SchemaCompileError extends StudioError {
  static override readonly tag: string = "SchemaCompileError";
  constructor(message: string, opts: { cause?: unknown } = {}) {
    super("bad_request", message, opts);
  }
}

/** A pattern for an error message: quoted, cut when long. */
export function quotePattern(pattern: string, max = 120): string {
  return JSON.stringify(pattern.length > max ? `${pattern.slice(0, max)}…` : pattern);
}
