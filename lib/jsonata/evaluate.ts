import { StudioError } from "../errors/errors";
import jsonata from "jsonata";
import { ToolError, isToolError } from "../tools/errors";

/**
 * JSONata, the one expression language tools may run (json_query, runtime-defined tools): depth
 * and sequence limits, and an entry hook that stops at once when the run's signal is aborted and
 * yields to the event loop now and then so a timeout or cancel can land mid-evaluation.
 * JSONata errors come back as JsonataError; an abort as the signal's ToolError (or "cancelled").
 */

export const JSONATA_LIMITS = {
  maxDepth: 5_000,
  maxSequence: 1_000_000,
  maxResultChars: 5_000_000,
  maxTextChars: 100_000,
  yieldEvery: 1_000,
} as const;

/** A JSONata error (JSONata throws plain objects), with a readable one-line description. */
export class JsonataError extends StudioError {
  static override readonly tag: string = "JsonataError";
  readonly code: string;
  readonly position?: number;
  readonly token?: unknown;
  constructor(err: { code: string; message?: string; position?: number; token?: unknown }) {
    const where = typeof err.position === "number" ? ` at position ${err.position}` : "";
    const near = err.token !== undefined && err.token !== null && err.token !== "" ? ` (near ${JSON.stringify(err.token)})` : "";
    super("bad_request", `JSONata error ${err.code}${where}${near}: ${err.message ?? "unknown error"}`);
    this.code = err.code;
    this.position = err.position;
    this.token = err.token;
  }
}

function asJsonataError(err: unknown): JsonataError | undefined {
  if (JsonataError.isInstance(err)) return err;
  if (typeof err === "object" && err !== null && !isToolError(err) && typeof (err as { code?: unknown }).code === "string") {
    return new JsonataError(err as { code: string });
  }
  return undefined;
}

export function abortError(signal: AbortSignal): ToolError {
  return isToolError(signal.reason) ? signal.reason : new ToolError("cancelled", "The evaluation was cancelled.");
}

export const isJsonataFunction = (v: unknown): boolean =>
  typeof v === "function" || (typeof v === "object" && v !== null && ("_jsonata_function" in v || "_jsonata_lambda" in v));

/** JSON text of a JSONata result: functions dropped, non-finite numbers become null (as in JSON). */
export function toJsonText(value: unknown, indent?: number): string | undefined {
  return JSON.stringify(value, (_key, v: unknown) => (isJsonataFunction(v) ? undefined : v), indent);
}

/** Throws JsonataError when the expression does not parse. */
export function compileJsonata(expression: string, opts: { timeoutMs?: number } = {}): jsonata.Expression {
  try {
    return jsonata(expression, {
      ...(opts.timeoutMs ? { timeout: opts.timeoutMs } : {}),
      stack: JSONATA_LIMITS.maxDepth,
      sequence: JSONATA_LIMITS.maxSequence,
    });
  } catch (err) {
    throw asJsonataError(err) ?? err;
  }
}

/** Evaluates with the signal honoured. Throws JsonataError, RangeError (too deep) or the abort's ToolError. */
export async function evaluateJsonata(expression: string, data: unknown, signal: AbortSignal, opts: { timeoutMs?: number } = {}): Promise<unknown> {
  if (signal.aborted) throw abortError(signal);
  return evaluateCompiled(compileJsonata(expression, opts), data, signal);
}

/** jsonata's typings name bindings with strings only; its evaluator also reads this symbol as a per-step hook. */
interface HookableExpression {
  assign(name: string | symbol, value: unknown): void;
}

/** Evaluates an expression compiled with compileJsonata (so parse and run errors can be told apart). */
export async function evaluateCompiled(compiled: jsonata.Expression, data: unknown, signal: AbortSignal): Promise<unknown> {
  if (signal.aborted) throw abortError(signal);
  let steps = 0;
  (compiled as HookableExpression).assign(Symbol.for("jsonata.__evaluate_entry"), async () => {
    if (signal.aborted) throw abortError(signal);
    if (++steps % JSONATA_LIMITS.yieldEvery === 0) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      if (signal.aborted) throw abortError(signal);
    }
  });
  try {
    const value: unknown = await compiled.evaluate(data);
    if (signal.aborted) throw abortError(signal);
    return value;
  } catch (err) {
    if (signal.aborted) throw abortError(signal);
    throw asJsonataError(err) ?? err;
  }
}
