// lib/model-view on the tools of real MCP servers (issue 31, "done when"): server-everything,
// -filesystem and -memory, started from node_modules over stdio as the studio connects to them.
// Every tool gets a definition for every target; OpenAI strict definitions obey the documented
// strict rules (the checker of tests/helpers/model-view.ts) or say why they cannot be strict;
// token counts equal o200k_base on the serialized definition.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { getEncoding } from "js-tiktoken";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { McpConnection, type McpServerConfig } from "@/lib/mcp/connection";
import { buildDefinitions, TARGETS, type BuiltDefinition } from "@/lib/model-view";
import { GEMINI_KEYWORDS } from "@/lib/model-view/gemini";
import { NAME_RULES } from "@/lib/model-view/names";
import type { ToolSpec } from "@/lib/tools/spec";
import { eventually, packageBinPath } from "./helpers/mcp";
import { checkOpenAiStrict, schemaKeys } from "./helpers/model-view";

const o200k = getEncoding("o200k_base");
let dir: string;
const conns: McpConnection[] = [];
let specs: ToolSpec[] = [];

const stdio = (name: string, args: string[], env: Record<string, string> = {}): McpServerConfig => ({
  name,
  transport: "stdio",
  command: process.execPath,
  args,
  env,
  enabled: true,
});

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "model-view-mcp-"));
  const configs = [
    stdio("everything", [packageBinPath("@modelcontextprotocol/server-everything"), "stdio"]),
    stdio("filesystem", [packageBinPath("@modelcontextprotocol/server-filesystem"), dir]),
    stdio("memory", [packageBinPath("@modelcontextprotocol/server-memory")], { MEMORY_FILE_PATH: path.join(dir, "memory.jsonl") }),
  ];
  for (const config of configs) {
    const conn = new McpConnection(config, { backoff: { initialMs: 200, maxMs: 2_000 } });
    conns.push(conn);
    await conn.connect();
    await eventually(() => conn.tools().length > 0);
  }
  // server-everything registers a few tools after initialization.
  await eventually(() => conns[0]!.tools().length >= 17);
  specs = conns.flatMap((c) => c.tools().map((t) => t.spec));
}, 60_000);

afterAll(async () => {
  for (const c of conns) await c.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

const nameOf = (d: BuiltDefinition): string => (d.for === "openai-chat" ? (d.definition.function as { name: string }).name : (d.definition.name as string));
describe("the tools of server-everything, -filesystem and -memory", () => {
  it("are listed by all three servers", () => {
    for (const server of ["everything", "filesystem", "memory"])
      expect(specs.filter((s) => s.source.id === `mcp:${server}` || s.name.startsWith(`${server}__`)).length, server).toBeGreaterThan(0);
    expect(specs.some((s) => s.name === "filesystem__read_text_file" || s.name === "filesystem__read_file")).toBe(true);
    expect(specs.some((s) => s.name === "memory__create_entities")).toBe(true);
  });

  for (const target of TARGETS) {
    it(`each has a ${target} definition, with a name the provider takes and counted tokens`, () => {
      for (const strict of [false, true]) {
        const built = buildDefinitions(specs, target, { strict });
        expect(built).toHaveLength(specs.length);
        const names = new Set<string>();
        for (const d of built) {
          const rule = NAME_RULES[target];
          if (rule) expect(nameOf(d)).toMatch(rule.pattern);
          names.add(nameOf(d));
          expect(d.tokens.count).toBe(o200k.encode(JSON.stringify(d.definition), [], []).length);
          if (target === "openai-chat" || target === "openai-responses") {
            if (strict && d.strict)
              expect(
                checkOpenAiStrict(
                  nameOf(d),
                  (target === "openai-chat" ? (d.definition.function as { parameters: object }).parameters : d.definition.parameters) as Record<
                    string,
                    unknown
                  >,
                ),
                d.name,
              ).toEqual([]);
            if (strict && !d.strict) expect(d.strictReason, d.name).toBeTruthy();
          }
          if (target === "gemini" && d.definition.parameters)
            for (const k of schemaKeys(d.definition.parameters)) expect(GEMINI_KEYWORDS.has(k), `${d.name}: ${k}`).toBe(true);
        }
        expect(names.size).toBe(specs.length);
      }
    });
  }

  it("all of them can be OpenAI-strict (their schemas are plain typed objects)", () => {
    const built = buildDefinitions(specs, "openai-responses", { strict: true });
    expect(built.filter((d) => !d.strict).map((d) => [d.name, d.strictReason])).toEqual([]);
  });
});
