// Secrets in the runtime config: the values of `mcpServers[].env` and `mcpServers[].headers`, and
// `auth.oidc.clientSecret`. They never leave the server: the API and the pages get a copy (or the
// JSONC text) where each is replaced by SECRET_PLACEHOLDER, and text coming back from the editor
// gets the real values put back (restoreSecrets) before it is saved. A value may also reference an
// environment variable, `${env:NAME}`: such a reference is not a secret (it is shown as written)
// and is resolved only where the value is used (resolveEnvRefs).
import { escapeSegment } from "../json-pointer/pointer";
import { StudioError } from "../errors/errors";
import { applyEdits, createScanner, parseTree, type Edit, type Node as JsonNode, type ParseError } from "jsonc-parser";
import type { McpServer, RuntimeConfig } from "./schema";
import type { z } from "zod";

/** What a secret value is replaced with in everything that leaves the server. */
export const SECRET_PLACEHOLDER = "••••••(set)";

type Env = Record<string, string | undefined>;

const NAME = "[A-Za-z_][A-Za-z0-9_]*";
const REF_AT = new RegExp(`\\$\\{env:(${NAME})\\}`, "y");
const ONLY_REFS = new RegExp(`^(?:\\$\\{env:${NAME}\\})+$`);
const REF_START = "${env:";

/** A `${env:NAME}` reference that cannot be resolved (unset variable, or a malformed reference). */
export class EnvRefError extends StudioError {
  static override readonly tag: string = "EnvRefError";
  constructor(
    message: string,
    /** The variable, when the reference names one. */
    readonly variable: string | undefined,
    /** Where the value was used (e.g. `/mcpServers/github/env/GITHUB_TOKEN`), when known. */
    readonly where: string | undefined,
  ) {
    super("invalid_config", message);
  }
}

/** True for a value made only of `${env:NAME}` references (nothing else): not a secret, shown as written. */
export function isEnvReference(value: string): boolean {
  return ONLY_REFS.test(value);
}

/**
 * Replaces every `${env:NAME}` in `value` with the variable's value (the whole value, e.g.
 * `${env:TOKEN}`, or a part of it, e.g. `Bearer ${env:TOKEN}`). A variable that is not set (or is
 * empty) and a malformed reference (`${env:` not followed by `NAME}`) throw an EnvRefError naming
 * the variable and `where` (e.g. `/mcpServers/github/env/GITHUB_TOKEN`). Resolved values are not
 * scanned again.
 */
export function resolveEnvRefs(value: string, env: Env = process.env, where?: string): string {
  if (!value.includes(REF_START)) return value;
  const at = where ? ` in ${where}` : "";
  let out = "";
  let i = 0;
  for (;;) {
    const start = value.indexOf(REF_START, i);
    if (start < 0) break;
    out += value.slice(i, start);
    REF_AT.lastIndex = start;
    const m = REF_AT.exec(value);
    if (!m) {
      // The value itself is not quoted: around a broken reference there may be a secret.
      throw new EnvRefError(
        `Malformed environment variable reference${at}: write \${env:NAME}, NAME being letters, digits and _ (not starting with a digit).`,
        undefined,
        where,
      );
    }
    const name = m[1];
    const v = env[name];
    if (v === undefined || v === "") {
      throw new EnvRefError(
        `Environment variable ${name} is ${v === undefined ? "not set" : "set but empty"} (referenced as \${env:${name}}${at}); set it in the studio's environment.`,
        name,
        where,
      );
    }
    out += v;
    i = start + m[0].length;
  }
  return out + value.slice(i);
}

/** The values of the variables `value` references (`${env:NAME}`), as resolveEnvRefs puts them in; unset ones left out. */
export function referencedValues(value: string, env: Env = process.env): string[] {
  if (!value.includes(REF_START)) return [];
  const out: string[] = [];
  for (const m of value.matchAll(new RegExp(REF_AT.source, "g"))) {
    const v = env[m[1]!];
    if (v) out.push(v);
  }
  return out;
}

/** resolveEnvRefs on every value of a record (`env`, `headers`); `where` is the record's JSON path. */
export function resolveEnvRecord(record: Readonly<Record<string, string>>, where: string, env: Env = process.env): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(record)) out[k] = resolveEnvRefs(v, env, `${where}/${escapeSegment(k)}`);
  return out;
}

// ------------------------------------------------------------ parsed config

/** The value shown for a secret: env references and "" as they are, anything else the placeholder. */
function redactValue<T>(value: T): T | string {
  if (value === null || value === undefined) return value;
  if (typeof value === "string" && (value === "" || isEnvReference(value))) return value;
  return SECRET_PLACEHOLDER;
}

function redactRecord(record: unknown): unknown {
  if (!record || typeof record !== "object" || Array.isArray(record)) return redactValue(record);
  return Object.fromEntries(Object.entries(record).map(([k, v]) => [k, redactValue(v)]));
}

type McpServerEntry = z.output<typeof McpServer>;

