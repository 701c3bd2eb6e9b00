import { quotePattern, SchemaCompileError } from "./errors";

/**
 * Limits on a schema before it is compiled. Schemas come from untrusted places (MCP servers' tool
 * listings, the runtime config), so their cost to compile and to run must stay bounded.
 */
export const SCHEMA_LIMITS = {
  /** Characters of the schema's JSON text. */
  maxJsonChars: 1_000_000,
  /**
   * Levels of JSON objects and arrays. A schema level takes one or two (`properties` → name →
   * schema); the studio infers schemas for data up to 64 levels deep, i.e. up to ~130 here. Ajv
   * itself runs out of stack at around 2,000.
   */
  maxDepth: 256,
  /** `pattern` keywords plus `patternProperties` keys in one schema. */
  maxPatterns: 1000,
  /** Characters of one pattern. */
  maxPatternLength: 10_000,
  /** Instructions of one pattern's compiled RE2 program (`a{0,1000}` takes ~2,000). */
  maxPatternProgram: 10_000,
  /** Instructions of all the compiled RE2 programs of one schema. */
  maxSchemaProgram: 100_000,
} as const;

const fmt = (n: number) => n.toLocaleString("en-US");

/** The schema's JSON text; throws SchemaCompileError when it cannot be serialised or is too big. */
export function schemaJson(schema: unknown): string {
  let json: string | undefined;
  try {
    json = JSON.stringify(schema);
  } catch (err) {
    if (err instanceof RangeError) throw tooDeep();
    throw new SchemaCompileError(`Invalid JSON Schema: it cannot be serialised as JSON (${(err as Error).message}).`);
  }
  if (json === undefined) throw new SchemaCompileError("Invalid JSON Schema: it is not a JSON value.");
  if (json.length > SCHEMA_LIMITS.maxJsonChars) {
    throw new SchemaCompileError(`Schema too large: ${fmt(json.length)} characters of JSON; the limit is ${fmt(SCHEMA_LIMITS.maxJsonChars)}.`);
  }
  return json;
}

const tooDeep = () => new SchemaCompileError(`Schema nested too deeply: more than ${SCHEMA_LIMITS.maxDepth} levels of objects and arrays.`);

/** Depth, pattern count and pattern length of a (serialisable, size-checked) schema. */
export function checkSchemaLimits(schema: unknown): void {
  let patterns = 0;
  const countPattern = (p: string) => {
    if (++patterns > SCHEMA_LIMITS.maxPatterns) {
      throw new SchemaCompileError(
        `Schema has too many patterns: more than ${fmt(SCHEMA_LIMITS.maxPatterns)} "pattern" keywords and "patternProperties" keys.`,
      );
    }
    if (p.length > SCHEMA_LIMITS.maxPatternLength) {
      throw new SchemaCompileError(
        `Pattern too long: ${fmt(p.length)} characters; the limit is ${fmt(SCHEMA_LIMITS.maxPatternLength)} (pattern ${quotePattern(p)}).`,
      );
    }
  };
  // Iterative: a hostile depth must not exhaust the stack before it is refused.
  const stack: [unknown, number][] = [[schema, 1]];
  while (stack.length) {
    const [node, depth] = stack.pop()!;
    if (typeof node !== "object" || node === null) continue;
    if (depth > SCHEMA_LIMITS.maxDepth) throw tooDeep();
    if (Array.isArray(node)) {
      for (const v of node) stack.push([v, depth + 1]);
      continue;
    }
    for (const [k, v] of Object.entries(node)) {
      // Counted wherever they appear (also inside `const`/`examples`): over-counting is harmless.
      if (k === "pattern" && typeof v === "string") countPattern(v);
      if (k === "patternProperties" && typeof v === "object" && v !== null && !Array.isArray(v)) for (const p of Object.keys(v)) countPattern(p);
      stack.push([v, depth + 1]);
    }
  }
}
