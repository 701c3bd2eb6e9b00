import type { RuntimeConfig, RuntimeToolConfig } from "../config/schema";
import type { ToolSourceProvider } from "../registry/registry";
import type { RegisteredTool, ToolContext } from "../tools/define";
import { ToolError, isToolError } from "../tools/errors";
import { text, type ToolOutput } from "../tools/output";
import type { ToolSpec } from "../tools/spec";
import { evaluateJsonata, isJsonataFunction, JsonataError, JSONATA_LIMITS, toJsonText } from "../jsonata/evaluate";

/**
 * Tools defined in the runtime config (`tools`): each runs its JSONata expression over the
 * validated arguments; nothing else is executed. The list is built from the current config on
 * every call, so edits on disk apply at once. Name clashes with earlier sources are reported by
 * the Registry (register this source after builtin and MCP).
 */
export function createRuntimeSource(config: () => RuntimeConfig, changes?: (listener: () => void) => () => void): ToolSourceProvider {
  // Made once per config: the same objects until it changes (so a spec's hash is computed once).
  const byConfig = new WeakMap<RuntimeConfig, RegisteredTool[]>();
  return {
    id: "runtime",
    list: () => {
      const c = config();
      let list = byConfig.get(c);
      if (!list) byConfig.set(c, (list = c.tools.map(toRegisteredTool)));
      return list;
    },
    ...(changes ? { subscribe: changes } : {}),
  };
}

export function toRegisteredTool(def: RuntimeToolConfig): RegisteredTool {
  const { expression, ...fields } = def;
  const spec: ToolSpec = {
    name: fields.name,
    ...(fields.title ? { title: fields.title } : {}),
    description: fields.description,
    inputSchema: fields.inputSchema,
    ...(fields.outputSchema ? { outputSchema: fields.outputSchema } : {}),
    ...(fields.annotations ? { annotations: fields.annotations } : {}),
    ...(fields.paramDomains ? { paramDomains: fields.paramDomains } : {}),
    ...(fields.invocationTriggers ? { invocationTriggers: fields.invocationTriggers } : {}),
    ...(fields.timeoutMs ? { timeoutMs: fields.timeoutMs } : {}),
    source: { kind: "runtime", id: "runtime" },
    raw: def,
  };
  return { spec, invoke: (args, ctx) => run(def, args, ctx) };
}

async function run(def: RuntimeToolConfig, args: Record<string, unknown>, ctx: ToolContext): Promise<ToolOutput> {
  let value: unknown;
  try {
    // JSONata's own wall clock is a backstop a little past the studio's timeout (which aborts the signal).
    value = await evaluateJsonata(def.expression, args, ctx.signal, { timeoutMs: ctx.timeoutMs ? ctx.timeoutMs + 1_000 : undefined });
  } catch (err) {
    if (isToolError(err)) throw err;
    if (JsonataError.isInstance(err)) {
      if (err.code === "D1012") throw new ToolError("timeout", `The expression of "${def.name}" ran too long. ${err.message}`);
      throw new ToolError("provider", `The expression of "${def.name}" failed. ${err.message}`, {
        detail: `expression: ${def.expression}`,
        cause: err,
      });
    }
    if (err instanceof RangeError) {
      throw new ToolError("provider", `The expression of "${def.name}" recursed too deeply.`, { detail: err.stack, cause: err });
    }
    throw err;
  }

  if (value === undefined) {
    const note = "The expression matched nothing (JSONata returned undefined), so the result is null.";
    return { content: [text(`null\n\n${note}`)], structuredContent: null };
  }
  if (isJsonataFunction(value)) {
    throw new ToolError("provider", `The expression of "${def.name}" evaluates to a function, which is not JSON.`);
  }
  const compact = toJsonText(value) ?? "null";
  if (compact.length > JSONATA_LIMITS.maxResultChars) {
    throw new ToolError(
      "provider",
      `The result of "${def.name}" is too large (${(compact.length / 1e6).toFixed(1)} MB of JSON; the limit is ${JSONATA_LIMITS.maxResultChars / 1e6} MB).`,
    );
  }
  // Round-trip so the structured content is plain JSON (no sequence flags, functions or NaN).
  const result: unknown = JSON.parse(compact);
  let pretty = toJsonText(result, 2) ?? "null";
  if (pretty.length > JSONATA_LIMITS.maxTextChars) {
    pretty = `${pretty.slice(0, JSONATA_LIMITS.maxTextChars)}\n… (text truncated; the full result is in the structured content)`;
  }
  return { content: [text(pretty)], structuredContent: result };
}
