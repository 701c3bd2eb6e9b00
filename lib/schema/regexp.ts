import type { RegExpEngine, RegExpLike } from "ajv/dist/types";
import { RE2JS } from "re2js";
import { StudioError } from "../errors/errors";
import { quotePattern, SchemaCompileError } from "./errors";
import { SCHEMA_LIMITS } from "./limits";

/**
 * Schema patterns (`pattern`, `patternProperties`) run on RE2 (the pure-JavaScript port re2js),
 * whose matching time is linear in the input: a hostile pattern such as "^(a+)+$" cannot stall the
 * event loop the way JavaScript's backtracking RegExp does.
 *
 * JSON Schema patterns are ECMA-262 regular expressions (Ajv compiles them with the "u" flag), so a
 * pattern must first be valid JavaScript; it is then rewritten to RE2 syntax with JavaScript's
 * meaning kept where the two differ (`\s`, `.`, `\uXXXX`, `\p{Letter}`, `[^]`, …). What RE2 cannot
 * express (backreferences, lookaround) is refused with a SchemaCompileError, never run on a
 * backtracking engine instead.
 */

type Range = readonly [number, number];

/** JavaScript's `\s`: WhiteSpace and LineTerminator (ECMA-262), RE2's is only [\t\n\f\r ]. */
export const JS_WHITESPACE: readonly Range[] = [
  [0x09, 0x0d],
  [0x20, 0x20],
  [0xa0, 0xa0],
  [0x1680, 0x1680],
  [0x2000, 0x200a],
  [0x2028, 0x2029],
  [0x202f, 0x202f],
  [0x205f, 0x205f],
  [0x3000, 0x3000],
  [0xfeff, 0xfeff],
];
/** What JavaScript's `.` does not match (RE2's `.` only leaves out \n). */
const LINE_TERMINATORS: readonly Range[] = [
  [0x0a, 0x0a],
  [0x0d, 0x0d],
  [0x2028, 0x2029],
];
const MAX_CODE_POINT = 0x10ffff;

const hex = (cp: number) => `\\x{${cp.toString(16).toUpperCase()}}`;
const classItems = (ranges: readonly Range[]) => ranges.map(([a, b]) => (a === b ? hex(a) : `${hex(a)}-${hex(b)}`)).join("");
function complement(ranges: readonly Range[]): Range[] {
  const out: Range[] = [];
  let next = 0;
  for (const [a, b] of ranges) {
    if (a > next) out.push([next, a - 1]);
    next = b + 1;
  }
  if (next <= MAX_CODE_POINT) out.push([next, MAX_CODE_POINT]);
  return out;
}

const WS = classItems(JS_WHITESPACE);
const NOT_WS = classItems(complement(JS_WHITESPACE));
const DOT = `[^${classItems(LINE_TERMINATORS)}]`;
const ANY = `\\x{0}-\\x{${MAX_CODE_POINT.toString(16).toUpperCase()}}`;
const ASCII = "\\x{0}-\\x{7F}";
const NON_ASCII = `\\x{80}-\\x{${MAX_CODE_POINT.toString(16).toUpperCase()}}`;
/** RE2 refuses larger counts ("invalid repeat count"). */
const MAX_REPEAT = 1000;

/** General categories: JavaScript accepts the long names too, RE2 only the short ones. */
const GENERAL_CATEGORIES: Record<string, string> = {
  Letter: "L",
  Cased_Letter: "LC",
  Uppercase_Letter: "Lu",
  Lowercase_Letter: "Ll",
  Titlecase_Letter: "Lt",
  Modifier_Letter: "Lm",
  Other_Letter: "Lo",
  Mark: "M",
  Combining_Mark: "M",
  Nonspacing_Mark: "Mn",
  Spacing_Mark: "Mc",
  Enclosing_Mark: "Me",
  Number: "N",
  Decimal_Number: "Nd",
  digit: "Nd",
  Letter_Number: "Nl",
  Other_Number: "No",
  Punctuation: "P",
  punct: "P",
  Connector_Punctuation: "Pc",
  Dash_Punctuation: "Pd",
  Open_Punctuation: "Ps",
  Close_Punctuation: "Pe",
  Initial_Punctuation: "Pi",
  Final_Punctuation: "Pf",
  Other_Punctuation: "Po",
  Symbol: "S",
  Math_Symbol: "Sm",
  Currency_Symbol: "Sc",
  Modifier_Symbol: "Sk",
  Other_Symbol: "So",
  Separator: "Z",
  Space_Separator: "Zs",
  Line_Separator: "Zl",
  Paragraph_Separator: "Zp",
  Other: "C",
  Control: "Cc",
  cntrl: "Cc",
  Format: "Cf",
  Surrogate: "Cs",
  Private_Use: "Co",
  Unassigned: "Cn",
};
const SHORT_CATEGORIES = new Set(Object.values(GENERAL_CATEGORIES));

