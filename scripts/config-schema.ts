// Writes public/schemas/runtime-config.schema.json from the zod schema in lib/config/schema.ts,
// for editors (the Settings page's Monaco, VS Code via the config's "$schema").
//   npx tsx scripts/config-schema.ts           write it (npm run config:schema)
//   npx tsx scripts/config-schema.ts --check   exit 1 when the committed file is out of date
import { readFileSync, writeFileSync, mkdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { z } from "zod";
import { RuntimeConfigSchema } from "../lib/config/schema";

export const CONFIG_SCHEMA_FILE = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "public", "schemas", "runtime-config.schema.json");

/** The JSON Schema text, exactly as it is committed. `io: "input"`: defaulted keys are optional. */
export function renderConfigSchema(): string {
  const { $schema, ...rest } = z.toJSONSchema(RuntimeConfigSchema, { target: "draft-2020-12", io: "input" });
  return JSON.stringify({ $schema, title: "Tool Studio runtime config", ...rest }, null, 2) + "\n";
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const text = renderConfigSchema();
  const rel = path.relative(process.cwd(), CONFIG_SCHEMA_FILE);
  if (process.argv.includes("--check")) {
    let current = "";
    try {
      current = readFileSync(CONFIG_SCHEMA_FILE, "utf8");
    } catch {
      // no file yet: it is out of date, said below
    }
    if (current !== text) {
      console.error(`${rel} is out of date: run npm run config:schema`);
      process.exit(1);
    }
    console.log(`${rel} is up to date.`);
  } else {
    mkdirSync(path.dirname(CONFIG_SCHEMA_FILE), { recursive: true });
    writeFileSync(CONFIG_SCHEMA_FILE, text);
    console.log(`wrote ${rel}`);
  }
}