/**
 * An `mcpServers` entry for display: a copy whose `env` / `headers` values are SECRET_PLACEHOLDER
 * (env references and empty values kept as written). Keys stay, so a list can show which are set.
 */
export function redactMcpServer<T extends McpServerEntry | z.input<typeof McpServer>>(server: T): T {
  const copy = { ...server } as Record<string, unknown>;
  if ("env" in copy && copy.env !== undefined) copy.env = redactRecord(copy.env);
  if ("headers" in copy && copy.headers !== undefined) copy.headers = redactRecord(copy.headers);
  return copy as T;
}

/** How a secret value is shown in a list: "set", or "unset" when it is empty or names a variable that is not set. */
export function secretState(value: string, env: Env = process.env): "set" | "unset" {
  if (value === "") return "unset";
  try {
    return resolveEnvRefs(value, env) === "" ? "unset" : "set";
  } catch {
    return "unset";
  }
}

/**
 * A deep copy of a parsed config with every secret value (mcpServers[].env.*, mcpServers[].headers.*,
 * auth.oidc.clientSecret) replaced by SECRET_PLACEHOLDER, except values that are only env
 * references (`${env:NAME}`) or empty.
 */
export function redactConfig<T extends RuntimeConfig>(config: T): T {
  const copy = structuredClone(config) as T & { auth?: { oidc?: { clientSecret?: unknown } } };
  if (Array.isArray(copy.mcpServers)) copy.mcpServers = copy.mcpServers.map((s) => redactMcpServer(s));
  const oidc = copy.auth?.oidc;
  if (oidc && typeof oidc === "object" && "clientSecret" in oidc) oidc.clientSecret = redactValue(oidc.clientSecret);
  return copy;
}

// ------------------------------------------------------------ JSONC text

// The same options as the config store, so "has syntax errors" means the same thing here.
const PARSE_OPTIONS = { allowTrailingComma: true, disallowComments: false, allowEmptyContent: false };

const pointer = (segs: string[]) => `/${segs.map(escapeSegment).join("/")}`;

/** Whether a value at this path is a secret (a whole non-object `env` / `headers` counts too). */
function isSecretPath(segs: string[], node: JsonNode): boolean {
  if (segs[0] === "mcpServers" && (segs[2] === "env" || segs[2] === "headers")) {
    return segs.length === 4 || (segs.length === 3 && node.type !== "object");
  }
  return segs.length === 3 && segs[0] === "auth" && segs[1] === "oidc" && segs[2] === "clientSecret";
}

/**
 * Every value node of the tree with its path. Entries of `mcpServers` are named by their `name`
 * (so a path survives reordering: `/mcpServers/github/env/GITHUB_TOKEN`), other array items by index.
 */
function walk(node: JsonNode, segs: string[], visit: (segs: string[], node: JsonNode) => void): void {
  visit(segs, node);
  if (node.type === "object") {
    for (const prop of node.children ?? []) {
      const [key, value] = prop.children ?? [];
      if (key && value) walk(value, [...segs, String(key.value)], visit);
    }
  } else if (node.type === "array") {
    (node.children ?? []).forEach((item, i) => {
      walk(item, [...segs, segs.length === 1 && segs[0] === "mcpServers" ? (serverName(item) ?? String(i)) : String(i)], visit);
    });
  }
}

function serverName(item: JsonNode): string | undefined {
  if (item.type !== "object") return undefined;
  let name: string | undefined;
  for (const prop of item.children ?? []) {
    const [key, value] = prop.children ?? [];
    if (key?.value === "name" && value?.type === "string") name = value.value as string; // the last one wins, as in JSON.parse
  }
  return name;
}

function parse(text: string): { root: JsonNode | undefined; broken: boolean } {
  const errors: ParseError[] = [];
  const root = parseTree(text, errors, PARSE_OPTIONS);
  return { root, broken: errors.length > 0 || !root };
}

/** Whether a node at a secret position must be hidden. */
function mustHide(node: JsonNode): boolean {
  if (node.type === "null") return false;
  if (node.type === "string") return !(node.value === "" || isEnvReference(node.value as string));
  return true;
}

const PLACEHOLDER_JSON = JSON.stringify(SECRET_PLACEHOLDER);

/**
 * redactConfig on the raw JSONC text: every secret value is replaced by SECRET_PLACEHOLDER in
 * place, so comments, formatting and everything else stay as they are. Text with syntax errors
 * (a file being edited) is redacted more widely, from its tokens: every value under a key `env`,
 * `headers` or `clientSecret` anywhere.
 */
export function redactConfigText(text: string): string {
  const { root, broken } = parse(text);
  if (broken) return redactBrokenText(text);
  const edits: Edit[] = [];
  walk(root!, [], (segs, node) => {
    if (isSecretPath(segs, node) && mustHide(node)) edits.push({ offset: node.offset, length: node.length, content: PLACEHOLDER_JSON });
  });
  return applyEdits(text, dropNested(edits));
}

