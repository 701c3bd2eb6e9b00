import { escapeSegment } from "../json-pointer/pointer";

/**
 * What the studio accepts from a request, checked before anything else happens: values
 * PostgreSQL cannot store (U+0000, lone UTF-16 surrogates), structures past the limits
 * (nesting, string length, keys), and `__proto__` keys (an object built from them would lose
 * them, so what ran and what was stored would differ). Every problem names its JSON path.
 */
export const INPUT_LIMITS = {
  maxDepth: 64,
  maxStringLength: 1_000_000,
  maxKeys: 10_000,
  /** At most this many problems are reported (and the walk stops). */
  maxProblems: 20,
} as const;

export interface InputProblem {
  path: string;
  message: string;
}

// eslint-disable-next-line no-control-regex -- U+0000 is exactly what PostgreSQL refuses in text and jsonb
const NUL = /\u0000/;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

const escapeChar = (c: string) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`;
const LONE_SURROGATES = new RegExp(LONE_SURROGATE.source, "g");
// eslint-disable-next-line no-control-regex -- see NUL above
const escapeUnstorable = (s: string) => s.replace(/\u0000/g, escapeChar).replace(LONE_SURROGATES, escapeChar);

/** Longest key shown in a path; the rest is elided (a path is repeated in messages and stored with a rejected run). */
const MAX_KEY_SHOWN = 200;

/**
 * A JSON pointer to the value, fit to be stored and shown: a key's U+0000 and lone surrogates
 * are written as `\u0000`-style escapes (a path naming them is stored with the rejected run,
 * which PostgreSQL would refuse as it refuses the key itself), and overlong keys are cut.
 */
const pointer = (parts: (string | number)[]) =>
  parts.length
    ? "/" +
      parts
        .map((p) => {
          let k = escapeUnstorable(String(p));
          // Cut between code points: a half of a surrogate pair would be a lone surrogate again.
          if (k.length > MAX_KEY_SHOWN) k = `${k.slice(0, /[\ud800-\udbff]/.test(k[MAX_KEY_SHOWN - 1]!) ? MAX_KEY_SHOWN - 1 : MAX_KEY_SHOWN)}…`;
          return escapeSegment(k);
        })
        .join("/")
    : "";

/** Why a string cannot be stored as it is, or null. */
export function stringProblem(s: string): string | null {
  if (NUL.test(s)) return "contains U+0000 (NUL), which cannot be stored";
  if (LONE_SURROGATE.test(s)) return "contains a lone UTF-16 surrogate (invalid Unicode), which cannot be stored";
  return null;
}

/** Every problem of a parsed JSON value (iterative: any depth is safe to inspect). */
export function inspectJson(value: unknown, base: (string | number)[] = []): InputProblem[] {
  const problems: InputProblem[] = [];
  let keys = 0;
  const stack: { v: unknown; path: (string | number)[] }[] = [{ v: value, path: base }];
  while (stack.length && problems.length < INPUT_LIMITS.maxProblems) {
    const { v, path } = stack.pop()!;
    const depth = path.length - base.length;
    if (typeof v === "string") {
      const p = stringProblem(v);
      if (p) problems.push({ path: pointer(path), message: p });
      else if (v.length > INPUT_LIMITS.maxStringLength)
        problems.push({ path: pointer(path), message: `is longer than ${INPUT_LIMITS.maxStringLength} characters` });
      continue;
    }
    if (typeof v !== "object" || v === null) continue;
    if (depth >= INPUT_LIMITS.maxDepth) {
      problems.push({ path: pointer(path), message: `nests deeper than ${INPUT_LIMITS.maxDepth} levels` });
      continue;
    }
    const entries: [string | number, unknown][] = Array.isArray(v) ? v.map((x, i) => [i, x]) : Object.entries(v);
    keys += entries.length;
    if (keys > INPUT_LIMITS.maxKeys) {
      problems.push({ path: pointer(path), message: `has more than ${INPUT_LIMITS.maxKeys} keys and items in all` });
      break;
    }
    for (const [k, x] of entries) {
      if (typeof k === "string") {
        if (k === "__proto__") {
          problems.push({ path: pointer([...path, k]), message: "is a key named __proto__, which is not accepted" });
          continue;
        }
        const kp = stringProblem(k);
        if (kp) problems.push({ path: pointer([...path, k]), message: `key ${kp}` });
      }
      stack.push({ v: x, path: [...path, k] });
    }
  }
  return problems;
}

/**
 * A copy that can be stored, as close to what was sent as possible: U+0000 and lone surrogates
 * written as `\u0000`-style escapes, `__proto__` keys renamed `[__proto__]`, strings past the
 * limit cut, nesting past the limit replaced by a note. Used for rejected runs, so history shows
 * what was sent.
 */
export function storableCopy(value: unknown, depth = 0): unknown {
  if (typeof value === "string") {
    let s = escapeUnstorable(value);
    if (s.length > INPUT_LIMITS.maxStringLength) s = `${s.slice(0, 1000)}… [${s.length - 1000} more characters not stored]`;
    return s;
  }
  if (typeof value !== "object" || value === null) return value;
  if (depth >= INPUT_LIMITS.maxDepth) return `[nesting deeper than ${INPUT_LIMITS.maxDepth} levels not stored]`;
  if (Array.isArray(value)) return value.slice(0, INPUT_LIMITS.maxKeys).map((x) => storableCopy(x, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value).slice(0, INPUT_LIMITS.maxKeys)) {
    const key = k === "__proto__" ? "[__proto__]" : (storableCopy(k, depth + 1) as string);
    Object.defineProperty(out, key, { value: storableCopy(v, depth + 1), enumerable: true, writable: true, configurable: true });
  }
  return out;
}

/**
 * The URL's own problems (checked by proxy.ts for every request): percent-encoding that does
 * not decode, NUL or invalid Unicode in a path segment or query value, and overlong parts.
 */
export function urlProblem(pathname: string, search: string): string | null {
  for (const raw of pathname.split("/")) {
    let seg: string;
    try {
      seg = decodeURIComponent(raw);
    } catch {
      return `The path segment "${raw.slice(0, 60)}" is not valid percent-encoding.`;
    }
    if (seg.length > 500) return `A path segment is longer than 500 characters (${seg.length}).`;
    // eslint-disable-next-line no-control-regex -- control characters never belong in a name
    if (/[\u0000-\u001f\u007f]/.test(seg)) return `The path segment "${encodeURIComponent(seg).slice(0, 60)}" contains a control character.`;
    if (LONE_SURROGATE.test(seg)) return "A path segment is not valid Unicode.";
  }
  if (search.length > 16_384) return `The query string is longer than 16384 characters.`;
  for (const part of search.replace(/^\?/, "").split("&")) {
    if (!part) continue;
    let decoded: string;
    try {
      decoded = decodeURIComponent(part.replace(/\+/g, " "));
    } catch {
      return `The query parameter "${part.slice(0, 60)}" is not valid percent-encoding.`;
    }
    const p = stringProblem(decoded);
    if (p) return `The query parameter "${part.split("=")[0]!.slice(0, 60)}" ${p}.`;
  }
  return null;
}
