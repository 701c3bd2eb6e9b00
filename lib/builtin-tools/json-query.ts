import jsonata from "jsonata";
import { defineTool, type ToolContext } from "../tools/define";
import { ToolError } from "../tools/errors";
import { text } from "../tools/output";

/** Evaluation guardrails. The wall-clock limit sits below the tool timeout so the caller gets JSONata's own message. */
export const JSON_QUERY_LIMITS = {
  evalTimeoutMs: 8_000,
  maxDepth: 5_000,
  maxSequence: 1_000_000,
  maxResultChars: 5_000_000,
  /** The text block repeats the result for older clients, cut at this length. */
  maxTextChars: 100_000,
  /** Evaluation steps between yields to the event loop, so timers and cancel can be seen mid-evaluation. */
  yieldEvery: 1_000,
} as const;

/** The shape JSONata gives its errors: plain objects, not Error instances. */
interface JsonataErrorLike {
  code?: string;
  message?: string;
  position?: number;
  token?: unknown;
  value?: unknown;
}

function isJsonataError(err: unknown): err is JsonataErrorLike & { code: string } {
  return typeof err === "object" && err !== null && typeof (err as JsonataErrorLike).code === "string" && !(err instanceof ToolError);
}

function abortError(signal: AbortSignal): ToolError {
  return signal.reason instanceof ToolError ? signal.reason : new ToolError("cancelled", "The query was cancelled.");
}

const isJsonataFunction = (v: unknown): boolean =>
  typeof v === "function" ||
  (typeof v === "object" && v !== null && ("_jsonata_function" in v || "_jsonata_lambda" in v));

/** JSON text of a JSONata result: functions dropped, non-finite numbers become null (as in JSON). */
function toJsonText(value: unknown, indent?: number): string | undefined {
  return JSON.stringify(value, (_key, v: unknown) => (isJsonataFunction(v) ? undefined : v), indent);
}

function describeJsonataError(err: JsonataErrorLike & { code: string }): string {
  const where = typeof err.position === "number" ? ` at position ${err.position}` : "";
  const token = err.token !== undefined && err.token !== null && err.token !== "" ? ` (near ${JSON.stringify(err.token)})` : "";
  return `JSONata error ${err.code}${where}${token}: ${err.message ?? "unknown error"}`;
}

async function evaluate(expression: string, data: unknown, ctx: ToolContext): Promise<unknown> {
  const { signal } = ctx;
  let compiled: jsonata.Expression;
  try {
    compiled = jsonata(expression, {
      timeout: JSON_QUERY_LIMITS.evalTimeoutMs,
      stack: JSON_QUERY_LIMITS.maxDepth,
      sequence: JSON_QUERY_LIMITS.maxSequence,
    });
  } catch (err) {
    if (isJsonataError(err)) {
      throw new ToolError("invalid_args", `The expression does not parse. ${describeJsonataError(err)}`, {
        fields: [{ path: "/expression", message: describeJsonataError(err) }],
      });
    }
    throw err;
  }

  // JSONata calls this hook before every evaluation step: stop when the run is aborted, and now and
  // then yield to the event loop so a timeout or cancel (which arrive as timers/events) can land.
  let steps = 0;
  compiled.assign(Symbol.for("jsonata.__evaluate_entry") as unknown as string, async () => {
    if (signal.aborted) throw abortError(signal);
    if (++steps % JSON_QUERY_LIMITS.yieldEvery === 0) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      if (signal.aborted) throw abortError(signal);
    }
  });

  try {
    return await compiled.evaluate(data);
  } catch (err) {
    if (signal.aborted) throw abortError(signal);
    if (err instanceof ToolError) throw err;
    if (isJsonataError(err)) {
      const message = describeJsonataError(err);
      if (err.code === "D1012") {
        throw new ToolError("timeout", `The expression ran longer than ${JSON_QUERY_LIMITS.evalTimeoutMs} ms. ${message}`);
      }
      throw new ToolError("invalid_args", `The expression failed on this data. ${message}`, {
        fields: [{ path: "/expression", message }],
      });
    }
    if (err instanceof RangeError) {
      throw new ToolError("invalid_args", "The expression recursed too deeply. Consider rewriting it as tail-recursive.", {
        detail: err.stack,
        fields: [{ path: "/expression", message: err.message }],
      });
    }
    throw err;
  }
}

