// Issue 31 items 3 and 4, pure: the context budget of a set of definitions, and a captured run
// as each target's model receives it (what of the result each carries, changes or drops).
import { describe, expect, it } from "vitest";
import { buildDefinitions, registryBudget, runModelView, TARGETS, TOOL_LIMITS } from "@/lib/model-view";
import { budgetOf } from "@/lib/model-view/budget";
import { o200kCount } from "@/lib/model-view/tokens";
import type { Run } from "@/lib/runs/types";
import type { ContentBlock } from "@/lib/tools/output";
import type { ToolSpec } from "@/lib/tools/spec";

const PNG = "iVBORw0KGgo="; // the PNG signature, base64: enough for a block's data
const PDF = Buffer.from("%PDF-1.4\n").toString("base64");

function run(over: Partial<Run> & Pick<Run, "status">): Run {
  return {
    id: "0b5f7a8e-1111-4222-8333-944445555666",
    tool: "chart",
    source: "builtin",
    specHash: "h",
    arguments: {},
    output: null,
    outputValid: null,
    outputErrors: null,
    error: null,
    timeoutMs: null,
    durationMs: 3,
    startedAt: new Date(0).toISOString(),
    finishedAt: new Date(3).toISOString(),
    origin: "api",
    actor: "test",
    actorId: null,
    tokenId: null,
    agent: null,
    clientName: null,
    replayOf: null,
    ...over,
  };
}

const MIXED: ContentBlock[] = [
  { type: "text", text: "Here is the chart." },
  { type: "image", data: PNG, mimeType: "image/png" },
  { type: "audio", data: "AAAA", mimeType: "audio/wav" },
  { type: "resource_link", uri: "file:///tmp/report.csv", name: "report.csv", title: "Report" },
  { type: "resource", resource: { uri: "file:///tmp/spec.pdf", mimeType: "application/pdf", blob: PDF } },
];
const mixed = run({ status: "success", output: { content: MIXED } });
const how = (v: ReturnType<typeof runModelView>) => Object.fromEntries(v.carried.map((c) => [c.pointer, c.how]));

describe("a run as each model receives it", () => {
  it("OpenAI Chat: a tool message of text only; images, audio and binary resources dropped, a resource link sent as text", () => {
    const v = runModelView(mixed, "openai-chat");
    expect(v.message).toEqual({
      role: "tool",
      tool_call_id: expect.stringMatching(/^call_/),
      content: [
        { type: "text", text: "Here is the chart." },
        { type: "text", text: "Resource: Report <file:///tmp/report.csv>" },
      ],
    });
    expect(how(v)).toEqual({ "/content/0": "carried", "/content/1": "dropped", "/content/2": "dropped", "/content/3": "changed", "/content/4": "dropped" });
    expect(v.carried.every((c) => c.doc.startsWith("https://platform.openai.com/"))).toBe(true);
    expect(v.tokens).toEqual({ count: o200kCount(JSON.stringify(v.message)), tokenizer: "o200k_base", approximate: false });
  });

  it("OpenAI Responses: input_text, input_image (data URL) and input_file items; audio dropped", () => {
    const v = runModelView(mixed, "openai-responses");
    expect(v.message).toMatchObject({ type: "function_call_output", call_id: expect.stringMatching(/^call_/) });
    expect((v.message.output as { type: string }[]).map((o) => o.type)).toEqual(["input_text", "input_image", "input_text", "input_file"]);
    expect((v.message.output as { image_url?: string }[])[1]!.image_url).toBe(`data:image/png;base64,${PNG}`);
    expect(how(v)["/content/2"]).toBe("dropped");
    // Media is carried, so the count of its base64 text is only an estimate of what OpenAI charges.
    expect(v.tokens.approximate).toBe(true);
  });

  it("Anthropic: a tool_result with text, image and document blocks; audio dropped; an unsupported image type dropped with why", () => {
    const v = runModelView(mixed, "anthropic");
    expect(v.message).toMatchObject({ type: "tool_result", tool_use_id: expect.stringMatching(/^toolu_/) });
    expect(v.message.is_error).toBeUndefined();
    expect((v.message.content as { type: string }[]).map((c) => c.type)).toEqual(["text", "image", "text", "document"]);
    expect(how(v)["/content/2"]).toBe("dropped");
    const tiff = runModelView(run({ status: "success", output: { content: [{ type: "image", data: "AA", mimeType: "image/tiff" }] } }), "anthropic");
    expect(tiff.carried[0]).toMatchObject({ how: "dropped", message: expect.stringContaining("image/tiff") });
  });

  it("Gemini: a functionResponse whose output is the text, media in its parts; audio dropped", () => {
    const v = runModelView(mixed, "gemini");
    const fr = (v.message as { functionResponse: { name: string; response: { output: string }; parts: { inlineData: { mimeType: string } }[] } })
      .functionResponse;
    expect(fr.name).toBe("chart");
    expect(fr.response.output).toBe("Here is the chart.\nResource: Report <file:///tmp/report.csv>");
    expect(fr.parts.map((p) => p.inlineData.mimeType)).toEqual(["image/png", "application/pdf"]);
    expect(how(v)["/content/2"]).toBe("dropped");
  });

  it("Rig: text and image ToolResultContent; audio and binary resources dropped", () => {
    const v = runModelView(mixed, "rig");
    expect((v.message.content as { type: string }[]).map((c) => c.type)).toEqual(["text", "image", "text"]);
    expect(how(v)).toMatchObject({ "/content/2": "dropped", "/content/4": "dropped" });
  });

  it("MCP: the CallToolResult as the client gets it, everything carried", () => {
    const v = runModelView(mixed, "mcp");
    expect(v.message).toEqual({ content: MIXED });
    expect(v.carried.every((c) => c.how === "carried")).toBe(true);
  });

  it("structured content: the text that serializes it is what OpenAI and Anthropic models read; Gemini's output is the object", () => {
    const value = { sum: 3 };
    const r = run({ status: "success", tool: "add", output: { content: [{ type: "text", text: JSON.stringify(value) }], structuredContent: value } });
    const chat = runModelView(r, "openai-chat");
    expect(chat.message.content).toBe('{"sum":3}');
    expect(chat.carried.find((c) => c.pointer === "/structuredContent")).toMatchObject({ how: "dropped" });
    const gemini = runModelView(r, "gemini");
    expect((gemini.message.functionResponse as { response: unknown }).response).toEqual({ output: value });
    expect(gemini.carried.find((c) => c.pointer === "/content/0")).toMatchObject({ how: "dropped" });
    // Without a text block, the JSON is sent as text.
    const bare = run({ status: "success", tool: "add", output: { content: [], structuredContent: value } });
    const a = runModelView(bare, "anthropic");
    expect(a.message.content).toEqual([{ type: "text", text: '{"sum":3}' }]);
    expect(a.carried.find((c) => c.pointer === "/structuredContent")).toMatchObject({ how: "changed" });
  });

  it("a failed run: the model is told the caller-safe message and kind, marked as an error; the operator-only detail is never in it", () => {
    const failed = run({ status: "error", tool: "fail", error: { kind: "not_found", message: "No such order." } });
    for (const target of TARGETS) {
      const v = runModelView(failed, target);
      expect(v.modelError).toEqual({ kind: "not_found", message: "No such order.", operatorDetail: "never sent to a model" });
      expect(JSON.stringify(v.message)).toContain("No such order.");
      expect(JSON.stringify(v.message)).toContain("not_found");
    }
    expect(runModelView(failed, "anthropic").message.is_error).toBe(true);
    expect(runModelView(failed, "mcp").message.isError).toBe(true);
    expect((runModelView(failed, "gemini").message.functionResponse as { response: Record<string, unknown> }).response).toEqual({
      error: expect.stringContaining("No such order."),
    });
  });
});

