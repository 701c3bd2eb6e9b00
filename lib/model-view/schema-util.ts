/** Small pure helpers the schema rewrites share (strict.ts, gemini.ts). */
import { escapeSegment, fragmentSegments } from "../json-pointer/pointer";
import type { JsonSchema, LintItem } from "./types";

export const isObj = (v: unknown): v is JsonSchema => !!v && typeof v === "object" && !Array.isArray(v);

/** One JSON pointer segment. */
export const esc = escapeSegment;

/** A value as short JSON, for messages and descriptions. */
export const show = (v: unknown) => {
  const s = JSON.stringify(v);
  return s.length > 160 ? `${s.slice(0, 157)}...` : s;
};

/** What a local `$ref` ("#" or "#/..." inside `root`) points at; undefined for anything else. */
export function resolveRef(root: JsonSchema, ref: string): unknown {
  const keys = fragmentSegments(ref);
  if (!keys) return undefined;
  let cur: unknown = root;
  for (const k of keys) {
    if (!isObj(cur)) return undefined;
    cur = cur[k];
  }
  return cur;
}

/** The findings once each (a definition inlined in several places is reported where it is written). */
export function distinctLint(lint: LintItem[]): LintItem[] {
  const seen = new Set<string>();
  return lint.filter((l) => {
    const key = `${l.pointer}\u0000${l.keyword}\u0000${l.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** A schema's description with what is not enforced appended. */
export const describedWith = (description: unknown, notes: string[]) =>
  [typeof description === "string" ? description : "", `(Not enforced: ${notes.join("; ")})`].filter(Boolean).join(" ");
