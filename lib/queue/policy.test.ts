import { describe, expect, it } from "vitest";
import { RuntimeConfigSchema } from "../config/schema";
import { deferralDelay, limitsFor, MAX_RETRY_DELAY_MS, priorityFor, retryDelay, retryPolicyFor } from "./policy";

const rulesOf = (queuePolicy: unknown[]) => RuntimeConfigSchema.parse({ queuePolicy }).queuePolicy;

describe("queue policy", () => {
  const rules = rulesOf([
    { tool: "slow_*", concurrency: 2, priority: 5 },
    { source: "mcp:github", concurrency: 4, retries: 2, retryDelayMs: 100, retryOn: ["network", "rate_limited"] },
    { tool: "slow_*", concurrency: 1 },
    { tool: "gh_*", source: "mcp:github", priority: -3 },
  ]);

  it("every matching limit applies, one per tool/source pair (the lower wins), in key order", () => {
    const limits = limitsFor({ name: "slow_count", source: "mcp:github" }, rules);
    expect(limits.map((l) => [l.label, l.max])).toEqual([
      ["tool slow_*", 1],
      ["source mcp:github", 4],
    ]);
    expect(limits[0]!.matches({ name: "slow_x", source: "builtin" })).toBe(true);
    expect(limits[1]!.matches({ name: "slow_x", source: "builtin" })).toBe(false);
    expect(limitsFor({ name: "add", source: "builtin" }, rules)).toEqual([]);
  });

  it("the first matching rule with a priority gives it; none gives 0", () => {
    expect(priorityFor({ name: "slow_a", source: "builtin" }, rules)).toBe(5);
    expect(priorityFor({ name: "gh_issue", source: "mcp:github" }, rules)).toBe(-3);
    expect(priorityFor({ name: "add", source: "builtin" }, rules)).toBe(0);
  });

  it("retries: only the kinds asked for, until the attempts run out, waiting twice as long each time", () => {
    const p = retryPolicyFor({ name: "gh_issue", source: "mcp:github" }, rules);
    expect(p).toMatchObject({ retries: 2, delayMs: 100 });
    expect(retryDelay(p, 1, "network")).toBe(100);
    expect(retryDelay(p, 2, "rate_limited")).toBe(200);
    expect(retryDelay(p, 3, "network")).toBeNull();
    expect(retryDelay(p, 1, "provider")).toBeNull();
    expect(retryDelay(p, 1, undefined)).toBeNull();
    expect(retryPolicyFor({ name: "add", source: "builtin" }, rules)).toBeNull();
    expect(retryPolicyFor({ name: "x", source: "builtin" }, rulesOf([{ tool: "x", retries: 0 }]))).toBeNull();
    const big = retryPolicyFor({ name: "x", source: "builtin" }, rulesOf([{ tool: "x", retries: 10, retryDelayMs: 3_600_000 }]));
    expect(retryDelay(big, 5, "other")).toBe(MAX_RETRY_DELAY_MS);
  });

  it("by default every failure but a refusal is retried", () => {
    const p = retryPolicyFor({ name: "x", source: "builtin" }, rulesOf([{ tool: "x", retries: 1 }]));
    expect([...(p?.on ?? [])].sort()).toEqual(["network", "other", "provider", "rate_limited", "timeout"]);
    expect(p?.delayMs).toBe(1000);
  });

  it("a held run waits 0.25 s, doubling to 5 s", () => {
    expect([0, 1, 2, 4, 5, 50].map(deferralDelay)).toEqual([250, 500, 1000, 4000, 5000, 5000]);
  });

  it("rules say what is wrong with them", () => {
    const r = RuntimeConfigSchema.safeParse({
      queuePolicy: [{ concurrency: 2 }, { tool: "a" }, { tool: "b", concurrency: 0 }, { tool: "c", retries: 1, retryOn: ["invalid_args"] }],
    });
    expect(r.success).toBe(false);
    const messages = r.error?.issues.map((i) => `${i.path.join("/")}: ${i.message}`) ?? [];
    expect(messages).toContain("queuePolicy/0: a rule needs a tool or a source");
    expect(messages).toContain("queuePolicy/1: a rule needs at least one of concurrency, priority or retries");
    expect(messages.some((m) => m.startsWith("queuePolicy/2/concurrency:"))).toBe(true);
    expect(messages.some((m) => m.startsWith("queuePolicy/3/retryOn/0:"))).toBe(true);
  });
});
