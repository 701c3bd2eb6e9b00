// A fresh, uniquely named PostgreSQL database per test file: tests never share or depend on
// data from earlier runs. Base URL: TEST_DATABASE_URL (an admin connection), else local trust auth.
import { randomBytes } from "node:crypto";
import pg from "pg";
import { createPrisma } from "@/lib/db/client";
import type { PrismaClient } from "@/lib/db/generated/client";
import type { MigrateOptions } from "@/lib/db/migrate";
import type { Sql } from "@/lib/db/sql";

export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";

export interface TestDatabase {
  url: string;
  name: string;
  prisma: PrismaClient;
  /** Plain SQL on the same pool (lib/db/sql.ts), as the studio's run store and audit log use it. */
  sql: Sql;
  drop(): Promise<void>;
}

async function admin<T>(fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

export async function createTestDatabase(opts: { migrate?: boolean; migrationsDir?: MigrateOptions["migrationsDir"] } = {}): Promise<TestDatabase> {
  const name = `tool_studio_test_${process.pid}_${randomBytes(4).toString("hex")}`;
  await admin((c) => c.query(`CREATE DATABASE "${name}"`));
  const u = new URL(TEST_DATABASE_URL);
  u.pathname = `/${name}`;
  const url = u.toString();

  const db = await createPrisma({ databaseUrl: url });
  const drop = async () => {
    await db.close();
    // FORCE terminates any connection still open (e.g. a leaked client) so the drop cannot hang.
    await admin((c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
  };
  try {
    if (opts.migrate !== false) await db.migrate({ migrationsDir: opts.migrationsDir });
  } catch (e) {
    await drop();
    throw e;
  }
  return { url, name, prisma: db.prisma, sql: db.sql, drop };
}
