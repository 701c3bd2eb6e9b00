import type { ToolSpec } from "../tools/spec";

/**
 * Matching a message against the tools' invocation triggers.
 *
 * The rules (they hold exactly; the tests in match.test.ts pin them):
 * - Case-insensitive, Unicode-aware: the regex `i` flag with `u` (simple case folding), so
 *   "SEND" matches "send" and positions always index the original message — the message is
 *   never lowercased (a character whose lowercase has another length cannot shift a span).
 * - Whole phrases only: a trigger matches where the character right before and the one right
 *   after are absent or are not letters or digits in the Unicode sense (\p{L}, \p{N}). So `_`,
 *   `-`, punctuation, spaces, emoji and combining marks are boundaries; ideographs are letters,
 *   so "送信" does not match inside "料理送信番". Astral characters are judged whole (the `u`
 *   flag reads surrogate pairs as one code point), so "𝐀dev" does not match "dev".
 * - Literal phrases: regex metacharacters are plain text, and whitespace inside a phrase matches
 *   exactly as written (one space matches one space, not a tab or a run of spaces). Leading or
 *   trailing whitespace in a trigger is kept too (it becomes part of the phrase).
 * - An empty or whitespace-only trigger never matches.
 * - Occurrences are leftmost-first and non-overlapping; spans are UTF-16 indices into the
 *   message, `end` exclusive (so `message.slice(start, end)` is the matched text).
 */

/** The longest message the API matches, in UTF-16 code units (JavaScript string length). */
export const MAX_MESSAGE_LENGTH = 10_000;

export interface Span {
  start: number;
  end: number;
}

export interface TriggerSpan extends Span {
  trigger: string;
}

export interface ToolMatch {
  tool: string;
  /** Distinct matched triggers, in the tool's declaration order. */
  triggers: string[];
  /** Every occurrence of every matched trigger, by position. Spans of different triggers may overlap. */
  spans: TriggerSpan[];
}

const BEFORE = "(?<![\\p{L}\\p{N}])";
const AFTER = "(?![\\p{L}\\p{N}])";

/** Escapes a string so it matches literally in a `u`-flag regex (only syntax characters may be escaped there). */
function escapeRegExp(s: string): string {
  return s.replace(/[\\^$.*+?()[\]{}|/]/g, "\\$&");
}

/** The regex for one trigger, or null when the trigger can never match. */
function triggerRegExp(trigger: string): RegExp | null {
  if (typeof trigger !== "string" || trigger.trim() === "") return null;
  return new RegExp(BEFORE + escapeRegExp(trigger) + AFTER, "giu");
}

/** All non-overlapping occurrences of `trigger` in `message` as whole phrases (see the rules above). */
export function findTrigger(message: string, trigger: string): Span[] {
  const re = triggerRegExp(trigger);
  if (!re || typeof message !== "string" || message === "") return [];
  const spans: Span[] = [];
  for (const m of message.matchAll(re)) spans.push({ start: m.index, end: m.index + m[0].length });
  return spans;
}

/**
 * The tools whose triggers occur in `message`: only tools with at least one match, most distinct
 * matched triggers first, then by name (code-unit order, so it does not depend on a locale).
 */
export function matchTools(message: string, tools: Pick<ToolSpec, "name" | "invocationTriggers">[]): ToolMatch[] {
  const matches: ToolMatch[] = [];
  for (const tool of tools) {
    const triggers: string[] = [];
    const spans: TriggerSpan[] = [];
    for (const trigger of new Set(tool.invocationTriggers ?? [])) {
      const found = findTrigger(message, trigger);
      if (found.length === 0) continue;
      triggers.push(trigger);
      for (const s of found) spans.push({ ...s, trigger });
    }
    if (triggers.length === 0) continue;
    spans.sort((a, b) => a.start - b.start || b.end - a.end);
    matches.push({ tool: tool.name, triggers, spans });
  }
  return matches.sort((a, b) => b.triggers.length - a.triggers.length || (a.tool < b.tool ? -1 : a.tool > b.tool ? 1 : 0));
}

/** A piece of the message for highlighting: plain text, or a matched stretch with who matched it. */
export interface Segment {
  text: string;
  start: number;
  end: number;
  /** Present on matched stretches: the tools and triggers whose spans cover it. */
  hits?: { tool: string; trigger: string }[];
}

/**
 * Cuts `message` into plain and matched segments, merging overlapping or touching spans of all
 * tools into one highlighted stretch. Spans outside the message are clamped (or dropped).
 */
export function segmentMessage(message: string, matches: Pick<ToolMatch, "tool" | "spans">[]): Segment[] {
  const all = matches
    .flatMap((m) => m.spans.map((s) => ({ start: Math.max(0, s.start), end: Math.min(message.length, s.end), tool: m.tool, trigger: s.trigger })))
    .filter((s) => s.end > s.start)
    .sort((a, b) => a.start - b.start || b.end - a.end);
  const segments: Segment[] = [];
  let pos = 0;
  let current: Segment | null = null;
  for (const s of all) {
    if (current && s.start <= current.end) {
      current.end = Math.max(current.end, s.end);
      if (!current.hits!.some((h) => h.tool === s.tool && h.trigger === s.trigger)) current.hits!.push({ tool: s.tool, trigger: s.trigger });
      continue;
    }
    if (current) {
      segments.push({ ...current, text: message.slice(current.start, current.end) });
      pos = current.end;
    }
    if (s.start > pos) segments.push({ text: message.slice(pos, s.start), start: pos, end: s.start });
    current = { text: "", start: s.start, end: s.end, hits: [{ tool: s.tool, trigger: s.trigger }] };
  }
  if (current) {
    segments.push({ ...current, text: message.slice(current.start, current.end) });
    pos = current.end;
  }
  if (pos < message.length) segments.push({ text: message.slice(pos), start: pos, end: message.length });
  return segments;
}
