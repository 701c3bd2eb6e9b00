// The runtime config file (JSONC) as a live value: re-read when it changes on disk, validated with
// RuntimeConfigSchema, errors located to file:line:column, the last good config kept on a bad edit,
// and saved atomically. Everything here is synchronous so a request can call current() cheaply.
// Server code: a client component that imports this (directly or not) fails the build.
import { processSlot } from "../process/slots";
import "server-only";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { findNodeAtLocation, parseTree, printParseErrorCode, type Node as JsonNode, type ParseError } from "jsonc-parser";
import type { core } from "zod";
import { sha256Hex } from "../tools/hash";
import { RuntimeConfigSchema, type RuntimeConfig } from "./schema";

/** One problem in the file, located to a 1-based line and column (UTF-16 code units, as editors count). */
export interface ConfigIssue {
  /** Slash-separated path into the config, e.g. `agents/0/channels/1`; "" for the root or a syntax error. */
  path: string;
  line: number;
  column: number;
  message: string;
}

export type ConfigErrorKind = "syntax" | "schema" | "not_found" | "io" | "conflict";

export interface ConfigError {
  kind: ConfigErrorKind;
  /** The file as shown to people: relative to the working directory when inside it. */
  file: string;
  /** Position of the first issue; 0 when the error has no position (missing file, conflict). */
  line: number;
  column: number;
  /** `file:line:column: path: message` for the first issue (and how many more there are). */
  message: string;
  issues: ConfigIssue[];
}

export interface ConfigState {
  /** The config in use: the last good one read from the file, else the empty default. Frozen. */
  config: RuntimeConfig;
  /**
   * sha256 hex of the file's text (of a marker when it is missing or unreadable): changes whenever
   * the text does, and is the same for the same text on every instance (the revision hash).
   */
  version: string;
  /** When the file's current text was read (ISO 8601). */
  loadedAt: string;
  /** Why the file's current text is not in use, or null when it is. */
  error: ConfigError | null;
  /** The version `config` was read from; null while it is the empty default (no good file yet). */
  configVersion: string | null;
  /** Absolute path of the file. */
  path: string;
}

export type SaveResult = { ok: true; state: ConfigState } | { ok: false; error: ConfigError };

export type ConfigListener = (state: ConfigState) => void;

export interface ConfigStoreOptions {
  /**
   * Copy `examplePath` to the file when it does not exist on first access (logged), whatever the
   * path: a STUDIO_CONFIG naming a file not made yet starts from the example too, as the default
   * path does. Default true; false makes a missing file an error (not_found) until it appears.
   */
  createFromExample?: boolean;
  /** Defaults to `<cwd>/config/studio.example.jsonc`. */
  examplePath?: string;
  /** Debounce of change events, in ms (default 50). */
  debounceMs?: number;
}

/** The config with every list empty: used when there has never been a good file. */
export function emptyConfig(): RuntimeConfig {
  return deepFreeze(RuntimeConfigSchema.parse({}));
}

export function defaultConfigPath(): string {
  return path.resolve(/*turbopackIgnore: true*/ process.cwd(), "config/studio.jsonc");
}

export function defaultExamplePath(): string {
  return path.resolve(/*turbopackIgnore: true*/ process.cwd(), "config/studio.example.jsonc");
}

/** How a file is named in messages: relative to the working directory when it is inside it. */
export function displayPath(file: string): string {
  const rel = path.relative(/*turbopackIgnore: true*/ process.cwd(), file);
  return rel && !rel.startsWith("..") && !path.isAbsolute(rel) ? rel : file;
}

export type ParseResult = { ok: true; config: RuntimeConfig } | { ok: false; error: ConfigError };