class Unsupported extends StudioError {
  static override readonly tag: string = "UnsupportedPattern";
  constructor(message: string) {
    super("bad_request", message);
  }
}
const needsBacktracking = (what: string) =>
  new Unsupported(
    `it uses ${what}, which needs a backtracking engine; schema patterns run on a linear-time engine (RE2) so that no pattern can stall the studio.`,
  );
const notInRe2 = (what: string) => new Unsupported(`${what} is not supported by the linear-time engine (RE2) that runs schema patterns.`);

/** `\p{…}` / `\P{…}` of a valid JavaScript pattern in RE2 syntax. */
function property(body: string, negated: boolean, inClass: boolean): string {
  const eq = body.indexOf("=");
  const name = eq < 0 ? null : body.slice(0, eq);
  const value = eq < 0 ? body : body.slice(eq + 1);
  const p = negated ? "P" : "p";
  if (name === "Script" || name === "sc") return `\\${p}{${value}}`; // RE2 knows scripts by their long names
  if (name !== null && name !== "General_Category" && name !== "gc") throw notInRe2(`the Unicode property \\${p}{${body}}`);
  const category = GENERAL_CATEGORIES[value] ?? (SHORT_CATEGORIES.has(value) ? value : null);
  if (category) return `\\${p}{${category}}`;
  if (name === null && value === "Any") return `\\${p}{Any}`;
  if (name === null && value === "Assigned") return `\\${negated ? "p" : "P"}{Cn}`;
  if (name === null && value === "ASCII") {
    const items = negated ? NON_ASCII : ASCII;
    return inClass ? items : `[${items}]`;
  }
  throw notInRe2(`the Unicode property \\${p}{${body}}`);
}

const QUANTIFIER = /\{(\d+)(?:(,)(\d*))?\}/y;

/**
 * A pattern that JavaScript accepts with the "u" flag, in RE2 syntax with the same meaning, and a
 * rough upper bound of its compiled size (repeats expand: `[ab]{1000}` is a thousand instructions).
 * Throws Unsupported for what RE2 cannot express.
 */
