import { fragmentSegments, pointerSegments } from "../json-pointer/pointer";
import { Validator, type OutputUnit, type Schema, type SchemaDraft } from "@cfworker/json-schema";
import { ErrorSchemaBuilder, type RJSFSchema, type RJSFValidationError, type ValidationData, type ValidatorType } from "@rjsf/utils";

/**
 * RJSF's validator for the browser, without code generation. The studio's CSP has no
 * 'unsafe-eval', so Ajv cannot compile a schema in the page: every `isValid` RJSF asks (an
 * if/then/else condition, which oneOf branch some data matches) failed and answered false.
 * @cfworker/json-schema interprets the schema instead. Arguments are still validated on the
 * server (lib/schema, Ajv) before any run; the form uses this only to resolve its schema.
 */
const ROOT = "urn:tool-studio:form-root";
const MAX_CACHED = 500;

function draftOf(schema: RJSFSchema): SchemaDraft {
  const s = typeof schema.$schema === "string" ? schema.$schema : "";
  if (s.includes("2019-09")) return "2019-09";
  if (/draft-0[67]/.test(s)) return "7";
  if (/draft-04/.test(s)) return "4";
  return "2020-12";
}

/** `#/…` references of a sub-schema point into the root schema: name the root explicitly. */
function rootRefs(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(rootRefs);
  if (typeof value !== "object" || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = k === "$ref" && typeof v === "string" && v.startsWith("#") ? `${ROOT}${v}` : rootRefs(v);
  return out;
}

/** An instance location ("#/a/b", or a plain pointer) as its keys. */
const instancePath = (loc: string): string[] => (loc.startsWith("#") ? (fragmentSegments(loc) ?? []) : pointerSegments(loc)).filter(Boolean);

/** Where an error is, as a path of keys (a `required` error belongs to the missing member). */
function pathOf(unit: OutputUnit): string[] {
  const path = instancePath(unit.instanceLocation);
  const missing = unit.keyword === "required" ? /"([^"]+)"/.exec(unit.error)?.[1] : undefined;
  return missing ? [...path, missing] : path;
}

// Keywords that only say "something below failed": the error below says what.
const AGGREGATE = new Set([
  "properties",
  "items",
  "prefixItems",
  "additionalItems",
  "allOf",
  "anyOf",
  "oneOf",
  "$ref",
  "if",
  "then",
  "else",
  "dependentSchemas",
  "unevaluatedProperties",
  "contains",
  "not",
]);

export class InterpretingValidator implements ValidatorType<unknown, RJSFSchema> {
  private readonly cache = new Map<string, Validator>();

  private validatorFor(schema: RJSFSchema, rootSchema: RJSFSchema, shortCircuit: boolean): Validator {
    const key = `${shortCircuit ? 1 : 0}${JSON.stringify(schema)}\u0000${schema === rootSchema ? "" : JSON.stringify(rootSchema)}`;
    const hit = this.cache.get(key);
    if (hit) return hit;
    const draft = draftOf(rootSchema);
    const v = new Validator(rootRefs(schema) as Schema, draft, shortCircuit);
    const { $id: _id, ...root } = rootSchema;
    v.addSchema(rootRefs(root) as Schema, ROOT);
    if (this.cache.size >= MAX_CACHED) this.cache.delete(this.cache.keys().next().value!);
    this.cache.set(key, v);
    return v;
  }

  isValid(schema: RJSFSchema, formData: unknown, rootSchema: RJSFSchema): boolean {
    try {
      return this.validatorFor(schema, rootSchema, true).validate(formData).valid;
    } catch {
      return false; // a schema this validator cannot read matches nothing, as with Ajv
    }
  }

  rawValidation<Result = OutputUnit>(schema: RJSFSchema, formData?: unknown): { errors?: Result[]; validationError?: Error } {
    try {
      const r = this.validatorFor(schema, schema, false).validate(formData);
      return { errors: r.valid ? undefined : (r.errors as Result[]) };
    } catch (e) {
      return { validationError: e as Error };
    }
  }

  validateFormData(formData: unknown, schema: RJSFSchema): ValidationData<unknown> {
    const { errors = [], validationError } = this.rawValidation<OutputUnit>(schema, formData);
    const builder = new ErrorSchemaBuilder();
    const list: RJSFValidationError[] = [];
    if (validationError) {
      builder.addErrors(`The schema cannot be read: ${validationError.message}`);
      list.push({ stack: validationError.message, message: validationError.message });
    }
    for (const unit of errors) {
      if (AGGREGATE.has(unit.keyword)) continue;
      const path = pathOf(unit);
      const message = unit.keyword === "required" ? "is required" : unit.error;
      builder.addErrors(message, path);
      list.push({
        name: unit.keyword,
        property: path.length ? `.${path.join(".")}` : ".",
        message,
        stack: `${path.join(".") || "."} ${message}`,
        schemaPath: unit.keywordLocation,
      });
    }
    return { errors: list, errorSchema: builder.ErrorSchema };
  }

  reset(): void {
    this.cache.clear();
  }
}
