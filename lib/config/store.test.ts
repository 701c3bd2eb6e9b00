// The config store on real files in a temp directory (no mocks): loading, live reload, errors
// located to line:column, atomic saves, version conflicts and missing files.
import { mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, unlinkSync, writeFileSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ConfigStore, emptyConfig, parseConfigText, versionOf, type ConfigState } from "./store";

const examplePath = path.resolve(__dirname, "../../config/studio.example.jsonc");
const exampleText = readFileSync(examplePath, "utf8");

const dirs: string[] = [];
const stores: ConfigStore[] = [];
afterEach(() => {
  for (const s of stores.splice(0)) s.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function tempDir(): string {
  const d = mkdtempSync(path.join(tmpdir(), "tool-studio-config-"));
  dirs.push(d);
  return d;
}

function storeAt(file: string | undefined, opts?: ConstructorParameters<typeof ConfigStore>[1]): ConfigStore {
  const s = new ConfigStore(file, opts);
  stores.push(s);
  return s;
}

/** A store on a fresh copy of the example. */
function exampleStore(): { store: ConfigStore; file: string; dir: string } {
  const dir = tempDir();
  const file = path.join(dir, "studio.jsonc");
  writeFileSync(file, exampleText);
  return { store: storeAt(file), file, dir };
}

/** Replaces the file the way editors do an atomic save: a temp file renamed over it. */
function replaceAtomically(file: string, text: string): void {
  const tmp = `${file}.editor-${Math.random().toString(36).slice(2)}`;
  writeFileSync(tmp, text);
  renameSync(tmp, file);
}

/** The 1-based line and column of the first occurrence of `needle` in `text`. */
function positionOf(text: string, needle: string): { line: number; column: number } {
  const offset = text.indexOf(needle);
  expect(offset, `"${needle}" in the text`).toBeGreaterThanOrEqual(0);
  const before = text.slice(0, offset).split("\n");
  return { line: before.length, column: before[before.length - 1].length + 1 };
}

/** Resolves with the first state a subscriber receives that satisfies `pred`. */
function nextState(
  store: ConfigStore,
  pred: (s: ConfigState) => boolean = () => true,
  timeoutMs = 1000,
): { promise: Promise<ConfigState>; unsubscribe: () => void } {
  let unsubscribe = () => {};
  const promise = new Promise<ConfigState>((resolve, reject) => {
    const timer = setTimeout(() => {
      unsubscribe();
      reject(new Error(`no matching config event within ${timeoutMs} ms`));
    }, timeoutMs);
    unsubscribe = store.subscribe((s) => {
      if (!pred(s)) return;
      clearTimeout(timer);
      unsubscribe();
      resolve(s);
    });
  });
  return { promise, unsubscribe: () => unsubscribe() };
}

const small = (agents: string[]) => JSON.stringify({ agents: agents.map((alias) => ({ alias })), defaultAgent: agents[0] }, null, 2);

describe("ConfigStore: loading", () => {
  it("creates the file from the example when asked to (the default path) and loads it", () => {
    const dir = tempDir();
    const file = path.join(dir, "config", "studio.jsonc");
    const store = storeAt(file, { createFromExample: true, examplePath });
    const s = store.current();
    expect(s.error).toBeNull();
    expect(s.version).toBe(versionOf(exampleText)); // the text's hash: the same on every instance
    expect(s.configVersion).toBe(s.version);
    expect(s.path).toBe(file);
    expect(readFileSync(file, "utf8")).toBe(exampleText);
    expect(store.raw()).toBe(exampleText);

    const c = s.config;
    expect(c.defaultAgent).toBe("ops");
    expect(c.agents.map((a) => a.alias)).toEqual(["ops", "research", "billing"]);
    expect(c.channels.find((ch) => ch.type === "matrix")?.enabled).toBe(false);
    expect(c.channels.find((ch) => ch.type === "slack")?.enabled).toBe(true); // default applied
    expect(c.groups.some((g) => g.name.length < 3)).toBe(true);
    expect(c.mcpServers.map((m) => [m.name, m.transport, m.enabled])).toEqual([
      ["everything", "stdio", false],
      ["example", "stdio", false],
      ["docs-search", "http", false],
    ]);
    expect(Object.keys(c.lists)).toEqual(["priorities", "regions"]);
    // Peers shared between channels, so pickers must de-duplicate.
    const peers = c.channels.flatMap((ch) => ch.peers);
    expect(new Set(peers).size).toBeLessThan(peers.length);
    // The shared config cannot be changed by accident.
    expect(Object.isFrozen(c.agents[0].channels)).toBe(true);
  });

  it("is cheap when nothing changed: same state object, same version", () => {
    const { store } = exampleStore();
    const a = store.current();
    expect(store.current()).toBe(a);
    expect(store.current().version).toBe(versionOf(exampleText));
  });

  it("reports a missing custom path as an error with the empty config, and picks the file up once it exists", () => {
    const dir = tempDir();
    const file = path.join(dir, "custom.jsonc");
    const store = storeAt(file, { createFromExample: false });
    const s = store.current();
    expect(s.error).toMatchObject({ kind: "not_found", line: 0, column: 0 });
    expect(s.error?.message).toContain("file not found");
    expect(s.config).toEqual(emptyConfig());
    expect(s.configVersion).toBeNull();
    expect(s.config.agents).toEqual([]);
    expect(store.raw()).toBe("");
    expect(() => readFileSync(file)).toThrow(); // not created when told not to

    writeFileSync(file, small(["ops"]));
    const t = store.current();
    expect(t.error).toBeNull();
    expect(t.version).toBe(versionOf(small(["ops"])));
    expect(t.version).not.toBe(s.version);
    expect(t.config.agents.map((a) => a.alias)).toEqual(["ops"]);
  });

  it("takes STUDIO_CONFIG as a custom path", () => {
    const dir = tempDir();
    const file = path.join(dir, "from-env.jsonc");
    const old = process.env.STUDIO_CONFIG;
    try {
      process.env.STUDIO_CONFIG = file;
      const store = storeAt(undefined, { examplePath });
      expect(store.path).toBe(file);
      // A configured path not made yet starts from the example, as the default path does, and says so.
      const info = vi.spyOn(console, "info").mockImplementation(() => {});
      try {
        const s = store.current();
        expect(s.error).toBeNull();
        expect(readFileSync(file, "utf8")).toBe(exampleText);
        expect(s.config.defaultAgent).toBe("ops");
        expect(info.mock.calls.map((c) => String(c[0]))).toContainEqual(
          expect.stringMatching(/config: created .*from-env\.jsonc from .*studio\.example\.jsonc/),
        );
      } finally {
        info.mockRestore();
      }
      delete process.env.STUDIO_CONFIG;
      // (current() is not called here: it would create config/studio.jsonc in the checkout)
      expect(new ConfigStore().path).toBe(path.resolve(process.cwd(), "config/studio.jsonc"));
    } finally {
      if (old === undefined) delete process.env.STUDIO_CONFIG;
      else process.env.STUDIO_CONFIG = old;
    }
  });

  it("starts from the empty config when the very first load is invalid", () => {
    const dir = tempDir();
    const file = path.join(dir, "studio.jsonc");
    const text = '{ "agents": [ { "alias": "ops", "colour": "red" } ] }';
    writeFileSync(file, text);
    const s = storeAt(file).current();
    expect(s.config).toEqual(emptyConfig());
    expect(s.error).toMatchObject({ kind: "schema", line: 1, column: 33 });
    expect(positionOf(text, '"colour"')).toEqual({ line: 1, column: 33 });
    expect(s.error?.issues).toEqual([{ path: "agents/0/colour", line: 1, column: 33, message: 'unknown key "colour"' }]);
  });

  it("accepts comments, trailing commas and a BOM", () => {
    const dir = tempDir();
    const file = path.join(dir, "studio.jsonc");
    writeFileSync(file, '\uFEFF// hi\n{\n  /* agents */ "agents": [{ "alias": "ops", },],\n}\n');
    const s = storeAt(file).current();
    expect(s.error).toBeNull();
    expect(s.config.agents[0].alias).toBe("ops");
  });
});

describe("ConfigStore: changes on disk", () => {
  it("current() sees an in-place edit and an atomic replace", () => {
    const { store, file } = exampleStore();
    expect(store.current().config.agents).toHaveLength(3);

    writeFileSync(file, small(["alpha", "beta"]));
    const a = store.current();
    expect(a.version).toBe(versionOf(small(["alpha", "beta"])));
    expect(a.config.agents.map((x) => x.alias)).toEqual(["alpha", "beta"]);

    replaceAtomically(file, small(["gamma"]));
    const b = store.current();
    expect(b.version).toBe(versionOf(small(["gamma"])));
    expect(b.config.defaultAgent).toBe("gamma");
    expect(store.raw()).toBe(small(["gamma"]));
  });

  it("does not count a rewrite with the same text as a change", () => {
    const { store, file } = exampleStore();
    const v = store.current().version;
    replaceAtomically(file, exampleText);
    expect(store.current().version).toBe(v);
  });

  it("notifies a subscriber of an atomic replace within a second", async () => {
    const { store, file } = exampleStore();
    store.current();
    const next = nextState(store, (s) => s.config.defaultAgent === "delta");
    replaceAtomically(file, small(["delta"]));
    const s = await next.promise;
    expect(s.version).toBe(versionOf(small(["delta"])));
    expect(s.error).toBeNull();
  });

  it("notifies a subscriber of an in-place write, and of an invalid edit (with the error)", async () => {
    const { store, file } = exampleStore();
    let next = nextState(store, (s) => s.config.defaultAgent === "echo");
    writeFileSync(file, small(["echo"]));
    expect((await next.promise).version).toBe(versionOf(small(["echo"])));

    next = nextState(store, (s) => s.error !== null);
    writeFileSync(file, '{ "agents": [ }');
    const bad = await next.promise;
    expect(bad.error?.kind).toBe("syntax");
    expect(bad.config.defaultAgent).toBe("echo");
  });

  it("falls back to polling when the directory cannot be watched (it does not exist yet)", async () => {
    const dir = path.join(tempDir(), "later");
    const file = path.join(dir, "studio.jsonc");
    const store = storeAt(file, { createFromExample: false });
    expect(store.current().error?.kind).toBe("not_found");
    const next = nextState(store, (s) => s.error === null, 2000);
    // Later than the check made right after subscribing, so only the poll can see it.
    setTimeout(() => {
      mkdirSync(dir);
      writeFileSync(file, small(["foxtrot"]));
    }, 300);
    expect((await next.promise).config.defaultAgent).toBe("foxtrot");
  });

  it("stops watching when the last subscriber leaves", async () => {
    const { store, file } = exampleStore();
    const seen: string[] = [];
    const off = store.subscribe((s) => seen.push(s.version));
    off();
    off(); // idempotent
    replaceAtomically(file, small(["golf"]));
    // Wait on a second store's event rather than a fixed sleep, then check the first stayed quiet.
    const other = storeAt(file);
    other.current();
    const next = nextState(other, (s) => s.config.defaultAgent === "hotel");
    replaceAtomically(file, small(["hotel"]));
    await next.promise;
    await new Promise((r) => setTimeout(r, 100)); // longer than the 50 ms debounce
    expect(seen).toEqual([]);
  });

  it("keeps the last good config on a syntax error and reports its line and column", () => {
    const { store, file } = exampleStore();
    store.current();
    const text = '{\n  // agents\n  "agents": [\n    { "alias": "ops" }\n    { "alias": "x" }\n  ]\n}\n';
    writeFileSync(file, text);
    const s = store.current();
    expect(s.version).toBe(versionOf(text)); // the broken text's version: the file changed
    expect(s.configVersion).toBe(versionOf(exampleText)); // the example's config is still in use
    expect(s.config.agents).toHaveLength(3); // the example's, still in use
    expect(s.error).toMatchObject({ kind: "syntax", file, line: 5, column: 5 });
    expect(s.error?.message).toBe(`${file}:5:5: syntax error: comma expected`);
    expect(s.error?.issues[0]).toEqual({ path: "", line: 5, column: 5, message: "syntax error: comma expected" });

    // Fixing it brings the new config in.
    writeFileSync(file, text.replace('"ops" }\n', '"ops" },\n'));
    const t = store.current();
    expect(t.error).toBeNull();
    expect(t.config.agents.map((a) => a.alias)).toEqual(["ops", "x"]);
  });

  it("keeps the last good config on a schema error and points at the offending node", () => {
    const { store, file } = exampleStore();
    store.current();
    const text = exampleText.replace('"channels": ["slack.ops", "telegram.oncall"', '"channels": ["slack.ops", "slack.opz"');
    expect(text).not.toBe(exampleText);
    writeFileSync(file, text);
    const s = store.current();
    expect(s.config.agents[0].channels).toContain("telegram.oncall"); // last good
    const at = positionOf(text, '"slack.opz"');
    expect(s.error).toMatchObject({ kind: "schema", line: at.line, column: at.column });
    expect(s.error?.issues).toHaveLength(1);
    expect(s.error?.issues[0]).toMatchObject({ path: "agents/0/channels/1", ...at });
    expect(s.error?.message).toMatch(
      new RegExp(
        `^${escape(file)}:${at.line}:${at.column}: agents\\[0\\]\\.channels\\[1\\]: unknown channel "slack\\.opz" \\(declared: slack\\.ops, slack\\.research, `,
      ),
    );
  });

  it("points a missing required key at its parent and an unknown key at the key", () => {
    const { store, file } = exampleStore();
    store.current();
    const text = exampleText
      .replace('"type": "discord",\n      "alias": "community",', '"type": "discord",')
      .replace('"name": "finance",', '"name": "finance", "size": 2,');
    writeFileSync(file, text);
    const issues = store.current().error?.issues ?? [];
    const missing = issues.find((i) => i.path === "channels/5/alias");
    const discordObject = text.lastIndexOf("{", text.indexOf('"type": "discord"'));
    expect(missing).toMatchObject({ message: 'missing required key "alias" (string)', ...offsetPosition(text, discordObject) });
    expect(issues.find((i) => i.path === "groups/2/size")).toMatchObject({ message: 'unknown key "size"', ...positionOf(text, '"size"') });
  });

  it("reports a deleted file but keeps the last good config", () => {
    const { store, file } = exampleStore();
    store.current();
    unlinkSync(file);
    const s = store.current();
    expect(s.error?.kind).toBe("not_found");
    expect(s.config.agents).toHaveLength(3);
  });
});

describe("ConfigStore: save", () => {
  it("refuses invalid text without touching the file", () => {
    const { store, file, dir } = exampleStore();
    const before = statSync(file);
    const v = store.current().version;
    const bad = '{\n  "defaultAgent": "nobody"\n}\n';
    const r = store.save(bad);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error).toMatchObject({ kind: "schema", line: 2, column: 19 });
    expect(r.error.issues[0].message).toMatch(/^unknown agent "nobody"/);
    expect(readFileSync(file, "utf8")).toBe(exampleText);
    expect(statSync(file).mtimeMs).toBe(before.mtimeMs);
    expect(store.current().version).toBe(v);
    expect(readdirSync(dir)).toEqual(["studio.jsonc"]);

    const syntax = store.save("{ nope }");
    expect(syntax.ok || syntax.error.kind).toBe("syntax");
    expect(readFileSync(file, "utf8")).toBe(exampleText);
  });

  it("writes valid text atomically (a new inode, no temp file left) and notifies", async () => {
    const { store, file, dir } = exampleStore();
    const before = statSync(file);
    const v = store.current().version;
    const next = nextState(store, (s) => s.version !== v);
    const text = "// saved\n" + small(["india", "juliett"]);
    const r = store.save(text, { expectedVersion: v });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.state.version).toBe(versionOf(text));
    expect(r.state.config.agents.map((a) => a.alias)).toEqual(["india", "juliett"]);
    expect(readFileSync(file, "utf8")).toBe(text);
    expect(statSync(file).ino).not.toBe(before.ino); // replaced by rename, never half-written
    expect(statSync(file).mode & 0o777).toBe(before.mode & 0o777);
    expect(readdirSync(dir)).toEqual(["studio.jsonc"]);
    expect(store.raw()).toBe(text);
    expect((await next.promise).version).toBe(versionOf(text));
    // The watcher sees our own rename too, but it is not a second change.
    expect(store.current().version).toBe(versionOf(text));
  });

  it("refuses to overwrite a file that changed since the version the editor loaded", () => {
    const { store, file } = exampleStore();
    const loaded = store.current().version;
    replaceAtomically(file, small(["kilo"])); // someone else
    const r = store.save(small(["lima"]), { expectedVersion: loaded });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.kind).toBe("conflict");
    expect(r.error.message).toMatch(/changed by someone else.*reload/);
    expect(readFileSync(file, "utf8")).toBe(small(["kilo"]));

    const again = store.save(small(["lima"]), { expectedVersion: store.current().version });
    expect(again.ok).toBe(true);
    expect(readFileSync(file, "utf8")).toBe(small(["lima"]));
  });

  it("creates a missing custom file on save", () => {
    const dir = tempDir();
    const file = path.join(dir, "sub", "new.jsonc");
    const store = storeAt(file, { createFromExample: false });
    expect(store.current().error?.kind).toBe("not_found");
    const r = store.save(small(["mike"]), { expectedVersion: store.current().version });
    expect(r.ok && r.state.error).toBeNull();
    expect(readFileSync(file, "utf8")).toBe(small(["mike"]));
  });
});

describe("parseConfigText", () => {
  it("reports an empty file", () => {
    const r = parseConfigText("  \n", "/x/studio.jsonc");
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.message).toBe("/x/studio.jsonc:2:1: the file is empty (expected a JSON object)");
  });

  it("summarises several problems in the message and lists them all", () => {
    const r = parseConfigText('{\n "agents": [{ "alias": 1 }],\n "groups": [{ "name": "" }]\n}', "/x/c.jsonc");
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.issues.map((i) => [i.path, i.line, i.column])).toEqual([
      ["agents/0/alias", 2, 24],
      ["groups/0/name", 3, 23],
    ]);
    expect(r.error.message).toMatch(/^\/x\/c\.jsonc:2:24: agents\[0\]\.alias: .* \(and 1 more problem\)$/);
  });
});

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

function offsetPosition(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset).split("\n");
  return { line: before.length, column: before[before.length - 1].length + 1 };
}