export function translatePattern(src: string): { source: string; estimate: number } {
  let out = "";
  let inClass = false;
  // Size estimate per open group: its total so far, and the size of its last atom (what a quantifier repeats).
  const groups = [{ sum: 0, last: 0 }];
  let top = groups[0];
  const atom = (text: string, size = 1) => {
    out += text;
    if (inClass) return;
    top.sum += size;
    top.last = size;
  };
  let i = 0;
  while (i < src.length) {
    const c = src[i];
    if (c === "\\") {
      i = escape(i);
      continue;
    }
    if (inClass) {
      if (c === "]") inClass = false;
      // A literal "[" in a JavaScript class could open a POSIX class ("[:alpha:]") in RE2.
      atom(c === "[" ? "\\[" : c);
      i++;
      continue;
    }
    switch (c) {
      case "[":
        if (src.startsWith("[^]", i)) {
          atom(`[${ANY}]`);
          i += 3;
        } else if (src.startsWith("[]", i)) {
          atom(`[^${ANY}]`);
          i += 2;
        } else {
          atom(src[i + 1] === "^" ? "[^" : "[");
          i += src[i + 1] === "^" ? 2 : 1;
          inClass = true;
        }
        continue;
      case ".":
        atom(DOT);
        i++;
        continue;
      case "(": {
        if (src.startsWith("(?=", i) || src.startsWith("(?!", i)) throw needsBacktracking("a lookahead assertion ((?=…) or (?!…))");
        if (src.startsWith("(?<=", i) || src.startsWith("(?<!", i)) throw needsBacktracking("a lookbehind assertion ((?<=…) or (?<!…))");
        if (src.startsWith("(?<", i)) {
          i = src.indexOf(">", i) + 1; // a named group: only whether it matches counts, so it needs no name
          out += "(?:";
        } else if (src.startsWith("(?:", i)) {
          i += 3;
          out += "(?:";
        } else if (src.startsWith("(?", i)) {
          throw notInRe2("an inline modifier group ((?i:…))");
        } else {
          i++;
          out += "(";
        }
        groups.push((top = { sum: 0, last: 0 }));
        continue;
      }
      case ")": {
        const group = groups.pop()!;
        top = groups[groups.length - 1];
        atom(")", group.sum + 2);
        i++;
        continue;
      }
      case "|":
        out += "|";
        top.sum++;
        top.last = 0;
        i++;
        continue;
      case "*":
      case "+":
      case "?":
        out += c;
        top.sum++;
        i++;
        if (src[i] === "?") out += src[i++]; // lazy: the same for a yes/no match
        continue;
      case "{": {
        QUANTIFIER.lastIndex = i;
        const m = QUANTIFIER.exec(src)!; // JavaScript's "u" mode allows "{" only as a quantifier
        const min = Number(m[1]);
        const max = m[2] ? (m[3] ? Number(m[3]) : min + 1) : min;
        if (min > MAX_REPEAT || max > MAX_REPEAT) throw notInRe2(`a repeat count above ${MAX_REPEAT} (${m[0]})`);
        const added = top.last * 2 * Math.max(max, 1);
        top.sum += added;
        top.last += added;
        out += m[0];
        i += m[0].length;
        if (src[i] === "?") out += src[i++];
        continue;
      }
      default:
        atom(c); // also "^", "$" and the halves of a surrogate pair
        i++;
    }
  }
  return { source: out, estimate: top.sum };

  /** The escape at src[i] ("\\"); returns the index after it. */
  function escape(i: number): number {
    const e = src[i + 1];
    switch (e) {
      case "d":
      case "D":
      case "w":
      case "W":
      case "B":
      case "t":
      case "n":
      case "v":
      case "f":
      case "r":
        atom(`\\${e}`);
        return i + 2;
      case "b":
        atom(inClass ? hex(8) : "\\b"); // in a class, JavaScript's \b is a backspace
        return i + 2;
      case "s":
        atom(inClass ? WS : `[${WS}]`);
        return i + 2;
      case "S":
        atom(inClass ? NOT_WS : `[^${WS}]`);
        return i + 2;
      case "0":
        atom(hex(0));
        return i + 2;
      case "c":
        atom(hex(src.charCodeAt(i + 2) % 32));
        return i + 3;
      case "x":
        atom(hex(parseInt(src.slice(i + 2, i + 4), 16)));
        return i + 4;
      case "u": {
        if (src[i + 2] === "{") {
          const close = src.indexOf("}", i);
          atom(hex(parseInt(src.slice(i + 3, close), 16)));
          return close + 1;
        }
        let cp = parseInt(src.slice(i + 2, i + 6), 16);
        let end = i + 6;
        // "u" mode reads an escaped surrogate pair as one code point.
        if (cp >= 0xd800 && cp <= 0xdbff && /^\\u[dD][c-fC-F][0-9a-fA-F]{2}$/.test(src.slice(end, end + 6))) {
          cp = 0x10000 + ((cp - 0xd800) << 10) + (parseInt(src.slice(end + 2, end + 6), 16) - 0xdc00);
          end += 6;
        }
        atom(hex(cp));
        return end;
      }
      case "p":
      case "P": {
        const close = src.indexOf("}", i);
        atom(property(src.slice(i + 3, close), e === "P", inClass));
        return close + 1;
      }
      case "k":
        throw needsBacktracking("a named backreference (\\k<…>)");
      default:
        if (e >= "1" && e <= "9") throw needsBacktracking(`a backreference (\\${/^\d+/.exec(src.slice(i + 1))![0]})`);
        atom(`\\${e}`); // an escaped syntax character, "/" or "-"
        return i + 2;
    }
  }
}

