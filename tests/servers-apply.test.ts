import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AuditLog } from "@/lib/audit";
import { ConfigRevisions } from "@/lib/config/revisions";
import { ConfigStore } from "@/lib/config/store";
import { ConfigSync } from "@/lib/config/sync";
import { addServerToConfigText, removeServerFromConfigText, setServerEnabledInConfigText } from "@/lib/servers/config-edit";
import { applyServerEdit, saveConfig, serverNameParam, ServerEditError } from "@/lib/servers/apply";
import { McpServer, MCP_SERVER_LIMITS } from "@/lib/config/schema";
import { readJson } from "@/lib/http/http";
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
  fs.writeFileSync(path.join(dir, "studio.jsonc"), '{\n  // servers below\n  "mcpServers": []\n}\n');
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
    const state = await applyServerEdit({ config, audit, mcp }, (t) => addServerToConfigText(t, entry), who, {
      action: "server.add",
      target: "demo",
      detail: { transport: "stdio" },
    });
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
    await expect(
      applyServerEdit({ config, audit, mcp }, (t) => addServerToConfigText(t, dup), who, { action: "server.add", target: "demo" }),
    ).rejects.toMatchObject({ name: "ServerEditError", status: 409, kind: "conflict" });
    const missing = applyServerEdit({ config, audit, mcp }, (t) => removeServerFromConfigText(t, "ghost"), who, { action: "server.remove", target: "ghost" });
    await expect(missing).rejects.toBeInstanceOf(ServerEditError);
    await expect(missing).rejects.toMatchObject({ status: 404, kind: "not_found" });
    expect(fs.readFileSync(store.path, "utf8")).toBe(before);
  });

  it("disables and removes; a config that does not validate is refused as invalid_config", async () => {
    await applyServerEdit({ config, audit, mcp }, (t) => setServerEnabledInConfigText(t, "demo", true), who, { action: "server.enable", target: "demo" });
    expect(store.current().config.mcpServers[0]?.enabled).toBe(true);
    await expect(
      applyServerEdit({ config, audit, mcp }, () => '{"mcpServers": [{"name": "bad name!", "transport": "stdio", "command": "x"}]}', who, {
        action: "server.add",
        target: "x",
      }),
    ).rejects.toMatchObject({ status: 400, kind: "invalid_config" });
    await applyServerEdit({ config, audit, mcp }, (t) => removeServerFromConfigText(t, "demo"), who, { action: "server.remove", target: "demo" });
    expect(store.current().config.mcpServers).toEqual([]);
  });
});

