/** Helpers for the built-in tools' tests: a recording ToolContext, a strict Ajv, and a validated call. */
import Ajv2020 from "ajv/dist/2020";
import addFormats from "ajv-formats";
import type { ProgressUpdate, RegisteredTool, ToolContext } from "@/lib/tools/define";
import type { JsonSchema } from "@/lib/tools/spec";

/** A ToolContext for tests: records progress, and can be aborted through `controller`. */
export function testContext(controller = new AbortController()): ToolContext & {
  controller: AbortController;
  updates: ProgressUpdate[];
} {
  const updates: ProgressUpdate[] = [];
  return {
    signal: controller.signal,
    progress: (u) => updates.push(u),
    runId: "test-run",
    actor: "test",
    controller,
    updates,
  };
}

/** A strict Ajv for JSON Schema 2020-12 with formats, as the studio validates arguments. */
export function strictAjv(): Ajv2020 {
  const ajv = new Ajv2020({ strict: true, allErrors: true });
  addFormats(ajv);
  return ajv;
}

/** Validates a tool's arguments against its input schema, then invokes it. */
export async function call(tool: RegisteredTool, args: Record<string, unknown>, ctx = testContext()) {
  const validate = strictAjv().compile(tool.spec.inputSchema as JsonSchema);
  if (!validate(args)) throw new Error(`test arguments are invalid: ${JSON.stringify(validate.errors)}`);
  return tool.invoke(args, ctx);
}
