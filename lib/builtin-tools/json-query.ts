import type jsonata from "jsonata";
import { abortError, compileJsonata, evaluateCompiled, isJsonataFunction, JsonataError, toJsonText } from "../jsonata/evaluate";
import { defineTool, type ToolContext } from "../tools/define";
import { ToolError } from "../tools/errors";
import { text } from "../tools/output";

/**
 * The query's own limits (depth, sequence size and yielding are JSONATA_LIMITS). The wall-clock
 * limit sits below the tool timeout so the caller gets JSONata's own message.
 */
export const JSON_QUERY_LIMITS = {
  evalTimeoutMs: 8_000,
  maxResultChars: 5_000_000,
  /** The text block repeats the result for older clients, cut at this length. */
  maxTextChars: 100_000,
} as const;

/** JSONata errors as the caller's invalid arguments: the expression is an argument. */
function expressionError(prefix: string, err: JsonataError): ToolError {
  return new ToolError("invalid_args", `${prefix} ${err.message}`, { fields: [{ path: "/expression", message: err.message }] });
}

async function evaluate(expression: string, data: unknown, ctx: ToolContext): Promise<unknown> {
  let compiled: jsonata.Expression;
  try {
    compiled = compileJsonata(expression, { timeoutMs: JSON_QUERY_LIMITS.evalTimeoutMs });
  } catch (err) {
    if (JsonataError.isInstance(err)) throw expressionError("The expression does not parse.", err);
    throw err;
  }
  try {
    return await evaluateCompiled(compiled, data, ctx.signal);
  } catch (err) {
    if (JsonataError.isInstance(err)) {
      if (err.code === "D1012") {
        throw new ToolError("timeout", `The expression ran longer than ${JSON_QUERY_LIMITS.evalTimeoutMs} ms. ${err.message}`);
      }
      throw expressionError("The expression failed on this data.", err);
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
    'sort, group and reshape data (`orders.{ "id": id, "n": $count(items) }`). Runs locally with no network access; ' +
    "evaluation stops after 8 seconds.",
  inputSchema: {
    type: "object",
    properties: {
      data: {
        title: "Data",
        description: "The JSON document to query: any JSON value. Omit it to evaluate the expression without input.",
        examples: [
          {
            orders: [
              { id: 1, total: 120 },
              { id: 2, total: 35 },
            ],
          },
        ],
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
      throw new ToolError("invalid_args", "The expression evaluates to a function, which is not JSON. Call it, e.g. `$sum(values)` rather than `$sum`.", {
        fields: [{ path: "/expression", message: "evaluates to a function" }],
      });
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
      typeof value === "number" && !Number.isFinite(value) ? "The expression evaluated to a non-finite number, which JSON represents as null." : undefined;
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