/** Instructions left for the schema being compiled (see withPatternBudget). */
let budget: { limit: number; left: number } | null = null;

/** Runs a compilation with a budget of RE2 program instructions for all its patterns. */
export function withPatternBudget<T>(instructions: number, compile: () => T): T {
  const outer = budget;
  budget = { limit: instructions, left: instructions };
  try {
    return compile();
  } finally {
    budget = outer;
  }
}

const memo = new Map<string, { re: RE2JS; size: number }>();
const MAX_MEMO = 1000;

function compileRe2(pattern: string, flags: string): { re: RE2JS; size: number } {
  const key = `${flags}/${pattern}`;
  const hit = memo.get(key);
  if (hit) return hit;
  const refuse = (why: string) => new SchemaCompileError(`Unsupported pattern ${quotePattern(pattern)}: ${why}`);
  if (pattern.length > SCHEMA_LIMITS.maxPatternLength) {
    throw refuse(`it has ${pattern.length} characters; the limit is ${SCHEMA_LIMITS.maxPatternLength}.`);
  }
  try {
    // Compiled only, never run: checks that it is a valid ECMA-262 pattern, as JSON Schema says.
    // Always with "u" (Ajv's unicodeRegExp, on here): translatePattern relies on its strict syntax.
    new RegExp(pattern, "u");
  } catch (err) {
    const v8 = `Invalid regular expression: /${pattern}/u: `; // V8 repeats the whole pattern
    const why = (err as Error).message.startsWith(v8) ? (err as Error).message.slice(v8.length) : (err as Error).message;
    throw new SchemaCompileError(`Invalid pattern ${quotePattern(pattern)}: ${why}.`);
  }
  let source: string;
  let estimate: number;
  try {
    ({ source, estimate } = translatePattern(pattern));
  } catch (err) {
    if (!Unsupported.isInstance(err)) throw err;
    throw refuse(err.message);
  }
  const tooBig = () => refuse(`it compiles to more than ${SCHEMA_LIMITS.maxPatternProgram} instructions; use fewer or smaller repeats.`);
  if (estimate > 2 * SCHEMA_LIMITS.maxPatternProgram) throw tooBig(); // before compiling: a large one takes long to build
  let re: RE2JS;
  try {
    re = RE2JS.compile(source);
  } catch (err) {
    throw refuse(`the linear-time engine (RE2) cannot compile it (${(err as Error).message}).`);
  }
  const size = re.programSize();
  if (size > SCHEMA_LIMITS.maxPatternProgram) throw tooBig();
  if (memo.size >= MAX_MEMO) memo.delete(memo.keys().next().value!);
  const compiled = { re, size };
  memo.set(key, compiled);
  return compiled;
}

/**
 * Ajv's `code.regExp`: (pattern, flags) → { test }. Throws SchemaCompileError for a pattern it
 * refuses, which fails the schema's compilation.
 */
export const linearRegExp: RegExpEngine = Object.assign(
  (pattern: string, flags: string): RegExpLike => {
    const { re, size } = compileRe2(pattern, flags);
    if (budget && (budget.left -= size) < 0) {
      throw new SchemaCompileError(`Schema too complex: its patterns compile to more than ${budget.limit.toLocaleString("en-US")} instructions in all.`);
    }
    // toString is Ajv's key to share one compiled pattern per distinct source.
    const like: RegExpLike & { toString(): string } = { test: (s: string) => re.test(s), toString: () => `/${pattern}/${flags}` };
    return like;
  },
  // For Ajv's standalone code only (not used by the studio): where the engine is found.
  { code: 'require("./lib/schema/regexp").linearRegExp' },
);
