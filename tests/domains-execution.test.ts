import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createBuiltinSource } from "@/lib/builtin-tools";
import { RuntimeConfigSchema, type RuntimeConfig } from "@/lib/config/schema";
import { DomainService } from "@/lib/domains/service";
import { executeTool } from "@/lib/execution/execute";
import { OutboxStore } from "@/lib/outbox/store";
import { Registry } from "@/lib/registry/registry";
import { RunStore } from "@/lib/runs/store";
import { createTestDatabase, type TestDatabase } from "./helpers/db";

// The live re-check at run time, with the real built-in messaging tools and a real database.
let config: RuntimeConfig = RuntimeConfigSchema.parse({
  defaultAgent: "ops",
  agents: [{ alias: "ops", channels: ["slack.ops", "telegram.alerts"], groups: ["oncall", "qa"] }],
  channels: [
    { type: "slack", alias: "ops", peers: ["research", "@marta"] },
    { type: "telegram", alias: "alerts", peers: ["@li"] },
  ],
  groups: [
    { name: "oncall", members: ["@marta", "@li"] },
    { name: "qa", members: [] },
  ],
  lists: { priorities: ["p1", "p2"] },
});

let db: TestDatabase;
let deps: { registry: Registry; runs: RunStore; domains: DomainService };
let outbox: OutboxStore;
const base = { origin: "api" as const, actor: "tester" };

beforeAll(async () => {
  db = await createTestDatabase();
  outbox = new OutboxStore(db.prisma);
  const registry = new Registry();
  registry.addSource(createBuiltinSource({ outbox, config: () => config, listTools: () => registry.list() }));
  const domains = new DomainService({ config: () => config, tools: async () => (await registry.snapshot()).tools });
  deps = { registry, runs: new RunStore(db.prisma), domains };
});
afterAll(async () => db?.drop());

describe("option domains at run time", () => {
  it("send_message delivers into the outbox for a valid channel and target", async () => {
    const run = await executeTool(deps, { ...base, tool: "send_message", arguments: { channel: "slack.ops", target: "@marta", text: "hello" } });
    expect(run.status).toBe("success");
    expect(run.outputValid).toBe(true);
    expect(run.agent).toBe("ops");
    const [msg] = await outbox.list();
    expect(msg).toMatchObject({ runId: run.id, agent: "ops", channel: "slack.ops", target: "@marta", text: "hello" });
  });

  it("rejects a target not reachable on the chosen channel, naming the parameter and the valid choices", async () => {
    const run = await executeTool(deps, { ...base, tool: "send_message", arguments: { channel: "telegram.alerts", target: "@marta", text: "x" } });
    expect(run.status).toBe("rejected");
    expect(run.error?.kind).toBe("invalid_args");
    expect(run.error?.details).toEqual([{ path: "/target", message: '"@marta" is not a valid choice for peer_targets (agent ops); valid choices: @li' }]);
    expect((await deps.runs.get(run.id))?.status).toBe("rejected");
  });

  it("follows the live config: a value valid before an edit is rejected after it", async () => {
    const args = { channel: "slack.ops", target: "research", text: "hi" };
    expect((await executeTool(deps, { ...base, tool: "send_message", arguments: args })).status).toBe("success");
    config = RuntimeConfigSchema.parse({
      ...config,
      channels: [
        { type: "slack", alias: "ops", peers: ["@marta"] },
        { type: "telegram", alias: "alerts", peers: ["@li"] },
      ],
    });
    const run = await executeTool(deps, { ...base, tool: "send_message", arguments: args });
    expect(run.status).toBe("rejected");
    expect(run.error?.details?.[0]?.message).toMatch(/"research" is not a valid choice .* valid choices: @marta/);
  });

  it("rejects an unknown agent", async () => {
    const run = await executeTool(deps, { ...base, tool: "send_message", agent: "ghost", arguments: { channel: "slack.ops", target: "@marta", text: "x" } });
    expect(run.status).toBe("rejected");
    expect(run.error?.details?.[0]).toEqual({ path: "", message: expect.stringMatching(/Unknown agent "ghost"/) });
  });

  it("notify_group checks its own group_member domain against the chosen group", async () => {
    const ok = await executeTool(deps, { ...base, tool: "notify_group", arguments: { group: "oncall", priority: "p1", mention: "@li", text: "deploy at 5" } });
    expect(ok.status).toBe("success");
    expect((await outbox.list())[0]?.text).toBe("[p1] @li: deploy at 5");
    const bad = await executeTool(deps, { ...base, tool: "notify_group", arguments: { group: "qa", mention: "@li", text: "x" } });
    expect(bad.status).toBe("rejected");
    expect(bad.error?.details?.[0]?.path).toBe("/mention");
  });

  it("computes live triggers from the config, dropping names under 3 characters", async () => {
    const spec = (await deps.registry.get("send_message"))!.spec;
    expect(spec.invocationTriggers).toEqual(expect.arrayContaining(["send this to", "ops", "alerts", "oncall"]));
    expect(spec.invocationTriggers).not.toContain("qa");
    config = RuntimeConfigSchema.parse({ ...config, groups: [...config.groups, { name: "Night-Shift", members: [] }] });
    expect((await deps.registry.get("send_message"))!.spec.invocationTriggers).toContain("night-shift");
  });
});
