import { readFileSync } from "node:fs";
import path from "node:path";
import Ajv2020 from "ajv/dist/2020";
import addFormats from "ajv-formats";
import { parse, type ParseError } from "jsonc-parser";
import { describe, expect, it } from "vitest";
import { CONFIG_SCHEMA_FILE, renderConfigSchema } from "@/scripts/config-schema";
import { RuntimeConfigSchema } from "./schema";

const root = path.resolve(__dirname, "../..");
const examplePath = path.join(root, "config/studio.example.jsonc");

function example(): unknown {
  const errors: ParseError[] = [];
  const value = parse(readFileSync(examplePath, "utf8"), errors, { allowTrailingComma: true });
  expect(errors).toEqual([]);
  return value;
}

describe("public/schemas/runtime-config.schema.json", () => {
  it("is what `npm run config:schema` generates from lib/config/schema.ts", () => {
    expect(CONFIG_SCHEMA_FILE).toBe(path.join(root, "public/schemas/runtime-config.schema.json"));
    const committed = readFileSync(CONFIG_SCHEMA_FILE, "utf8");
    // If this fails: run `npm run config:schema` and commit the file.
    expect(committed).toBe(renderConfigSchema());
  });

  it("accepts the example config (Ajv 2020, strict) and rejects a broken one", () => {
    const ajv = new Ajv2020({ strict: true, allErrors: true });
    addFormats(ajv);
    const validate = ajv.compile(JSON.parse(readFileSync(CONFIG_SCHEMA_FILE, "utf8")));
    const config = example();
    expect(validate(config), JSON.stringify(validate.errors)).toBe(true);

    const broken = structuredClone(config) as { channels: Record<string, unknown>[] };
    broken.channels[0].colour = "red";
    broken.channels[1].type = "Not A Type";
    expect(validate(broken)).toBe(false);
    expect(validate.errors?.map((e) => e.instancePath).sort()).toEqual(["/channels/0", "/channels/1/type"]);
  });

  it("the example also passes the zod schema, cross references included", () => {
    const r = RuntimeConfigSchema.safeParse(example());
    expect(r.success, JSON.stringify(r.error?.issues)).toBe(true);
  });

  it("MCP server roots: file:// URIs with optional names, the same in zod and in the JSON Schema", () => {
    const ajv = new Ajv2020({ strict: true, allErrors: true });
    addFormats(ajv);
    const validate = ajv.compile(JSON.parse(readFileSync(CONFIG_SCHEMA_FILE, "utf8")));
    const withRoots = (roots: unknown) => ({ mcpServers: [{ name: "fs", transport: "stdio", command: "node", roots }] });
    const good = withRoots([{ uri: "file:///home/ana/project", name: "Project" }, { uri: "file:///tmp" }]);
    expect(validate(good), JSON.stringify(validate.errors)).toBe(true);
    expect(RuntimeConfigSchema.safeParse(good).success).toBe(true);
    for (const bad of [[{ uri: "https://example.com" }], [{ uri: "file:///x", colour: "red" }], [{ name: "no uri" }]]) {
      expect(validate(withRoots(bad)), JSON.stringify(bad)).toBe(false);
      const r = RuntimeConfigSchema.safeParse(withRoots(bad));
      expect(r.success).toBe(false);
    }
    const r = RuntimeConfigSchema.safeParse(withRoots([{ uri: "https://example.com" }]));
    expect(r.error?.issues[0]).toMatchObject({ path: ["mcpServers", 0, "roots", 0, "uri"], message: "must be a file:// URI" });
  });
});
