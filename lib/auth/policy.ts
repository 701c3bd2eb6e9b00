import type { RunPolicyRuleConfig } from "../config/schema";
import type { ToolSpec } from "../tools/spec";
import { higherRole, type Role } from "./roles";

/**
 * Who may run a tool: the runtime config's `runPolicy` rules (by tool name or glob, source, or
 * annotation). The highest role among the matching rules is required; runner when none match.
 */
export function requiredRunRole(
  spec: Pick<ToolSpec, "name" | "source" | "annotations">,
  rules: readonly RunPolicyRuleConfig[],
): { role: Role; rule: RunPolicyRuleConfig | null } {
  let role: Role = "runner";
  let rule: RunPolicyRuleConfig | null = null;
  for (const r of rules) {
    if (!ruleMatches(r, spec)) continue;
    const next = higherRole(role, r.role);
    if (next !== role || !rule) {
      role = next;
      rule = r;
    }
  }
  return { role, rule };
}

function ruleMatches(r: RunPolicyRuleConfig, spec: Pick<ToolSpec, "name" | "source" | "annotations">): boolean {
  if (r.tool && !globMatch(r.tool, spec.name)) return false;
  if (r.source && !globMatch(r.source, spec.source.id)) return false;
  if (r.annotation && spec.annotations?.[`${r.annotation}Hint`] !== true) return false;
  return true;
}

/** `*` any run of characters, `?` one character; everything else literal; whole string. */
export function globMatch(glob: string, value: string): boolean {
  const re = new RegExp(
    "^" +
      glob
        .replace(/[.+^${}()|[\]\\]/g, "\\$&")
        .replace(/\*/g, ".*")
        .replace(/\?/g, ".") +
      "$",
    "su",
  );
  return re.test(value);
}

/** Destructive by its own word (destructiveHint true, not read-only): callers must confirm. */
export function needsConfirmation(spec: Pick<ToolSpec, "annotations">): boolean {
  return spec.annotations?.destructiveHint === true && spec.annotations?.readOnlyHint !== true;
}

/** Human words for a rule, for "why" messages. */
export function describeRule(rule: RunPolicyRuleConfig | null): string {
  if (!rule) return "the default policy (runner)";
  const parts = [rule.tool && `tool ${rule.tool}`, rule.source && `source ${rule.source}`, rule.annotation && `annotation ${rule.annotation}`].filter(Boolean);
  return `the run policy rule for ${parts.join(", ")}`;
}
