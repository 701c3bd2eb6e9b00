/**
 * Tool names per target. MCP allows 128 characters and dots; OpenAI and Anthropic take
 * `^[a-zA-Z0-9_-]{1,64}$`; Gemini takes letters, digits, `_`, `.` and `-`, starting with a letter
 * or `_`, at most 64. A name a provider refuses is mapped to one it takes, the same way every
 * time (so the mapping can be reversed from the list) and without two tools of the registry
 * getting the same name: a name that already fits keeps it, a mapped one gets a hash suffix
 * when cleaning it up alone would collide or cut it.
 */
import { createHash } from "node:crypto";
import type { NameMapping, Target } from "./types";

export interface NameRule {
  pattern: RegExp;
  max: number;
  doc: string;
  /** The rule in words, for lint messages. */
  says: string;
}

export const OPENAI_NAME: NameRule = {
  pattern: /^[a-zA-Z0-9_-]{1,64}$/,
  max: 64,
  doc: "https://platform.openai.com/docs/api-reference/chat/create#chat-create-tools",
  says: "a-z, A-Z, 0-9, underscores and dashes, at most 64 characters",
};
export const ANTHROPIC_NAME: NameRule = {
  pattern: /^[a-zA-Z0-9_-]{1,64}$/,
  max: 64,
  doc: "https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/implement-tool-use#specifying-client-tools",
  says: "^[a-zA-Z0-9_-]{1,64}$",
};
export const GEMINI_NAME: NameRule = {
  pattern: /^[a-zA-Z_][a-zA-Z0-9_.-]{0,63}$/,
  max: 64,
  doc: "https://ai.google.dev/api/caching#FunctionDeclaration",
  says: "starts with a letter or underscore; a-z, A-Z, 0-9, underscores, dots and dashes; at most 64 characters",
};
/** MCP 2025-11-25 (SEP-986): 1 to 128 characters of A-Z, a-z, 0-9, `_`, `-`, `.`. */
export const MCP_NAME: NameRule = {
  pattern: /^[a-zA-Z0-9_.-]{1,128}$/,
  max: 128,
  doc: "https://modelcontextprotocol.io/specification/2025-11-25/server/tools#tool-names",
  says: "1 to 128 characters of A-Z, a-z, 0-9, underscores, dashes and dots",
};

/** The name rule of each target; Rig passes the name on to whichever provider it calls. */
export const NAME_RULES: Record<Target, NameRule | null> = {
  mcp: null,
  "openai-chat": OPENAI_NAME,
  "openai-responses": OPENAI_NAME,
  anthropic: ANTHROPIC_NAME,
  gemini: GEMINI_NAME,
  rig: null,
};

const HASH_LEN = 8;

function cleaned(name: string, rule: NameRule): string {
  let s = name.replace(rule === GEMINI_NAME ? /[^a-zA-Z0-9_.-]/g : /[^a-zA-Z0-9_-]/g, "_");
  if (rule === GEMINI_NAME && !/^[a-zA-Z_]/.test(s)) s = `_${s}`;
  return s || "_";
}

function hashed(name: string, base: string, rule: NameRule, len = HASH_LEN): string {
  const h = createHash("sha256").update(name).digest("hex").slice(0, len);
  return `${base.slice(0, rule.max - len - 1)}_${h}`;
}

/**
 * Every name of `names` the rule refuses, mapped to a name it takes; names it takes are left
 * out (they map to themselves). Collision-free across `names`, and independent of their order.
 */
export function mapNames(names: readonly string[], rule: NameRule): Map<string, string> {
  const taken = new Set<string>();
  const refused: string[] = [];
  for (const n of names) {
    if (rule.pattern.test(n)) taken.add(n);
    else refused.push(n);
  }
  const out = new Map<string, string>();
  if (!refused.length) return out;
  // Candidates first: a cleaned name that is unique and fits is kept as it is.
  const byCandidate = new Map<string, string[]>();
  for (const n of [...new Set(refused)].sort()) {
    const c = cleaned(n, rule);
    byCandidate.set(c, [...(byCandidate.get(c) ?? []), n]);
  }
  for (const [candidate, owners] of byCandidate) {
    if (owners.length === 1 && candidate.length <= rule.max && rule.pattern.test(candidate) && !taken.has(candidate)) {
      out.set(owners[0]!, candidate);
      taken.add(candidate);
    }
  }
  for (const [candidate, owners] of byCandidate) {
    for (const n of owners) {
      if (out.has(n)) continue;
      let len = HASH_LEN;
      let mapped = hashed(n, candidate, rule, len);
      while (taken.has(mapped) && len < 32) mapped = hashed(n, candidate, rule, (len += 4));
      out.set(n, mapped);
      taken.add(mapped);
    }
  }
  return out;
}

/** The mapping as a list (provider name -> MCP name is the way back). */
export function mappingList(map: Map<string, string>): NameMapping[] {
  return [...map].map(([name, providerName]) => ({ name, providerName })).sort((a, b) => a.name.localeCompare(b.name));
}