/** Parses and validates config text (JSONC: comments and trailing commas allowed). Pure. */
export function parseConfigText(text: string, file: string): ParseResult {
  const shown = displayPath(file);
  const lines = lineIndex(text);
  const errors: ParseError[] = [];
  const root = parseTree(text, errors, { allowTrailingComma: true, disallowComments: false, allowEmptyContent: false });
  if (errors.length || !root) {
    const issues = (errors.length ? errors : [{ error: 4, offset: 0, length: 0 } as ParseError]).slice(0, 20).map((e) => ({
      path: "",
      ...lines.position(e.offset),
      message: text.trim() === "" ? "the file is empty (expected a JSON object)" : `syntax error: ${describeParseError(e)}`,
    }));
    return { ok: false, error: makeError("syntax", shown, issues, errors.length) };
  }
  const r = RuntimeConfigSchema.safeParse(nodeValue(root));
  if (r.success) return { ok: true, config: deepFreeze(r.data) };
  const issues = dedupe(r.error.issues.flatMap((i) => locateIssue(i, root, lines)));
  return { ok: false, error: makeError("schema", shown, issues, issues.length) };
}

/**
 * The runtime config file as a live value. `current()` stats the file and re-reads it only when
 * its inode, size or mtime changed; a bad edit keeps the last good config and reports where.
 */
export class ConfigStore {
  readonly path: string;
  private readonly createFromExample: boolean;
  private readonly examplePath: string;
  private readonly debounceMs: number;

  private signature: string | null = null;
  private text = "";
  /** The text, or why there is none: what decides whether the file really changed. */
  private textKey = "";
  private state: ConfigState;
  private everRead = false;

  private readonly listeners = new Set<ConfigListener>();
  private watcher: fs.FSWatcher | null = null;
  private pollingFile = false;
  private debounce: ReturnType<typeof setTimeout> | null = null;

  constructor(filePath?: string, opts: ConfigStoreOptions = {}) {
    const custom = filePath ?? process.env.STUDIO_CONFIG;
    this.path = custom ? path.resolve(/*turbopackIgnore: true*/ process.cwd(), custom) : defaultConfigPath();
    this.createFromExample = opts.createFromExample ?? true;
    this.examplePath = opts.examplePath ?? defaultExamplePath();
    this.debounceMs = opts.debounceMs ?? 50;
    this.state = Object.freeze({
      config: emptyConfig(),
      version: versionOf(""),
      loadedAt: new Date().toISOString(),
      error: null,
      configVersion: null,
      path: this.path,
    });
  }

  /** The config in use; re-reads the file first if it changed on disk. */
  current(): ConfigState {
    if (!this.everRead && this.createFromExample) this.copyExampleIfMissing();
    let sig: string;
    try {
      const st = fs.statSync(this.path, { throwIfNoEntry: false });
      sig = st ? signatureOf(st) : "missing";
    } catch (err) {
      sig = `error:${(err as NodeJS.ErrnoException).code ?? "unknown"}`;
    }
    if (sig !== this.signature) this.reload(sig);
    return this.state;
  }

  /** The file's text as of current() ("" when it is missing). */
  raw(): string {
    this.current();
    return this.text;
  }

  /**
   * Validates `text` and, when it is a good config, writes it atomically (temp file in the same
   * directory, fsync, rename). Invalid text is refused without touching the file. With
   * `expectedVersion`, refuses when the file changed since that version.
   */
  save(text: string, opts: { expectedVersion?: string } = {}): SaveResult {
    const before = this.current();
    const shown = displayPath(this.path);
    if (opts.expectedVersion !== undefined && opts.expectedVersion !== before.version) {
      return { ok: false, error: conflictError(shown, opts.expectedVersion, before.version) };
    }
    const parsed = parseConfigText(text, this.path);
    if (!parsed.ok) return parsed;
    try {
      writeAtomic(this.path, text);
    } catch (err) {
      const message = `${shown}: could not write the file: ${(err as Error).message}`;
      return { ok: false, error: { kind: "io", file: shown, line: 0, column: 0, message, issues: [] } };
    }
    this.reload();
    return { ok: true, state: this.state };
  }

