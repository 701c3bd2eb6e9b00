// The studio as it boots in a route handler's process (getStudio), on a fresh PostgreSQL database
// and the example config, for tests that call the real route handlers; close() ends all of it.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Studio } from "@/lib/studio/studio";
import { createTestDatabase, type TestDatabase } from "./db";
import { setEnv } from "./env";
import { routeFetch } from "./route-fetch";

export type Handler<P> = (req: Request, ctx: { params: Promise<P> }) => Promise<Response>;

export interface InProcessStudio {
  studio: Studio;
  db: TestDatabase;
  /** Calls a route handler as the admin token's holder. */
  call<P>(handler: Handler<P>, url: string, params: P, init?: { method?: string; body?: object }): Promise<Response>;
  /** fetch by path to the real route handlers (routeFetch), as the admin token's holder: for components under test. */
  fetch: typeof fetch;
  /** The same as the holder of `bearer` (a person's API token): what that person may do, no more. */
  fetchAs(bearer: string): typeof fetch;
  close(): Promise<void>;
}

export async function bootStudio(name: string, env: Record<string, string> = {}): Promise<InProcessStudio> {
  const db = await createTestDatabase();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `${name}-`));
  fs.copyFileSync("config/studio.example.jsonc", path.join(dir, "studio.jsonc"));
  const adminToken = `${name}-test-admin-token`;
  const restoreEnv = setEnv({ DATABASE_URL: db.url, STUDIO_CONFIG: path.join(dir, "studio.jsonc"), STUDIO_ADMIN_TOKEN: adminToken, ...env });
  const studio = await (await import("@/lib/studio/studio")).getStudio();
  return {
    studio,
    db,
    fetch: routeFetch({ headers: { authorization: `Bearer ${adminToken}` } }),
    fetchAs: (bearer) => routeFetch({ headers: { authorization: `Bearer ${bearer}` } }),
    call: (handler, url, params, init = {}) =>
      handler(
        new Request(`http://127.0.0.1${url}`, {
          method: init.method ?? "GET",
          headers: { host: "127.0.0.1:3000", authorization: `Bearer ${adminToken}`, ...(init.body ? { "content-type": "application/json" } : {}) },
          body: init.body ? JSON.stringify(init.body) : undefined,
        }),
        { params: Promise.resolve(params) },
      ),
    async close() {
      await studio.queue.stop(5000);
      await studio.mcp.close();
      await studio.notifier?.close();
      await (await import("@/lib/db/client")).closeDb();
      restoreEnv();
      await db.drop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
