import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AuditLog, runAudit, type AuditEntry } from "@/lib/audit";
import { ConfigRevisions } from "@/lib/config/revisions";
import { ConfigStore } from "@/lib/config/store";
import { ConfigSync } from "@/lib/config/sync";
import { executeTool } from "@/lib/execution/execute";
import { requestOrigin } from "@/lib/http/http";
import { Registry } from "@/lib/registry/registry";
import { RunStore } from "@/lib/runs/store";
import { defineTool } from "@/lib/tools/define";
import { ToolError } from "@/lib/tools/errors";
import { structured } from "@/lib/tools/output";
import { sha256Hex } from "@/lib/tools/hash";
import { createTestDatabase, type TestDatabase } from "./helpers/db";

// What gets audited, wired as lib/studio/studio.ts wires it: every run, and every config change
// (through the API, or on disk outside the studio) exactly once.

const echo = defineTool({
  name: "echo",
  description: "echo",
  inputSchema: { type: "object", properties: { msg: { type: "string" } }, required: ["msg"], additionalProperties: false } as const,
  run: async ({ msg }) => structured({ msg }),
});
const denied = defineTool({
  name: "denied",
  description: "always refuses",
  inputSchema: { type: "object" } as const,
  run: async () => {
    throw new ToolError("permission_denied", "no");
  },
});

let db: TestDatabase;
let audit: AuditLog;
beforeAll(async () => {
  db = await createTestDatabase();
  audit = new AuditLog(db.prisma);
});
afterAll(async () => {
  await db?.drop();
});

async function waitFor<T>(fn: () => Promise<T | undefined>, what: string, ms = 10_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe("runs", () => {
  it("every captured run gets a 'run' entry: success, tool error and rejected arguments", async () => {
    const registry = new Registry();
    registry.addSource({ id: "builtin", list: () => [echo, denied] });
    const deps = { registry, runs: new RunStore(db.prisma, { audit: runAudit(audit) }) };
    const ok = await executeTool(deps, { tool: "echo", arguments: { msg: "hi" }, origin: "api", actor: "local:ann" });
    const bad = await executeTool(deps, { tool: "echo", arguments: { nope: 1 }, origin: "ui", actor: "local:ann" });
    const err = await executeTool(deps, { tool: "denied", arguments: {}, origin: "mcp", actor: "mcp:client" });

    const { entries } = await audit.list({ action: "run" });
    expect(entries.map((e) => [e.actor, e.target, e.detail])).toEqual([
      ["mcp:client", "denied", { runId: err.id, status: "error", origin: "mcp", errorKind: "permission_denied" }],
      ["local:ann", "echo", { runId: bad.id, status: "rejected", origin: "ui", errorKind: "invalid_args" }],
      ["local:ann", "echo", { runId: ok.id, status: "success", origin: "api", errorKind: null }],
    ]);
    expect((await audit.verify()).ok).toBe(true);
  });
});

describe("config changes", () => {
  let dir: string;
  let file: string;
  let store: ConfigStore;
  const configEntries = async (): Promise<AuditEntry[]> => (await audit.list({ action: "config.change", limit: 200 })).entries.reverse();

  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "audit-config-"));
    file = path.join(dir, "studio.jsonc");
    fs.writeFileSync(file, "{}\n");
    store = new ConfigStore(file, { createFromExample: false, debounceMs: 10 });
  });
  afterAll(() => {
    store?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("records the file at the first start once, then disk edits and API saves (once, with the caller), not bad edits", async () => {
    const fileAuthor = () => "local:ann";
    const sync = new ConfigSync({ store, revisions: new ConfigRevisions(db.prisma, audit, false), fileAuthor });
    await sync.start();
    let entries = await configEntries();
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      actor: "local:ann",
      target: file,
      from: null,
      detail: { source: "disk", revision: 1, sha256: sha256Hex("{}\n"), error: null },
    });

    // a second start with the same file records nothing new
    const again = new ConfigSync({
      store: new ConfigStore(file, { createFromExample: false }),
      revisions: new ConfigRevisions(db.prisma, audit, false),
      fileAuthor,
    });
    await again.start();
    again.stop();
    expect(await configEntries()).toHaveLength(1);

    // an edit on disk, outside the studio
    const edited = '{ // edited by hand\n  "agents": []\n}\n';
    fs.writeFileSync(file, edited);
    const disk = await waitFor(async () => (await configEntries())[1], "the disk edit");
    expect(disk.detail).toEqual({ source: "disk", revision: 2, version: sha256Hex(edited), sha256: sha256Hex(edited), error: null });

    // a save through the API: recorded with where it came from, and not again by the watcher
    const saved = '{ "agents": [] }\n';
    const req = new Request("http://127.0.0.1/api/config", { method: "PUT", headers: { "x-forwarded-for": "10.1.2.3, 127.0.0.1", "user-agent": "curl/8.5" } });
    const r = await sync.save(saved, { author: "local:ann", from: requestOrigin(req), expectedVersion: sha256Hex(edited) });
    expect(r.ok).toBe(true);
    await new Promise((res) => setTimeout(res, 300)); // let the directory watcher see the rename
    await sync.idle();
    entries = await configEntries();
    expect(entries).toHaveLength(3);
    expect(entries[2]).toMatchObject({
      from: "forwarded 10.1.2.3, 127.0.0.1; ua curl/8.5",
      detail: { source: "api", revision: 3, sha256: sha256Hex(saved), error: null },
    });

    // a broken edit on disk is reported by the store but is not a revision (nothing to audit)
    fs.writeFileSync(file, "{ oops");
    await waitFor(async () => (store.current().error?.kind === "syntax" ? true : undefined), "the broken edit");
    await new Promise((res) => setTimeout(res, 100));
    await sync.idle();
    expect(await configEntries()).toHaveLength(3);
    expect(store.current().config.agents).toEqual([]); // the last good config stays in use

    sync.stop();
    expect((await audit.verify()).ok).toBe(true);
  });
});