// Two MCP servers as the sources: "a" and "b".
const tool = (name: string, server: string, props: number): ToolSpec => ({
  name,
  description: `Tool ${name}`,
  source: { kind: "mcp", id: server, server },
  inputSchema: {
    type: "object",
    properties: Object.fromEntries(Array.from({ length: props }, (_, i) => [`field_${i}`, { type: "string", description: `Field ${i} of ${name}` }])),
  },
});

describe("the context budget", () => {
  const specs = Object.freeze([tool("small", "a", 1), tool("large", "b", 12), tool("medium", "a", 5)]);

  it("adds every definition's tokens, per source and per tool, heaviest first", () => {
    for (const target of TARGETS) {
      const b = registryBudget(specs, target);
      const built = buildDefinitions(specs, target);
      expect(b.tools).toBe(3);
      expect(b.tokens).toBe(built.reduce((n, d) => n + o200kCount(JSON.stringify(d.definition)), 0));
      expect(b.arrayTokens).toBe(o200kCount(JSON.stringify(built.map((d) => d.definition))));
      expect(b.byTool.map((t) => t.name)).toEqual(["large", "medium", "small"]);
      expect(b.bySource.map((s) => s.source).sort()).toEqual(["a", "b"]);
      expect(b.bySource[0]!.tokens).toBeGreaterThanOrEqual(b.bySource[1]!.tokens);
      expect(b.bySource.reduce((n, s) => n + s.tokens, 0)).toBe(b.tokens);
      expect(b.bySource.find((s) => s.source === "a")!.tools).toBe(2);
      expect(b.byTool.reduce((n, t) => n + t.share, 0)).toBeCloseTo(1, 10);
      expect(b.warnings).toEqual([]);
    }
  });

  it("warns when a set passes a provider's documented limit, and never cuts it", () => {
    const many = Array.from({ length: 130 }, (_, i) => tool(`t${i}`, "x", 1));
    const chat = registryBudget(many, "openai-chat");
    expect(chat.tools).toBe(130);
    expect(chat.byTool).toHaveLength(130);
    expect(chat.warnings.map((w) => [w.limit.kind, w.limit.count, w.over])).toEqual([
      ["max", 128, 2],
      ["advice", 20, 110],
    ]);
    expect(chat.warnings[0]!.limit.doc).toMatch(/^https:\/\/platform\.openai\.com\//);
    expect(registryBudget(many, "gemini").warnings.map((w) => w.limit.count)).toEqual([128]);
    expect(registryBudget(many, "anthropic").warnings[0]!.limit.kind).toBe("advice");
    expect(registryBudget(many, "mcp").warnings).toEqual([]);
    expect(TOOL_LIMITS.rig).toEqual([]);
  });

  it("an empty set costs nothing", () => {
    expect(budgetOf("openai-chat", [], new Map(), 0)).toMatchObject({ tools: 0, tokens: 0, byTool: [], bySource: [], warnings: [] });
  });
});
