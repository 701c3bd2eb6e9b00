import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AuditLog } from "@/lib/audit";
import { ConfigRevisions } from "@/lib/config/revisions";
import { ConfigStore } from "@/lib/config/store";
import { ConfigSync } from "@/lib/config/sync";
import { addServerToConfigText, removeServerFromConfigText, setServerEnabledInConfigText } from "@/lib/servers/config-edit";
import { applyServerEdit, saveConfig, ServerEditError } from "@/lib/servers/apply";
import { createTestDatabase, type TestDatabase } from "./helpers/db";

// The one save-audit-sync path for config edits, on a real config file and PostgreSQL.

let db: TestDatabase;
let audit: AuditLog;
let dir: string;
let store: ConfigStore;
let config: ConfigSync;
const synced: (readonly unknown[])[] = [];
const mcp = {
  sync: async (servers: readonly unknown[]) => {
    synced.push(servers);
  },
};
const who = { actor: "ana@example.com", userId: "u-ana", from: "local" };

beforeAll(async () => {
  db = await createTestDatabase();
  audit = new AuditLog(db.prisma);
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "servers-apply-"));
  fs.writeFileSync(path.join(dir, "studio.jsonc"), "{\n  // servers below\n  \"mcpServers\": []\n}\n");
  store = new ConfigStore(path.join(dir, "studio.jsonc"), { createFromExample: false, debounceMs: 10 });
  config = new ConfigSync({ store, revisions: new ConfigRevisions(db.prisma, audit, false), fileAuthor: () => "local:test" });
  await config.start();
});
afterAll(async () => {
  config?.stop();
  store?.close();
  await db?.drop();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("applyServerEdit", () => {
  it("adds a server: the file keeps its comments, the save and the server entry are audited, MCP syncs", async () => {
    const entry = { name: "demo", transport: "stdio" as const, command: "node", args: [], env: {}, enabled: false };
    const state = await applyServerEdit({ config, audit, mcp }, (t) => addServerToConfigText(t, entry), who, { action: "server.add", target: "demo", detail: { transport: "stdio" } });
    expect(state.config.mcpServers.map((s) => s.name)).toEqual(["demo"]);
    expect(fs.readFileSync(store.path, "utf8")).toContain("// servers below");
    expect(synced.at(-1)).toHaveLength(1);
    const { entries } = await audit.list({ limit: 5 });
    expect(entries.map((e) => [e.action, e.actor])).toEqual([
      ["server.add", "ana@example.com"],
      ["config.change", "ana@example.com"],
      ["config.change", "local:test"], // the file, imported as the first revision at start
    ]);
    expect(entries[0]!.detail).toEqual({ transport: "stdio", userId: "u-ana" });
  });

  it("refuses a duplicate (409 conflict) and an unknown server (404), writing nothing", async () => {
    const before = fs.readFileSync(store.path, "utf8");
    const dup = { name: "demo", transport: "stdio" as const, command: "node", args: [], env: {}, enabled: false };
    await expect(applyServerEdit({ config, audit, mcp }, (t) => addServerToConfigText(t, dup), who, { action: "server.add", target: "demo" })).rejects.toMatchObject({ name: "ServerEditError", status: 409, kind: "conflict" });
    const missing = applyServerEdit({ config, audit, mcp }, (t) => removeServerFromConfigText(t, "ghost"), who, { action: "server.remove", target: "ghost" });
    await expect(missing).rejects.toBeInstanceOf(ServerEditError);
    await expect(missing).rejects.toMatchObject({ status: 404, kind: "not_found" });
    expect(fs.readFileSync(store.path, "utf8")).toBe(before);
  });

  it("disables and removes; a config that does not validate is refused as invalid_config", async () => {
    await applyServerEdit({ config, audit, mcp }, (t) => setServerEnabledInConfigText(t, "demo", true), who, { action: "server.enable", target: "demo" });
    expect(store.current().config.mcpServers[0]?.enabled).toBe(true);
    await expect(applyServerEdit({ config, audit, mcp }, () => '{"mcpServers": [{"name": "bad name!", "transport": "stdio", "command": "x"}]}', who, { action: "server.add", target: "x" })).rejects.toMatchObject({ status: 400, kind: "invalid_config" });
    await applyServerEdit({ config, audit, mcp }, (t) => removeServerFromConfigText(t, "demo"), who, { action: "server.remove", target: "demo" });
    expect(store.current().config.mcpServers).toEqual([]);
  });
});

describe("saveConfig", () => {
  it("refuses a stale expectedVersion and audits only what was saved", async () => {
    const v = store.current().version;
    const ok = await saveConfig({ config }, '{ "mcpServers": [] }\n', { actor: "bo@example.com", from: null, expectedVersion: v });
    expect(ok.ok).toBe(true);
    const stale = await saveConfig({ config }, "{}\n", { actor: "bo@example.com", from: null, expectedVersion: v });
    expect(stale).toMatchObject({ ok: false, error: { kind: "conflict" } });
    const { entries } = await audit.list({ action: "config.change", actor: "bo@example.com" });
    expect(entries).toHaveLength(1);
  });
});
