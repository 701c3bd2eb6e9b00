/**
 * The inferred shape as something to use elsewhere: JSON Schema, TypeScript types
 * (json-schema-to-typescript) or a zod schema (json-schema-to-zod), as file text.
 *
 * Generated objects are closed in TypeScript (no index signature unless the schema has
 * `additionalProperties`, as a map does), so the types list what was observed; the JSON Schema and
 * the zod schema stay open (zod's `z.object` drops unknown keys rather than rejecting them).
 */
import { compile } from "json-schema-to-typescript";
import { jsonSchemaToZod } from "json-schema-to-zod";
import type { JsonSchema } from "../tools/spec";

export const EXPORT_FORMATS = ["json", "typescript", "zod"] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export interface ExportedShape {
  fileName: string;
  contentType: string;
  text: string;
}

/** `describe_tool` + "output" -> `DescribeToolOutput`. */
export function typeName(tool: string, part: string): string {
  const words = `${tool} ${part}`.split(/[^A-Za-z0-9]+/).filter(Boolean);
  const name = words.map((w) => w[0].toUpperCase() + w.slice(1)).join("");
  return /^[0-9]/.test(name) ? `T${name}` : name || "Shape";
}

const camel = (s: string) => s[0].toLowerCase() + s.slice(1);

/** The file for one format; `schema` is an inferred schema (lib/inference/schema.ts). */
export async function exportShape(schema: JsonSchema, tool: string, part: string, format: ExportFormat): Promise<ExportedShape> {
  const name = typeName(tool, part);
  const base = tool.replace(/[^A-Za-z0-9._-]+/g, "_") + "." + part;
  const banner = `Inferred from the captured runs of the tool "${tool}" (${part}) by Tool Studio.`;
  if (format === "json") {
    return { fileName: `${base}.schema.json`, contentType: "application/schema+json", text: JSON.stringify({ title: name, ...schema }, null, 2) + "\n" };
  }
  // the generators want a plain object; $schema is metadata they do not need
  const { $schema: _dialect, ...plain } = schema;
  if (format === "typescript") {
    const text = await compile(structuredClone(plain), name, {
      bannerComment: `/* ${banner} */`,
      additionalProperties: false,
      format: false,
      strictIndexSignatures: true,
      declareExternallyReferenced: true,
    });
    return { fileName: `${base}.d.ts`, contentType: "text/plain; charset=utf-8", text };
  }
  const zod = jsonSchemaToZod(structuredClone(plain), { name: camel(name), module: "esm", type: name });
  return { fileName: `${base}.zod.ts`, contentType: "text/plain; charset=utf-8", text: `// ${banner}\n${zod}\n` };
}
