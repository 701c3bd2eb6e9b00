import { globMatch } from "../auth/policy";
import type { QueueRuleConfig } from "../config/schema";
import type { ErrorKind } from "../tools/errors";

/** The tool a queued run calls, as its row names it. */
export interface QueuedTool {
  name: string;
  /** `builtin`, `runtime`, `mcp:<server>`. */
  source: string;
}

/**
 * One concurrency limit: at most `max` runs of the tools its rule matches run at once, across
 * every process. `key` names the rule (its tool and source globs), so every worker locks and
 * counts the same pool whatever the rule's place in the config.
 */
export interface ConcurrencyLimit {
  key: string;
  max: number;
  /** Human words for messages and logs: "tool slow_*", "source mcp:github". */
  label: string;
  matches(tool: QueuedTool): boolean;
}

export interface RetryPolicy {
  /** Retries after the first attempt (a run is tried at most 1 + retries times). */
  retries: number;
  delayMs: number;
  on: ReadonlySet<ErrorKind>;
}

const matches = (r: QueueRuleConfig, t: QueuedTool) => (!r.tool || globMatch(r.tool, t.name)) && (!r.source || globMatch(r.source, t.source));

const labelOf = (r: QueueRuleConfig) => [r.tool && `tool ${r.tool}`, r.source && `source ${r.source}`].filter(Boolean).join(", ");

/** Every limit that applies to a run of this tool, in key order (the order their locks are taken in, so two workers never wait on each other). */
export function limitsFor(tool: QueuedTool, rules: readonly QueueRuleConfig[]): ConcurrencyLimit[] {
  const byKey = new Map<string, ConcurrencyLimit>();
  for (const r of rules) {
    if (r.concurrency === undefined || !matches(r, tool)) continue;
    const key = JSON.stringify([r.tool ?? null, r.source ?? null]);
    const max = Math.min(r.concurrency, byKey.get(key)?.max ?? Infinity);
    byKey.set(key, { key, max, label: labelOf(r), matches: (t) => matches(r, t) });
  }
  return [...byKey.values()].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

/** The priority of a queued run whose caller sent none: the first matching rule's, else 0. */
export function priorityFor(tool: QueuedTool, rules: readonly QueueRuleConfig[]): number {
  return rules.find((r) => r.priority !== undefined && matches(r, tool))?.priority ?? 0;
}

/** The first matching rule's retries, or null when failed runs of this tool are not retried. */
export function retryPolicyFor(tool: QueuedTool, rules: readonly QueueRuleConfig[]): RetryPolicy | null {
  const r = rules.find((rule) => rule.retries !== undefined && matches(rule, tool));
  if (!r?.retries) return null;
  return { retries: r.retries, delayMs: r.retryDelayMs, on: new Set<ErrorKind>(r.retryOn) };
}

/** The longest a retry waits, whatever the doubling says. */
export const MAX_RETRY_DELAY_MS = 3_600_000;

/**
 * The wait before attempt `attempt + 1` of a run that failed on attempt `attempt` (1-based), or
 * null when it is not retried: its kind is not one the policy retries, or no attempt is left.
 */
export function retryDelay(policy: RetryPolicy | null, attempt: number, kind: ErrorKind | undefined): number | null {
  if (!policy || !kind || !policy.on.has(kind) || attempt > policy.retries) return null;
  return Math.min(policy.delayMs * 2 ** (attempt - 1), MAX_RETRY_DELAY_MS);
}

/** How long a run held back by a limit waits before a worker looks at it again: 0.25 s doubling to 5 s. */
export function deferralDelay(deferrals: number): number {
  return Math.min(250 * 2 ** Math.min(deferrals, 10), 5000);
}
