import { defineTool } from "../tools/define";
import { ToolError } from "../tools/errors";
import { structured } from "../tools/output";

/** Adds two integers exactly; refuses results that a JSON number cannot hold exactly. */
export const addTool = defineTool({
  name: "add",
  title: "Add two integers",
  description:
    "Adds two integers and returns their exact sum as `{ sum }`. Both numbers and the sum must stay within ±9007199254740991 " +
    "(Number.MAX_SAFE_INTEGER), the largest integers JSON tools can represent exactly.",
  inputSchema: {
    type: "object",
    properties: {
      a: { type: "integer", title: "First number", description: "The first addend.", examples: [2] },
      b: { type: "integer", title: "Second number", description: "The second addend.", examples: [40] },
    },
    required: ["a", "b"],
    additionalProperties: false,
  },
  outputSchema: {
    type: "object",
    properties: { sum: { type: "integer", description: "a + b" } },
    required: ["sum"],
    additionalProperties: false,
  },
  annotations: {
    title: "Add two integers",
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  },
  invocationTriggers: ["add", "sum", "plus", "addition"],
  timeoutMs: 1_000,
  async run({ a, b }) {
    const fields = [];
    if (!Number.isSafeInteger(a)) fields.push({ path: "/a", message: "must be a safe integer (|a| ≤ 9007199254740991)" });
    if (!Number.isSafeInteger(b)) fields.push({ path: "/b", message: "must be a safe integer (|b| ≤ 9007199254740991)" });
    if (fields.length) {
      throw new ToolError("invalid_args", "Both numbers must be integers within ±9007199254740991.", { fields });
    }
    const sum = a + b;
    if (!Number.isSafeInteger(sum)) {
      throw new ToolError("invalid_args", `The sum of ${a} and ${b} is beyond ±9007199254740991 (Number.MAX_SAFE_INTEGER) and cannot be represented exactly.`, {
        fields: [{ path: "", message: "the sum overflows the safe integer range" }],
      });
    }
    return structured({ sum });
  },
});
