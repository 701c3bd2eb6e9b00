import { defineTool } from "../tools/define";
import { ToolError, isToolError } from "../tools/errors";
import { structured } from "../tools/output";

/** The error to raise once the signal is aborted: its reason when that is a ToolError, else "cancelled". */
function abortError(signal: AbortSignal, counted: number): ToolError {
  if (isToolError(signal.reason)) return signal.reason;
  return new ToolError("cancelled", `The count was cancelled after ${counted} step${counted === 1 ? "" : "s"}.`);
}

/** Resolves after `ms`, or rejects as soon as the signal aborts. */
function sleep(ms: number, signal: AbortSignal, counted: number): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(abortError(signal, counted));
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortError(signal, counted));
    };
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

export const slowCountTool = defineTool({
  name: "slow_count",
  title: "Count slowly",
  description:
    "Counts from 1 to `steps`, waiting `delayMs` before each step and reporting progress as it goes; returns " +
    "`{ counted }`. Handy to watch progress updates and to try timeouts and cancellation: it stops promptly when " +
    "the run is cancelled or times out (default timeout 30 s).",
  inputSchema: {
    type: "object",
    properties: {
      steps: { type: "integer", title: "Steps", minimum: 1, maximum: 100, default: 10, description: "How far to count." },
      delayMs: {
        type: "integer",
        title: "Delay per step (ms)",
        minimum: 0,
        maximum: 10_000,
        default: 500,
        description: "How long to wait before each step.",
      },
    },
    additionalProperties: false,
  },
  outputSchema: {
    type: "object",
    properties: { counted: { type: "integer", minimum: 1, description: "How many steps were counted." } },
    required: ["counted"],
    additionalProperties: false,
  },
  annotations: {
    title: "Count slowly",
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  },
  invocationTriggers: ["count slowly", "test progress", "test timeout", "test cancel"],
  timeoutMs: 30_000,
  async run({ steps = 10, delayMs = 500 }, ctx) {
    const { signal } = ctx;
    let counted = 0;
    for (let i = 1; i <= steps; i++) {
      if (signal.aborted) throw abortError(signal, counted);
      await sleep(delayMs, signal, counted);
      counted = i;
      ctx.progress({ progress: i, total: steps, message: `Counted ${i} of ${steps}` });
    }
    return structured({ counted });
  },
});
