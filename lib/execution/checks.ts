// The checks of a call before its tool runs (pure but for the option domains' resolution): a
// refused call is captured as rejected with the first check that refused it (./prepare.ts).
import type { RunStart } from "../runs/store";
import type { RegisteredTool } from "../tools/define";
import { ToolError } from "../tools/errors";
import type { ToolSpec } from "../tools/spec";
import { describeFieldErrors, SchemaCompileError, validate } from "../schema/validate";
import { inspectJson, storableCopy } from "../http/input";
import type { DomainService } from "../domains/service";
import type { FieldError } from "../tools/errors";
import { describeRule, needsConfirmation, requiredRunRole } from "../auth/policy";
import { roleAtLeast } from "../auth/roles";
import type { ExecuteDeps, RunCall, RunCaller, RunChecks } from "./request";

/**
 * The arguments to store and their problems. Arguments no caller inspected (an MCP client's, parsed
 * by the SDK) are inspected here, so a NUL or a lone surrogate in a key, or nesting deep enough to
 * overflow a recursive walk, makes a rejected run stored escaped, never a database error.
 */
export function inspected(req: Pick<RunCall & RunChecks, "arguments" | "inputProblems">): { arguments: unknown; problems: FieldError[] } {
  const args = req.arguments ?? {};
  if (req.inputProblems) return { arguments: args, problems: req.inputProblems };
  const problems = inspectJson(args);
  return problems.length ? { arguments: storableCopy(args), problems } : { arguments: args, problems: [] };
}

export function checkInput(problems: FieldError[]): ToolError | null {
  if (!problems.length) return null;
  return new ToolError(
    "invalid_args",
    `Invalid arguments: ${describeFieldErrors(problems)}. They were stored altered for storage (escaped or cut), so this record shows them as closely as possible.`,
    {
      fields: problems,
    },
  );
}

/** Refused by the run policy: the caller's role is below what the policy asks for this tool. */
export function checkPolicy(deps: Pick<ExecuteDeps, "runPolicy">, req: Pick<RunCaller, "role" | "actor">, spec: ToolSpec): ToolError | null {
  if (!req.role) return null;
  const { role, rule } = requiredRunRole(spec, deps.runPolicy?.() ?? []);
  if (roleAtLeast(req.role, role)) return null;
  return new ToolError("permission_denied", `Running ${spec.name} needs the ${role} role (${describeRule(rule)}); ${req.actor} has the ${req.role} role.`);
}

export function checkConfirmation(req: RunChecks, spec: ToolSpec): ToolError | null {
  if (!req.requireConfirmation || req.confirmed || !needsConfirmation(spec)) return null;
  return new ToolError(
    "invalid_args",
    `${spec.name} is marked destructive (destructiveHint): ${req.confirmHow ?? 'confirm the call by sending "confirm": true'}.`,
    {
      fields: [{ path: "/confirm", message: "must be true for a destructive tool" }],
    },
  );
}

export function checkArguments(tool: RegisteredTool, args: unknown): ToolError | null {
  if (typeof args !== "object" || args === null || Array.isArray(args)) {
    return new ToolError("invalid_args", "Arguments must be a JSON object.", { fields: [{ path: "", message: "must be an object" }] });
  }
  try {
    const result = validate(tool.spec.inputSchema, args);
    if (result.valid) return null;
    return new ToolError("invalid_args", `Invalid arguments: ${describeFieldErrors(result.errors)}`, { fields: result.errors });
  } catch (err) {
    if (SchemaCompileError.isInstance(err)) {
      return new ToolError("provider", "The tool's input schema is not a valid JSON Schema.", { detail: err.message });
    }
    throw err;
  }
}

/** Domain values must be current choices of the live config, whatever the form showed. */
export async function checkDomains(domains: DomainService | undefined, tool: RegisteredTool, start: RunStart): Promise<ToolError | null> {
  if (!domains || !tool.spec.paramDomains) return null;
  let errors: FieldError[];
  try {
    errors = await domains.check(tool.spec, start.arguments as Record<string, unknown>, start.agent);
    if (!start.agent && !errors.length) start.agent = domains.resolveAgent(domains.currentConfig());
  } catch (err) {
    return new ToolError("provider", "The tool's option domains could not be resolved.", { detail: (err as Error).message });
  }
  if (!errors.length) return null;
  return new ToolError("invalid_args", `Invalid arguments: ${describeFieldErrors(errors)}`, { fields: errors });
}