  /**
   * Calls `listener` with the new state whenever the file's text changes (however the change is
   * noticed: the watcher, a current() call or save()). Watches only while someone listens.
   */
  subscribe(listener: ConfigListener): () => void {
    // A baseline first (not reported to the new listener), so the next change is reported as one.
    this.current();
    this.listeners.add(listener);
    if (this.listeners.size === 1) {
      this.startWatching();
      // A change between the baseline and the watcher taking effect would go unseen: look once more.
      this.schedule();
    }
    let active = true;
    return () => {
      if (!active) return;
      active = false;
      this.listeners.delete(listener);
      if (this.listeners.size === 0) this.stopWatching();
    };
  }

  /** Stops watching and drops every listener (tests, shutdown). */
  close(): void {
    this.listeners.clear();
    this.stopWatching();
  }

  // ---- internals ----

  /** Reads the file; `statSignature` is what current() saw (kept when the file cannot be opened). */
  private reload(statSignature?: string): void {
    let text: string;
    let sig: string;
    let readError: ConfigError | null = null;
    const shown = displayPath(this.path);
    try {
      // fstat on the open descriptor: the signature belongs to exactly the text we read.
      const fd = fs.openSync(this.path, "r");
      try {
        sig = signatureOf(fs.fstatSync(fd));
        text = fs.readFileSync(fd, "utf8");
      } finally {
        fs.closeSync(fd);
      }
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1); // a BOM is not part of the JSON
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      text = "";
      if (code === "ENOENT") {
        sig = "missing";
        readError = { kind: "not_found", file: shown, line: 0, column: 0, message: `${shown}: file not found`, issues: [] };
      } else {
        sig = statSignature ?? `error:${code ?? "unknown"}`;
        readError = { kind: "io", file: shown, line: 0, column: 0, message: `${shown}: could not read the file: ${(err as Error).message}`, issues: [] };
      }
    }
    const key = readError ? `\u0000${readError.kind}` : text;
    const unchanged = this.everRead && key === this.textKey;
    this.everRead = true;
    this.signature = sig;
    if (unchanged) return; // touched, or rewritten with the same text: nothing to tell anyone
    this.text = text;
    this.textKey = key;

    const version = versionOf(key);
    let { config, configVersion } = this.state;
    let error = readError;
    if (!readError) {
      const parsed = parseConfigText(text, this.path);
      if (parsed.ok) {
        config = parsed.config;
        configVersion = version;
      } else error = parsed.error;
    }
    this.state = Object.freeze({ config, version, loadedAt: new Date().toISOString(), error, configVersion, path: this.path });
    if (error && error.kind !== "not_found") {
      console.warn(`[tool-studio] config: ${error.message}; ${configVersion === null ? "using an empty config" : "keeping the last good config"}`);
    }
    this.emit();
  }

  private emit(): void {
    const state = this.state;
    for (const l of [...this.listeners]) {
      try {
        l(state);
      } catch (err) {
        console.error("[tool-studio] config listener failed", err);
      }
    }
  }

  private copyExampleIfMissing(): void {
    if (fs.existsSync(this.path) || !fs.existsSync(this.examplePath)) return;
    try {
      fs.mkdirSync(path.dirname(this.path), { recursive: true });
      fs.copyFileSync(this.examplePath, this.path, fs.constants.COPYFILE_EXCL);
      console.info(`[tool-studio] config: created ${displayPath(this.path)} from ${displayPath(this.examplePath)}`);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST")
        console.warn(`[tool-studio] config: could not create ${this.path} from the example: ${(err as Error).message}`);
    }
  }

  private schedule = (): void => {
    if (this.debounce) clearTimeout(this.debounce);
    this.debounce = setTimeout(() => {
      this.debounce = null;
      if (this.listeners.size) this.current(); // emits when the text changed
    }, this.debounceMs);
  };

  private startWatching(): void {
    const dir = path.dirname(this.path);
    const base = path.basename(this.path);
    try {
      // The directory, not the file: an atomic save replaces the file by rename, which a watch on
      // the old inode would never see.
      const w = fs.watch(dir, { persistent: false }, (_event, name) => {
        if (!name || name.toString() === base) this.schedule();
      });
      w.on("error", () => {
        // e.g. the directory was removed: fall back to polling
        w.close();
        if (this.watcher === w) this.watcher = null;
        if (this.listeners.size) this.startPolling();
      });
      this.watcher = w;
    } catch {
      this.startPolling();
    }
  }

  private startPolling(): void {
    if (this.pollingFile) return;
    this.pollingFile = true;
    fs.watchFile(this.path, { interval: 250, persistent: false }, this.schedule);
  }

  private stopWatching(): void {
    this.watcher?.close();
    this.watcher = null;
    if (this.pollingFile) {
      fs.unwatchFile(this.path, this.schedule);
      this.pollingFile = false;
    }
    if (this.debounce) clearTimeout(this.debounce);
    this.debounce = null;
  }
}

