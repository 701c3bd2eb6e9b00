import { escapeSegment } from "../json-pointer/pointer";
import Ajv, { type ErrorObject, type ValidateFunction } from "ajv";
import Ajv2019 from "ajv/dist/2019";
import Ajv2020 from "ajv/dist/2020";
import addFormats from "ajv-formats";
import type { FieldError } from "../tools/errors";
import type { JsonSchema } from "../tools/spec";
import { chosenBranchErrors } from "./branches";
import { SchemaCompileError } from "./errors";
import { checkSchemaLimits, SCHEMA_LIMITS, schemaJson } from "./limits";
import { linearRegExp, withPatternBudget } from "./regexp";

export { SchemaCompileError } from "./errors";
export { SCHEMA_LIMITS } from "./limits";

/** Validates values against JSON Schemas in the dialect each schema declares (2020-12 by default). */

type Dialect = "2020-12" | "2019-09" | "draft-07";

export function schemaDialect(schema: JsonSchema): Dialect {
  const s = typeof schema.$schema === "string" ? schema.$schema : "";
  if (s.includes("2019-09")) return "2019-09";
  if (/draft-0[4-7]/.test(s)) return "draft-07"; // Ajv 8 reads draft-04/06 schemas as draft-07
  return "2020-12";
}

function makeAjv(dialect: Dialect): Ajv {
  const opts = {
    // strict off: tool schemas carry vendor keywords (x-mcp-header, x-*) that must not fail compilation.
    strict: false,
    allErrors: true,
    validateFormats: true,
    // Schemas are untrusted: their patterns run on a linear-time engine (see regexp.ts), and Ajv
    // must not test them with RegExp while compiling (its strict-mode check of properties does).
    unicodeRegExp: true,
    allowMatchingProperties: true,
    code: { regExp: linearRegExp },
  } as const;
  const ajv = dialect === "2020-12" ? new Ajv2020(opts) : dialect === "2019-09" ? new Ajv2019(opts) : new Ajv(opts);
  addFormats(ajv);
  return ajv;
}

/** Ajv keeps what it compiled (schemas, generated code) for the life of an instance: one is replaced after this many compilations. */
const MAX_COMPILES_PER_AJV = 1000;
const ajvs = new Map<Dialect, { ajv: Ajv; compiles: number }>();

/** A map that forgets its oldest entries past a number of entries or of key characters. */
class BoundedCache<V> {
  private readonly map = new Map<string, V>();
  private chars = 0;
  constructor(
    private readonly maxEntries: number,
    private readonly maxKeyChars: number,
  ) {}
  get(key: string): V | undefined {
    return this.map.get(key);
  }
  set(key: string, value: V): void {
    this.map.set(key, value);
    this.chars += key.length;
    while (this.map.size > this.maxEntries || this.chars > this.maxKeyChars) {
      const oldest = this.map.keys().next().value!;
      this.map.delete(oldest);
      this.chars -= oldest.length;
    }
  }
}

// Keyed by the schema's JSON: a 1 MB schema is a 1 MB key, so the key characters are bounded too.
const compiled = new BoundedCache<ValidateFunction>(1000, 16_000_000);
/** Schemas that failed, with why: a hostile schema is refused again without compiling it again. */
const failed = new BoundedCache<string>(200, 4_000_000);
const MAX_COMPILE_MESSAGE = 2000;

/** Compiles (and caches by content) a validator; throws SchemaCompileError for a broken, oversized or unsafe schema. */
export function compileSchema(schema: JsonSchema): ValidateFunction {
  const key = schemaJson(schema);
  const hit = compiled.get(key);
  if (hit) return hit;
  const refused = failed.get(key);
  if (refused !== undefined) throw new SchemaCompileError(refused);
  let fn: ValidateFunction;
  try {
    checkSchemaLimits(schema);
    fn = compileWithAjv(schema);
  } catch (err) {
    const message = truncate(SchemaCompileError.isInstance(err) ? err.message : `Invalid JSON Schema: ${(err as Error).message}`, MAX_COMPILE_MESSAGE);
    failed.set(key, message);
    throw new SchemaCompileError(message, { cause: err });
  }
  compiled.set(key, fn);
  return fn;
}