// Issue 37, item 6: a 900,000-character server name was written into the config and started,
// with no "server.add" entry (the audit refused it: 500), and later requests for it failed.
describe("server entries are bounded before anything is written", () => {
  const auditCount = async () => db.prisma.auditEntry.count();
  const revisionCount = async () => db.prisma.configRevision.count();
  const post = (body: unknown) => new Request("http://studio.test/api/servers", { method: "POST", body: JSON.stringify(body) });

  it("POST /api/servers's body: an over-long name or field is a 400 naming the field and the limit", async () => {
    const huge = "a".repeat(900_000);
    const refused = async (body: unknown) => {
      const err = (await readJson(post(body), McpServer).catch((e: unknown) => e)) as { status: number; details: { path: string; message: string }[] };
      expect(err.status).toBe(400);
      return err.details;
    };
    expect(await refused({ name: huge, transport: "stdio", command: "node" })).toEqual([
      { path: "/name", message: `must be at most ${MCP_SERVER_LIMITS.name} characters` },
    ]);
    expect(await refused({ name: "s", transport: "stdio", command: huge })).toEqual([
      { path: "/command", message: `must be at most ${MCP_SERVER_LIMITS.command} characters` },
    ]);
    expect(await refused({ name: "s", transport: "stdio", command: "node", args: Array(300).fill("x") })).toEqual([
      { path: "/args", message: `must have at most ${MCP_SERVER_LIMITS.args} items` },
    ]);
    expect(await refused({ name: "s", transport: "stdio", command: "node", env: { TOKEN: huge } })).toEqual([
      { path: "/env/TOKEN", message: `must be at most ${MCP_SERVER_LIMITS.envValue} characters` },
    ]);
    const manyEnv = Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`V${i}`, "1"]));
    expect(await refused({ name: "s", transport: "stdio", command: "node", env: manyEnv })).toEqual([
      { path: "/env", message: `must have at most ${MCP_SERVER_LIMITS.env} entries` },
    ]);
    expect(await refused({ name: "s", transport: "http", url: `http://x/${huge}` })).toEqual([
      { path: "/url", message: `must be at most ${MCP_SERVER_LIMITS.url} characters` },
    ]);
    expect(await refused({ name: "s", transport: "http", url: "http://x/", headers: { "Bad Name": "v" } })).toEqual([
      { path: "/headers/Bad Name", message: "name must be an HTTP token (letters, digits and !#$%&'*+.^_`|~-)" },
    ]);
    expect(await refused({ name: "s", transport: "http", url: "http://x/", headers: { X: "a\r\nInjected: 1" } })).toEqual([
      { path: "/headers/X", message: "must not contain CR, LF or NUL" },
    ]);
    expect(await refused({ name: "s", transport: "stdio", command: "node", env: { [huge]: "v" } })).toEqual([
      { path: `/env/${huge}`, message: `name must be at most ${MCP_SERVER_LIMITS.envName} characters` },
    ]);
    // The longest name allowed passes.
    expect((await readJson(post({ name: "n".repeat(MCP_SERVER_LIMITS.name), transport: "stdio", command: "node" }), McpServer)).name).toHaveLength(
      MCP_SERVER_LIMITS.name,
    );
  });

  it("server URLs are http(s) only: javascript: and file: are refused, in the body and in the config", async () => {
    for (const url of ["javascript:alert(1)", "file:///etc/passwd", "ftp://example.com/mcp", "data:text/plain,x"]) {
      const r = McpServer.safeParse({ name: "s", transport: "http", url });
      expect(r.success, url).toBe(false);
      expect(r.error?.issues.map((i) => [i.path.join("/"), i.message])).toEqual([["url", "must be an http:// or https:// URL"]]);
    }
    expect(McpServer.safeParse({ name: "s", transport: "http", url: "https://mcp.example.com/mcp" }).success).toBe(true);
    const before = { file: fs.readFileSync(store.path, "utf8"), audit: await auditCount(), revisions: await revisionCount(), synced: synced.length };
    const text = JSON.stringify({ mcpServers: [{ name: "js", transport: "http", url: "javascript:alert(1)" }] });
    await expect(applyServerEdit({ config, audit, mcp }, () => text, who, { action: "server.add", target: "js" })).rejects.toMatchObject({
      status: 400,
      kind: "invalid_config",
      message: expect.stringContaining("must be an http:// or https:// URL"),
    });
    expect({ file: fs.readFileSync(store.path, "utf8"), audit: await auditCount(), revisions: await revisionCount(), synced: synced.length }).toEqual(before);
  });

  it("a config edited to hold an over-long name is refused with the limit, and nothing reaches the database or MCP", async () => {
    const before = { file: fs.readFileSync(store.path, "utf8"), audit: await auditCount(), revisions: await revisionCount(), synced: synced.length };
    const name = "a".repeat(900_000);
    const entry = { name, transport: "stdio" as const, command: "node", args: [], env: {}, enabled: true };
    const edit = applyServerEdit({ config, audit, mcp }, (t) => addServerToConfigText(t, entry), who, { action: "server.add", target: name });
    await expect(edit).rejects.toMatchObject({
      status: 400,
      kind: "invalid_config",
      message: expect.stringContaining(`must be at most ${MCP_SERVER_LIMITS.name} characters`),
    });
    expect({ file: fs.readFileSync(store.path, "utf8"), audit: await auditCount(), revisions: await revisionCount(), synced: synced.length }).toEqual(before);
    // A name from a path (PATCH, DELETE /api/servers/{name}) is checked the same way, before the config is read.
    expect(() => serverNameParam(name)).toThrow(
      expect.objectContaining({ status: 400, details: [{ path: "/name", message: `must be at most ${MCP_SERVER_LIMITS.name} characters` }] }),
    );
    expect(() => serverNameParam("two words")).toThrow(
      expect.objectContaining({ status: 400, details: [{ path: "/name", message: "must be letters, digits, _ or -" }] }),
    );
    expect(serverNameParam("demo-2")).toBe("demo-2");
  });

  it("a hand-edited file holding such a name is reported with the limit and never becomes a revision", async () => {
    const good = fs.readFileSync(store.path, "utf8");
    const before = { audit: await auditCount(), revisions: await revisionCount(), synced: synced.length };
    const edited = new Promise<string>((resolve) => {
      const stop = store.subscribe((st) => {
        if (!st.error) return;
        stop();
        resolve(st.error.message + " " + JSON.stringify(st.error.issues ?? []));
      });
    });
    fs.writeFileSync(store.path, JSON.stringify({ mcpServers: [{ name: "h".repeat(900_000), transport: "stdio", command: "node" }] }));
    expect(await edited).toContain(`must be at most ${MCP_SERVER_LIMITS.name} characters`);
    await config.idle();
    expect(store.current().config.mcpServers.some((s) => s.name.length > MCP_SERVER_LIMITS.name)).toBe(false);
    expect({ audit: await auditCount(), revisions: await revisionCount(), synced: synced.length }).toEqual(before);
    // Put back: the fixed file is imported as the next revision.
    const fixed = new Promise<void>((resolve) => {
      const stop = store.subscribe((st) => {
        if (st.error) return;
        stop();
        resolve();
      });
    });
    fs.writeFileSync(store.path, good);
    await fixed;
    await config.idle();
  });

  it("all or nothing: when the server's audit entry cannot be written, neither is the config nor its process started", async () => {
    const before = { file: fs.readFileSync(store.path, "utf8"), audit: await auditCount(), revisions: await revisionCount(), synced: synced.length };
    const entry = { name: "fine", transport: "stdio" as const, command: "node", args: [], env: {}, enabled: true };
    // An entry the audit log refuses (its target is over the audit's limit) stands for any failure of that write.
    const edit = applyServerEdit({ config, audit, mcp }, (t) => addServerToConfigText(t, entry), who, { action: "server.add", target: "t".repeat(501) });
    await expect(edit).rejects.toMatchObject({ name: "AuditInputError" });
    expect({ file: fs.readFileSync(store.path, "utf8"), audit: await auditCount(), revisions: await revisionCount(), synced: synced.length }).toEqual(before);
    expect(store.current().config.mcpServers.map((s) => s.name)).not.toContain("fine");
    // And when it can, the revision, its config.change and the server.add entry commit together.
    await applyServerEdit({ config, audit, mcp }, (t) => addServerToConfigText(t, { ...entry, enabled: false }), who, { action: "server.add", target: "fine" });
    const { entries } = await audit.list({ limit: 2 });
    expect(entries.map((e) => e.action)).toEqual(["server.add", "config.change"]);
    expect(await revisionCount()).toBe(before.revisions + 1);
    await applyServerEdit({ config, audit, mcp }, (t) => removeServerFromConfigText(t, "fine"), who, { action: "server.remove", target: "fine" });
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
