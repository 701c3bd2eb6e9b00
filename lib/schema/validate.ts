import Ajv, { type ErrorObject, type ValidateFunction } from "ajv";
import Ajv2019 from "ajv/dist/2019";
import Ajv2020 from "ajv/dist/2020";
import addFormats from "ajv-formats";
import type { FieldError } from "../tools/errors";
import type { JsonSchema } from "../tools/spec";

/** Validates values against JSON Schemas in the dialect each schema declares (2020-12 by default). */

type Dialect = "2020-12" | "2019-09" | "draft-07";

export function schemaDialect(schema: JsonSchema): Dialect {
  const s = typeof schema.$schema === "string" ? schema.$schema : "";
  if (s.includes("2019-09")) return "2019-09";
  if (/draft-0[4-7]/.test(s)) return "draft-07"; // Ajv 8 reads draft-04/06 schemas as draft-07
  return "2020-12";
}

function makeAjv(dialect: Dialect): Ajv {
  // strict off: tool schemas carry vendor keywords (x-mcp-header, x-*) that must not fail compilation.
  const opts = { strict: false, allErrors: true, validateFormats: true } as const;
  const ajv = dialect === "2020-12" ? new Ajv2020(opts) : dialect === "2019-09" ? new Ajv2019(opts) : new Ajv(opts);
  addFormats(ajv);
  return ajv;
}

const ajvs = new Map<Dialect, Ajv>();
const compiled = new Map<string, ValidateFunction>();
const MAX_CACHED = 1000;

export class SchemaCompileError extends Error {}

/** Compiles (and caches by content) a validator; throws SchemaCompileError for a broken schema. */
export function compileSchema(schema: JsonSchema): ValidateFunction {
  const key = JSON.stringify(schema);
  const hit = compiled.get(key);
  if (hit) return hit;
  const dialect = schemaDialect(schema);
  let ajv = ajvs.get(dialect);
  if (!ajv) ajvs.set(dialect, (ajv = makeAjv(dialect)));
  let fn: ValidateFunction;
  try {
    // $id would clash across tools sharing one Ajv instance; validation does not need it.
    const { $id: _id, ...rest } = schema;
    fn = ajv.compile(rest);
  } catch (err) {
    throw new SchemaCompileError(`Invalid JSON Schema: ${(err as Error).message}`);
  }
  if (compiled.size >= MAX_CACHED) compiled.delete(compiled.keys().next().value!);
  compiled.set(key, fn);
  return fn;
}

export type ValidationResult = { valid: true } | { valid: false; errors: FieldError[] };

export function validate(schema: JsonSchema, value: unknown): ValidationResult {
  const fn = compileSchema(schema);
  if (fn(value)) return { valid: true };
  return { valid: false, errors: toFieldErrors(fn.errors ?? []) };
}

/** Ajv errors to one clear message per field; the noise of failed oneOf branches is folded. */
export function toFieldErrors(errors: ErrorObject[]): FieldError[] {
  const out: FieldError[] = [];
  const seen = new Set<string>();
  for (const e of errors) {
    let path = e.instancePath;
    let message = e.message ?? "is invalid";
    switch (e.keyword) {
      case "required":
        path = `${path}/${escapePointer((e.params as { missingProperty: string }).missingProperty)}`;
        message = "is required";
        break;
      case "additionalProperties":
        path = `${path}/${escapePointer((e.params as { additionalProperty: string }).additionalProperty)}`;
        message = "is not an allowed property";
        break;
      case "enum":
        message = `must be one of ${((e.params as { allowedValues: unknown[] }).allowedValues ?? []).map((v) => JSON.stringify(v)).join(", ")}`;
        break;
      case "const":
        message = `must be ${JSON.stringify((e.params as { allowedValue: unknown }).allowedValue)}`;
        break;
    }
    const key = `${path}\u0000${message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ path, message });
  }
  return out;
}

const escapePointer = (s: string) => s.replace(/~/g, "~0").replace(/\//g, "~1");

/** "path: message" lines for a human-readable summary. */
export function describeFieldErrors(errors: FieldError[]): string {
  return errors.map((e) => `${e.path || "(arguments)"} ${e.message}`).join("; ");
}