export const jsonQueryTool = defineTool({
  name: "json_query",
  title: "Query JSON with JSONata",
  description:
    "Queries or transforms a JSON document with a JSONata expression (https://jsonata.org) and returns `{ result }`. " +
    "Use it to pick fields (`orders.items.sku`), filter (`orders[total > 100]`), aggregate (`$sum(orders.total)`), " +
    "sort, group and reshape data (`orders.{ \"id\": id, \"n\": $count(items) }`). Runs locally with no network access; " +
    "evaluation stops after 8 seconds.",
  inputSchema: {
    type: "object",
    properties: {
      data: {
        title: "Data",
        description: "The JSON document to query: any JSON value. Omit it to evaluate the expression without input.",
        examples: [{ orders: [{ id: 1, total: 120 }, { id: 2, total: 35 }] }],
      },
      expression: {
        type: "string",
        minLength: 1,
        maxLength: 20_000,
        title: "JSONata expression",
        description: "A JSONata expression, e.g. `$sum(orders.total)` or `orders[total > 100].id`.",
        examples: ["$sum(orders.total)", "orders[total > 100].id"],
      },
    },
    required: ["expression"],
    additionalProperties: false,
  },
  outputSchema: {
    type: "object",
    properties: {
      result: { description: "The value of the expression (null when it matched nothing)." },
      note: { type: "string", description: "Set when the result needs explaining, e.g. nothing matched." },
    },
    required: ["result"],
    additionalProperties: false,
  },
  annotations: {
    title: "Query JSON with JSONata",
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  },
  invocationTriggers: ["jsonata", "query json", "transform json", "filter json", "extract field", "json path"],
  timeoutMs: 10_000,
  async run({ data, expression }, ctx) {
    if (ctx.signal.aborted) throw abortError(ctx.signal);
    const value = await evaluate(expression, data, ctx);
    if (ctx.signal.aborted) throw abortError(ctx.signal);

    if (value === undefined) {
      const note = "The expression matched nothing (JSONata returned undefined), so the result is null.";
      return { content: [text(`null\n\n${note}`)], structuredContent: { result: null, note } };
    }
    if (isJsonataFunction(value)) {
      throw new ToolError(
        "invalid_args",
        "The expression evaluates to a function, which is not JSON. Call it, e.g. `$sum(values)` rather than `$sum`.",
        { fields: [{ path: "/expression", message: "evaluates to a function" }] },
      );
    }
    const compact = toJsonText(value) ?? "null";
    if (compact.length > JSON_QUERY_LIMITS.maxResultChars) {
      throw new ToolError(
        "invalid_args",
        `The result is too large (${(compact.length / 1e6).toFixed(1)} MB of JSON; the limit is ${JSON_QUERY_LIMITS.maxResultChars / 1e6} MB). Narrow the expression.`,
      );
    }
    // Round-trip so the structured result is plain JSON (no JSONata sequence flags, functions or NaN).
    const result: unknown = JSON.parse(compact);
    const note =
      typeof value === "number" && !Number.isFinite(value)
        ? "The expression evaluated to a non-finite number, which JSON represents as null."
        : undefined;
    let pretty = toJsonText(result, 2) ?? "null";
    if (pretty.length > JSON_QUERY_LIMITS.maxTextChars) {
      pretty = `${pretty.slice(0, JSON_QUERY_LIMITS.maxTextChars)}\n… (text truncated; the full result is in the structured content)`;
    }
    return {
      content: [text(note ? `${pretty}\n\n${note}` : pretty)],
      structuredContent: note ? { result, note } : { result },
    };
  },
});
