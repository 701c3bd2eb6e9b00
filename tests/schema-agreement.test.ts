// schema.prisma and prisma/migrations must describe the same database: if this fails, run
// `npx tsx scripts/migration-diff.ts --write <name>` to add the missing migration.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { diffMigrationsToSchema, MIGRATION_LOCK_TOML } from "@/lib/db/schema-diff";

describe("schema agreement", () => {
  it("the migrations produce exactly schema.prisma", async () => {
    const diff = await diffMigrationsToSchema();
    expect(diff.empty, `missing migration:\n${diff.sql}`).toBe(true);
  }, 120_000); // the engine replays every migration into shadow PGlite databases, pg_trgm included

  it("the check is not vacuous: an empty migrations folder differs", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "tool-studio-diff-"));
    try {
      await writeFile(path.join(dir, "migration_lock.toml"), MIGRATION_LOCK_TOML);
      const diff = await diffMigrationsToSchema({ migrationsDir: dir });
      expect(diff.empty).toBe(false);
      expect(diff.sql).toContain('CREATE TABLE "runs"');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
