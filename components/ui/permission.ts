import { describeRule } from "@/lib/auth/policy";
import { roleAtLeast, type Role } from "@/lib/auth/roles";
import type { RunPolicyRuleConfig } from "@/lib/config/schema";

/**
 * What a page tells a control about the viewer's rights: whether they may use it and, when not,
 * why (shown beside the disabled control). The server enforces the same rules; this is only so
 * nobody presses a button to be told "no". Pure: usable in pages and client components alike.
 */
export interface Allowance {
  allowed: boolean;
  /** Why not, in words for the person; null when allowed. */
  reason: string | null;
}

export const ALLOWED: Allowance = { allowed: true, reason: null };

/** `have` may do `action` when it is at least `need`. `action` reads after "cannot": "run tools". */
export function allowRole(have: Role, need: Role, action: string): Allowance {
  if (roleAtLeast(have, need)) return ALLOWED;
  const ask = need === "admin" ? "only admins can." : `ask an admin for the ${need} role.`;
  return { allowed: false, reason: `Your role (${have}) cannot ${action} — ${ask}` };
}

/**
 * May `have` run this tool: the run API needs runner, and the tool's run policy
 * (lib/auth/policy.ts requiredRunRole) may ask for more.
 */
export function allowRun(have: Role, toolName: string, required: { role: Role; rule: RunPolicyRuleConfig | null }): Allowance {
  const base = allowRole(have, "runner", "run tools");
  if (!base.allowed || roleAtLeast(have, required.role)) return base;
  return {
    allowed: false,
    reason: `Running ${toolName} needs the ${required.role} role (${describeRule(required.rule)}); your role is ${have}.`,
  };
}