/** A whole `env` that is hidden already covers its values: keep only the outermost edits. */
function dropNested(edits: Edit[]): Edit[] {
  const sorted = [...edits].sort((a, b) => a.offset - b.offset || b.length - a.length);
  const out: Edit[] = [];
  for (const e of sorted) {
    const last = out[out.length - 1];
    if (last && e.offset < last.offset + last.length) continue;
    out.push(e);
  }
  return out;
}

const SECRET_KEYS = new Set(["env", "headers", "clientSecret"]);

// jsonc-parser's SyntaxKind is an ambient const enum, which isolatedModules cannot read: its values.
const Tok = {
  OpenBrace: 1,
  CloseBrace: 2,
  OpenBracket: 3,
  CloseBracket: 4,
  Comma: 5,
  Colon: 6,
  Null: 7,
  String: 10,
  LineComment: 12,
  BlockComment: 13,
  LineBreak: 14,
  Trivia: 15,
  EOF: 17,
} as const;

/**
 * For text the parser cannot read as a whole: follows the tokens with a tolerant stack of
 * containers and hides every value (string, number, bare word) that sits under a key `env`,
 * `headers` or `clientSecret` at any depth. A token followed by `:` is taken as a key.
 */
function redactBrokenText(text: string): string {
  const scanner = createScanner(text, true);
  const tokens: { kind: number; offset: number; length: number; value: string }[] = [];
  for (let kind: number = scanner.scan(); kind !== Tok.EOF; kind = scanner.scan()) {
    if (kind === Tok.LineComment || kind === Tok.BlockComment || kind === Tok.Trivia || kind === Tok.LineBreak) continue;
    tokens.push({ kind, offset: scanner.getTokenOffset(), length: scanner.getTokenLength(), value: scanner.getTokenValue() });
  }
  const stack: boolean[] = []; // per open container: is it inside a secret
  let pendingKey: string | undefined;
  const edits: Edit[] = [];
  tokens.forEach((t, i) => {
    const inSecret = stack.length > 0 && stack[stack.length - 1];
    switch (t.kind) {
      case Tok.OpenBrace:
      case Tok.OpenBracket:
        stack.push(inSecret || (pendingKey !== undefined && SECRET_KEYS.has(pendingKey)));
        pendingKey = undefined;
        return;
      case Tok.CloseBrace:
      case Tok.CloseBracket:
        stack.pop();
        pendingKey = undefined;
        return;
      case Tok.Comma:
        pendingKey = undefined;
        return;
      case Tok.Colon:
        return;
      case Tok.Null:
        pendingKey = undefined;
        return;
      default: {
        if (tokens[i + 1]?.kind === Tok.Colon) {
          pendingKey = t.value;
          return;
        }
        const secret = inSecret || (pendingKey !== undefined && SECRET_KEYS.has(pendingKey));
        pendingKey = undefined;
        if (!secret) return;
        if (t.kind === Tok.String && (t.value === "" || isEnvReference(t.value))) return;
        edits.push({ offset: t.offset, length: t.length, content: PLACEHOLDER_JSON });
      }
    }
  });
  return applyEdits(text, edits);
}

export type RestoreResult =
  | { ok: true; text: string }
  | {
      ok: false;
      /** JSON path of the value, e.g. `/mcpServers/github/env/GITHUB_TOKEN`. */
      path: string;
      message: string;
      /** 1-based position of the value in the new text. */
      line: number;
      column: number;
    };

/**
 * For config text coming back from the UI: every value that is SECRET_PLACEHOLDER gets the value
 * at the same path in `currentText` (its exact source text). A placeholder with nothing at that
 * path (e.g. the server was renamed) is an error naming the path. Text with syntax errors is
 * returned as it is (saving it fails anyway).
 */
export function restoreSecrets(newText: string, currentText: string): RestoreResult {
  const next = parse(newText);
  if (next.broken) return { ok: true, text: newText };
  const current = parse(currentText);
  const known = new Map<string, string>();
  if (current.root) {
    walk(current.root, [], (segs, node) => {
      known.set(pointer(segs), currentText.slice(node.offset, node.offset + node.length)); // the last duplicate wins
    });
  }
  const edits: Edit[] = [];
  let failure: RestoreResult | undefined;
  walk(next.root!, [], (segs, node) => {
    if (failure || node.type !== "string" || node.value !== SECRET_PLACEHOLDER) return;
    const path = pointer(segs);
    const value = known.get(path);
    if (value === undefined) {
      const { line, column } = position(newText, node.offset);
      failure = {
        ok: false,
        path,
        line,
        column,
        message: `${path} is hidden (${SECRET_PLACEHOLDER}) and the saved config has no value at that path to keep (was it renamed or moved?): type the value again.`,
      };
      return;
    }
    edits.push({ offset: node.offset, length: node.length, content: value });
  });
  if (failure) return failure;
  return { ok: true, text: applyEdits(newText, edits) };
}

/** 1-based line and column (UTF-16 code units) of an offset; \r\n, \n and \r end lines. */
function position(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset; i++) {
    const c = text.charCodeAt(i);
    if (c === 10 || (c === 13 && text.charCodeAt(i + 1) !== 10)) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}