// One per process (lib/process/slots.ts): Next dev hot reloads reuse one store (and one watcher).
const configSlot = processSlot<ConfigStore>("config");

/** The process-wide config store (path from STUDIO_CONFIG, else `<cwd>/config/studio.jsonc`). */
export function getConfigStore(): ConfigStore {
  return configSlot.use(() => new ConfigStore());
}

// ---- helpers ----

/** The version of a text: its sha256 (hex). Unambiguous across instances, unlike a counter. */
export function versionOf(text: string): string {
  return sha256Hex(text);
}

/** A version as people read it: its first 12 hex digits. */
export function shortVersion(v: string): string {
  return v.slice(0, 12);
}

/** Refused: the config changed since the version the editor loaded. */
export function conflictError(file: string, expected: string, now: string): ConfigError {
  const message = `${file} was changed by someone else since you loaded it (you edited version ${shortVersion(expected)}, the config is now version ${shortVersion(now)}); reload it and apply your edits again.`;
  return { kind: "conflict", file, line: 0, column: 0, message, issues: [] };
}

function signatureOf(st: fs.Stats): string {
  return `${st.ino}:${st.size}:${st.mtimeMs}`;
}

function writeAtomic(file: string, text: string): void {
  let target = file;
  try {
    target = fs.realpathSync(file); // keep a symlinked config a symlink: replace what it points to
  } catch {
    // not there yet (or a dangling link): write the path as given
  }
  const dir = path.dirname(target);
  fs.mkdirSync(dir, { recursive: true });
  let mode = 0o644;
  try {
    mode = fs.statSync(target).mode & 0o777;
  } catch {
    // a new file: the default mode
  }
  const tmp = path.join(dir, `.${path.basename(target)}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`);
  try {
    const fd = fs.openSync(tmp, "wx", mode);
    try {
      fs.writeFileSync(fd, text, "utf8");
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(tmp, target);
  } catch (err) {
    try {
      fs.unlinkSync(tmp);
    } catch {
      // the temporary file may not exist; the write's own error is the one to report
    }
    throw err;
  }
  try {
    // Make the rename itself durable; not every platform can fsync a directory.
    const dfd = fs.openSync(dir, "r");
    try {
      fs.fsyncSync(dfd);
    } finally {
      fs.closeSync(dfd);
    }
  } catch {
    // best effort: the file itself is already fsynced and renamed
  }
}

function deepFreeze<T>(v: T): T {
  if (v && typeof v === "object" && !Object.isFrozen(v)) {
    Object.freeze(v);
    for (const x of Object.values(v)) deepFreeze(x);
  }
  return v;
}

function lineIndex(text: string) {
  const starts = [0];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10) starts.push(i + 1);
    else if (c === 13) {
      if (text.charCodeAt(i + 1) === 10) i++;
      starts.push(i + 1);
    }
  }
  return {
    /** 1-based line and column of an offset. */
    position(offset: number): { line: number; column: number } {
      let lo = 0;
      let hi = starts.length - 1;
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        if (starts[mid] <= offset) lo = mid;
        else hi = mid - 1;
      }
      return { line: lo + 1, column: offset - starts[lo] + 1 };
    },
  };
}