function compileWithAjv(schema: JsonSchema): ValidateFunction {
  const dialect = schemaDialect(schema);
  let slot = ajvs.get(dialect);
  if (!slot || slot.compiles >= MAX_COMPILES_PER_AJV) ajvs.set(dialect, (slot = { ajv: makeAjv(dialect), compiles: 0 }));
  slot.compiles++;
  // $id would clash across tools sharing one Ajv instance; validation does not need it.
  const { $id: _id, ...rest } = schema;
  return withPatternBudget(SCHEMA_LIMITS.maxSchemaProgram, () => slot.ajv.compile(rest));
}

export type ValidationResult = { valid: true } | { valid: false; errors: FieldError[] };

export function validate(schema: JsonSchema, value: unknown): ValidationResult {
  const fn = compileSchema(schema);
  if (fn(value)) return { valid: true };
  return { valid: false, errors: toFieldErrors(fn.errors ?? []) };
}

/** What one validation reports at most: a hostile schema or value must not make a huge error. */
export const ERROR_LIMITS = {
  /** Field errors, a last "and N more" one included. */
  maxFieldErrors: 50,
  maxMessageChars: 500,
  maxPathChars: 1000,
} as const;

function truncate(s: string, max: number): string {
  if (s.length <= max) return s;
  let cut = max - 1;
  if (/[\uD800-\uDBFF]/.test(s[cut - 1])) cut--; // do not split a surrogate pair
  return `${s.slice(0, cut)}…`;
}

/** "must be one of …", built only as far as it will be shown. */
function oneOf(values: unknown[]): string {
  let s = "must be one of ";
  for (let i = 0; i < values.length && s.length <= ERROR_LIMITS.maxMessageChars; i++) {
    s += (i ? ", " : "") + truncate(JSON.stringify(values[i]) ?? String(values[i]), ERROR_LIMITS.maxMessageChars);
  }
  return s;
}

const moreErrors = (n: number): FieldError => ({ path: "", message: `and ${n} more ${n === 1 ? "problem" : "problems"} not listed` });

/** Ajv errors to one clear message per field; only the chosen oneOf/anyOf branch is reported; at most ERROR_LIMITS.maxFieldErrors. */
export function toFieldErrors(errors: ErrorObject[]): FieldError[] {
  const out: FieldError[] = [];
  const seen = new Set<string>();
  let more = 0;
  for (const e of chosenBranchErrors(errors)) {
    let path = e.instancePath;
    let message = e.message ?? "is invalid";
    switch (e.keyword) {
      case "required":
        path = `${path}/${escapeSegment((e.params as { missingProperty: string }).missingProperty)}`;
        message = "is required";
        break;
      case "additionalProperties":
        path = `${path}/${escapeSegment((e.params as { additionalProperty: string }).additionalProperty)}`;
        message = "is not an allowed property";
        break;
      case "unevaluatedProperties":
        path = `${path}/${escapeSegment((e.params as { unevaluatedProperty: string }).unevaluatedProperty)}`;
        message = "is not an allowed property";
        break;
      case "enum":
        message = oneOf((e.params as { allowedValues: unknown[] }).allowedValues ?? []);
        break;
      case "const":
        message = `must be ${JSON.stringify((e.params as { allowedValue: unknown }).allowedValue)}`;
        break;
    }
    path = truncate(path, ERROR_LIMITS.maxPathChars);
    message = truncate(message, ERROR_LIMITS.maxMessageChars);
    const key = `${path}\u0000${message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    if (out.length < ERROR_LIMITS.maxFieldErrors) out.push({ path, message });
    else more++;
  }
  if (more) out.splice(ERROR_LIMITS.maxFieldErrors - 1, 1, moreErrors(more + 1));
  return out;
}

/** "path: message" lines for a human-readable summary (at most ERROR_LIMITS.maxFieldErrors, each cut). */
export function describeFieldErrors(errors: FieldError[]): string {
  const shown =
    errors.length > ERROR_LIMITS.maxFieldErrors
      ? [...errors.slice(0, ERROR_LIMITS.maxFieldErrors - 1), moreErrors(errors.length - ERROR_LIMITS.maxFieldErrors + 1)]
      : errors;
  return shown.map((e) => `${truncate(e.path, ERROR_LIMITS.maxPathChars) || "(arguments)"} ${truncate(e.message, ERROR_LIMITS.maxMessageChars)}`).join("; ");
}
