import { describe, expect, it } from "vitest";
import { RuntimeConfigSchema, type RuntimeConfig } from "../config/schema";
import { defineTool } from "../tools/define";
import { structured } from "../tools/output";
import { findOccurrences } from "./paths";
import { DomainService } from "./service";

const config: RuntimeConfig = RuntimeConfigSchema.parse({
  defaultAgent: "ops",
  agents: [
    { alias: "ops", channels: ["slack.ops", "telegram.alerts", "email.old"], groups: ["oncall", "leads"] },
    { alias: "research", channels: ["slack.ops"], groups: [] },
  ],
  channels: [
    { type: "slack", alias: "ops", peers: ["research", "@marta", "@li"] },
    { type: "telegram", alias: "alerts", peers: ["@marta", "billing"] },
    { type: "email", alias: "old", enabled: false, peers: ["@sam"] },
  ],
  peers: [{ id: "@marta", label: "Marta R." }],
  groups: [
    { name: "oncall", members: ["@marta", "@li", "research"] },
    { name: "leads", members: ["@sam"] },
  ],
  memoryCategories: [{ name: "facts" }, { name: "prefs", description: "user preferences" }],
  lists: { priorities: [{ value: "p1", label: "Urgent" }, "p2"] },
});

const send = defineTool({
  name: "send",
  description: "Sends a message somewhere useful for the tests of the domain service.",
  inputSchema: {
    type: "object",
    properties: {
      channel: { type: "string" },
      target: { type: "string" },
      cc: { type: "array", items: { type: "object", properties: { to: { type: "string" } } } },
    },
  } as const,
  paramDomains: { channel: "channel_refs", target: "peer_targets", "cc/*/to": "peer_targets" },
  domains: { lucky: () => [{ value: "seven" }] },
  run: async () => structured({}),
});

const svc = new DomainService({ config: () => config, tools: async () => [send] });

describe("option domains", () => {
  it("channel_refs lists the agent's channels, disabled ones hinted", async () => {
    const { options, agent } = await svc.resolve("channel_refs");
    expect(agent).toBe("ops");
    expect(options).toEqual([
      { value: "slack.ops", label: "slack.ops", group: "slack" },
      { value: "telegram.alerts", label: "telegram.alerts", group: "telegram" },
      { value: "email.old", label: "email.old", group: "email", hint: "disabled", disabled: true },
    ]);
  });

  it("peer_targets de-duplicates peers across channels, hints their kind, narrows to the sibling channel", async () => {
    const all = (await svc.resolve("peer_targets")).options;
    expect(all.map((o) => [o.value, o.hint])).toEqual([
      ["billing", "peer agent"],
      ["research", "peer agent"],
      ["@li", "external peer"],
      ["@marta", "external peer"],
      ["@sam", "external peer"],
    ]);
    expect(all.find((o) => o.value === "@marta")?.label).toBe("Marta R.");
    const narrowed = (await svc.resolve("peer_targets", { args: { channel: "telegram.alerts" } })).options;
    expect(narrowed.map((o) => o.value)).toEqual(["billing", "@marta"]);
  });

  it("peer_groups are the agent's groups with member counts, sorted", async () => {
    expect((await svc.resolve("peer_groups")).options).toEqual([
      { value: "leads", hint: "group: 1 member" },
      { value: "oncall", hint: "group: 3 members" },
    ]);
    expect((await svc.resolve("peer_groups", { agent: "research" })).options).toEqual([]);
  });

  it("agent_aliases, tool_names, memory_categories, custom lists and a tool's own domain", async () => {
    expect((await svc.resolve("agent_aliases")).options.map((o) => o.value)).toEqual(["ops", "research"]);
    const tools = (await svc.resolve("tool_names")).options;
    expect(tools).toEqual([{ value: "send", hint: "Sends a message somewhere useful for the tests of the domai…" }]);
    expect(tools[0]!.hint!.length).toBe(60);
    expect((await svc.resolve("memory_categories")).options).toEqual([{ value: "facts" }, { value: "prefs", hint: "user preferences" }]);
    expect((await svc.resolve("custom:priorities")).options).toEqual([{ value: "p1", label: "Urgent" }, { value: "p2" }]);
    expect((await svc.resolve("lucky")).options).toEqual([{ value: "seven" }]);
  });

  it("unknown domains, lists and agents are clear errors", async () => {
    await expect(svc.resolve("nope")).rejects.toThrow(/Unknown option domain "nope". Known domains: .*channel_refs/);
    await expect(svc.resolve("custom:missing")).rejects.toThrow(/Unknown custom list "missing". Lists in the config: priorities/);
    await expect(svc.resolve("channel_refs", { agent: "ghost" })).rejects.toThrow(/Unknown agent "ghost". Configured agents: ops, research/);
  });

  it("resolves every domain parameter of a tool, per occurrence inside arrays", async () => {
    const r = await svc.resolveTool(send.spec, { args: { channel: "slack.ops", cc: [{ to: "@li" }, {}] } });
    expect(r.agent).toBe("ops");
    expect(r.agentDependent).toBe(true);
    expect(r.params.map((p) => p.path)).toEqual(["channel", "target", "cc/*/to"]);
    const cc = r.params[2]!;
    expect(cc.occurrences.map((o) => o.pointer)).toEqual(["/cc/0/to", "/cc/1/to"]);
  });

  it("re-checks values: stale and disabled values are rejected with the valid choices", async () => {
    expect(await svc.check(send.spec, { channel: "slack.ops", target: "@marta" })).toEqual([]);
    const errs = await svc.check(send.spec, { channel: "email.old", target: "@nobody", cc: [{ to: "research" }, { to: "@ghost" }] });
    expect(errs.map((e) => e.path)).toEqual(["/channel", "/target", "/cc/1/to"]);
    expect(errs[0]!.message).toBe('"email.old" is disabled for channel_refs (agent ops); valid choices: slack.ops, telegram.alerts');
    expect(errs[1]!.message).toMatch(/"@nobody" is not a valid choice for peer_targets \(agent ops\); valid choices: /);
    // target narrowed by the sibling channel: @li is not on telegram
    expect((await svc.check(send.spec, { channel: "telegram.alerts", target: "@li" }))[0]!.path).toBe("/target");
    expect(await svc.check(send.spec, { channel: "slack.ops" }, "ghost")).toEqual([{ path: "", message: expect.stringMatching(/Unknown agent "ghost"/) }]);
  });
});

describe("findOccurrences", () => {
  it("walks names and array items", () => {
    const args = { a: { b: [{ c: 1 }, { d: 2 }] } };
    expect(findOccurrences(args, "a/b/*/c").map((o) => [o.pointer, o.value])).toEqual([
      ["/a/b/0/c", 1],
      ["/a/b/1/c", undefined],
    ]);
    expect(findOccurrences(args, "x/y")).toEqual([]);
  });
});