function describeParseError(e: ParseError): string {
  const name = printParseErrorCode(e.error);
  // "CloseBraceExpected" -> "close brace expected"
  return name.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase();
}

/** A node's value (jsonc-parser's getNodeValue, but the last duplicate key wins like JSON.parse). */
function nodeValue(node: JsonNode): unknown {
  switch (node.type) {
    case "object": {
      const o: Record<string, unknown> = {};
      for (const p of node.children ?? []) {
        const [k, v] = p.children ?? [];
        if (k && v) o[k.value as string] = nodeValue(v);
      }
      return o;
    }
    case "array":
      return (node.children ?? []).map(nodeValue);
    default:
      return node.value;
  }
}

function locateIssue(issue: core.$ZodIssue, root: JsonNode, lines: ReturnType<typeof lineIndex>): ConfigIssue[] {
  const segs = issue.path.map((s) => (typeof s === "number" ? s : String(s)));
  if (issue.code === "unrecognized_keys" && issue.keys.length) {
    // One issue per unknown key, pointing at the key itself.
    return issue.keys.map((k) => {
      const node = findNodeAtLocation(root, [...segs, k]);
      const at = node?.parent?.type === "property" ? node.parent : (node ?? nearest(root, segs));
      return { path: [...segs, k].join("/"), ...lines.position(at.offset), message: `unknown key "${k}"` };
    });
  }
  const node = findNodeAtLocation(root, segs);
  let message = issue.message;
  let at: JsonNode;
  if (node) {
    // A bad record key points at the key, not its value.
    at = issue.code === "invalid_key" && node.parent?.type === "property" ? node.parent : node;
    if (issue.code === "invalid_key") message = `invalid name "${segs[segs.length - 1]}": ${issue.message}`;
  } else {
    // Missing (e.g. a required key): point at the nearest enclosing node that exists.
    at = nearest(root, segs);
    const last = segs[segs.length - 1];
    if (issue.code === "invalid_type" && typeof last === "string") message = `missing required key "${last}"${issue.expected ? ` (${issue.expected})` : ""}`;
  }
  return [{ path: segs.join("/"), ...lines.position(at.offset), message }];
}

function nearest(root: JsonNode, segs: (string | number)[]): JsonNode {
  for (let n = segs.length - 1; n >= 0; n--) {
    const node = findNodeAtLocation(root, segs.slice(0, n));
    if (node) return node;
  }
  return root;
}

function dedupe(issues: ConfigIssue[]): ConfigIssue[] {
  const seen = new Set<string>();
  return issues.filter((i) => {
    const k = `${i.path}\u0000${i.message}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

/** `agents/0/channels/1` -> `agents[0].channels[1]` (for messages). */
export function dottedPath(p: string): string {
  if (!p) return "(root)";
  return p
    .split("/")
    .map((s, i) => (/^\d+$/.test(s) ? `[${s}]` : i === 0 ? s : `.${s}`))
    .join("");
}

function makeError(kind: "syntax" | "schema", file: string, issues: ConfigIssue[], total: number): ConfigError {
  const first = issues[0];
  const where = `${file}:${first.line}:${first.column}`;
  const head = kind === "syntax" ? `${where}: ${first.message}` : `${where}: ${dottedPath(first.path)}: ${first.message}`;
  const more = total - 1;
  const message = more > 0 ? `${head} (and ${more} more ${more === 1 ? "problem" : "problems"})` : head;
  return { kind, file, line: first.line, column: first.column, message, issues };
}
