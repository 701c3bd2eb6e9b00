import { defineTool } from "../tools/define";
import { ERROR_KINDS, ToolError, type ErrorKind } from "../tools/errors";

/** What each kind of failure says when the caller gives no message. */
export const DEFAULT_FAILURE_MESSAGES: Record<ErrorKind, string> = {
  invalid_args: "The arguments were rejected (deliberate failure).",
  not_found: "The requested item was not found (deliberate failure).",
  timeout: "The operation timed out (deliberate failure).",
  cancelled: "The operation was cancelled (deliberate failure).",
  permission_denied: "Permission denied (deliberate failure).",
  rate_limited: "Rate limit exceeded; try again later (deliberate failure).",
  result_too_large: "The result was larger than the studio takes (deliberate failure).",
  provider: "The upstream provider returned an error (deliberate failure).",
  network: "A network error occurred (deliberate failure).",
  other: "The tool failed (deliberate failure).",
};

export const failTool = defineTool({
  name: "fail",
  title: "Fail on purpose",
  description:
    "Always fails, with the error kind you choose, to see how failures are reported, stored and shown. " +
    '`mode: "throw"` raises a tool error of that kind with your message; `mode: "crash"` throws an unexpected ' +
    "plain error instead, which is reported as kind `other` with a generic message while the real text is kept " +
    "for operators only.",
  inputSchema: {
    type: "object",
    properties: {
      kind: {
        type: "string",
        title: "Error kind",
        enum: ERROR_KINDS,
        default: "other",
        description: "The kind of error to raise (ignored by mode crash, which always ends up as `other`).",
      },
      message: {
        type: "string",
        title: "Message",
        minLength: 1,
        maxLength: 500,
        description: "The caller-visible message (mode throw) or the operator-only crash text (mode crash).",
      },
      mode: {
        type: "string",
        title: "Mode",
        enum: ["throw", "crash"],
        default: "throw",
        description: "throw: a deliberate tool error. crash: an unexpected exception, as a buggy tool would raise.",
      },
    },
    required: ["kind"],
    additionalProperties: false,
  },
  annotations: {
    title: "Fail on purpose",
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  },
  invocationTriggers: ["fail", "simulate error", "test error handling"],
  timeoutMs: 1_000,
  async run({ kind = "other", message, mode = "throw" }) {
    if (mode === "crash") {
      throw new Error(message ?? `Simulated crash: the fail tool threw a plain Error (requested kind "${kind}" is not used).`);
    }
    throw new ToolError(kind, message ?? DEFAULT_FAILURE_MESSAGES[kind], {
      detail: `Deliberate failure from the fail tool (kind "${kind}", mode "throw").`,
      ...(kind === "invalid_args" ? { fields: [{ path: "/kind", message: "deliberately rejected" }] } : {}),
    });
  },
});
