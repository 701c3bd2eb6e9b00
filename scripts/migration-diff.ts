// Prints the SQL that brings prisma/migrations up to prisma/schema.prisma, computed offline.
//   npx tsx scripts/migration-diff.ts               print the diff (exit 2 when non-empty)
//   npx tsx scripts/migration-diff.ts --write name  write prisma/migrations/<UTC timestamp>_<name>/
import { existsSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { defaultMigrationsDir } from "../lib/db/migrate";
import { diffMigrationsToSchema, MIGRATION_LOCK_TOML } from "../lib/db/schema-diff";

const args = process.argv.slice(2);
const writeAt = args.indexOf("--write");
const name = writeAt >= 0 ? args[writeAt + 1] : undefined;
if (writeAt >= 0 && !name) {
  console.error("usage: migration-diff.ts [--write <name>]");
  process.exit(1);
}

const migrationsDir = defaultMigrationsDir();
const diff = await diffMigrationsToSchema({ migrationsDir });
if (diff.empty) {
  console.log("-- schema.prisma and prisma/migrations agree: nothing to write.");
  process.exit(0);
}
if (!name) {
  process.stdout.write(diff.sql);
  process.exit(2);
}

// Prisma's folder naming: UTC yyyymmddHHMMSS_<snake_case name>.
const stamp = new Date().toISOString().replace(/[-:T]/g, "").slice(0, 14);
const slug = name
  .toLowerCase()
  .replace(/[^a-z0-9]+/g, "_")
  .replace(/^_+|_+$/g, "");
const dir = path.join(migrationsDir, `${stamp}_${slug}`);
await mkdir(dir, { recursive: true });
await writeFile(path.join(dir, "migration.sql"), diff.sql);
const lock = path.join(migrationsDir, "migration_lock.toml");
if (!existsSync(lock)) await writeFile(lock, MIGRATION_LOCK_TOML);
console.log(`wrote ${path.relative(process.cwd(), path.join(dir, "migration.sql"))}`);
