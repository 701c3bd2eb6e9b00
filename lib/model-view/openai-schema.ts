/**
 * What both OpenAI targets share: the function's `parameters`, as declared or rewritten for
 * strict mode (lib/model-view/strict.ts, OPENAI_STRICT), and the rules the API holds every
 * function to, strict or not. Function calling: https://platform.openai.com/docs/guides/function-calling;
 * strict mode's schema subset: https://platform.openai.com/docs/guides/structured-outputs#supported-schemas.
 * The API's own 400 answers (`invalid_function_parameters`) are quoted in the messages: the
 * guide states the root rule, the answers spell out what it and the array rule refuse. Pure.
 */
import { esc, isObj } from "./schema-util";
import { OPENAI_STRICT, strictSchema } from "./strict";
import type { JsonSchema, LintItem } from "./types";

export const OPENAI_FUNCTIONS_DOC = "https://platform.openai.com/docs/guides/function-calling";

const ROOT_COMBINATORS = ["oneOf", "anyOf", "allOf", "enum", "const", "not"] as const;
/** Where a JSON Schema holds subschemas: one, a list, or a map of them. */
const ONE = [
  "items",
  "additionalProperties",
  "not",
  "if",
  "then",
  "else",
  "contains",
  "propertyNames",
  "unevaluatedItems",
  "unevaluatedProperties",
  "additionalItems",
];
const LIST = ["prefixItems", "anyOf", "oneOf", "allOf"];
const MAP = ["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"];

/**
 * What the API refuses in function parameters sent as declared: a root that is not one object,
 * and arrays without `items`. A strict rewrite that succeeds has neither (strict.ts refuses both).
 */
export function openAiBaseRules(input: JsonSchema): LintItem[] {
  const lint: LintItem[] = [];
  const reject = (pointer: string, keyword: string, message: string) =>
    lint.push({ severity: "rejected", pointer, keyword, message, doc: OPENAI_FUNCTIONS_DOC });
  lint.push(...rootTypeRule(input));
  for (const k of ROOT_COMBINATORS) {
    if (input[k] !== undefined)
      reject(
        "",
        k,
        `OpenAI refuses \`${k}\` at the top of function parameters (the API answers "schema must have type 'object' and not have 'oneOf'/'anyOf'/'allOf'/'enum'/'not' at the top level"); declare one object with every variant's properties and tell the variants apart in the description.`,
      );
  }
  const visit = (s: unknown, ptr: string) => {
    if (!isObj(s)) return;
    const types = Array.isArray(s.type) ? s.type : [s.type];
    if (types.includes("array") && s.items === undefined) {
      reject(
        ptr,
        "items",
        `An array without \`items\`: OpenAI refuses it (the API answers "array schema missing items"); declare \`items\`, the schema of each element.`,
      );
    }
    for (const k of ONE) visit(s[k], `${ptr}/${k}`);
    for (const k of LIST) if (Array.isArray(s[k])) (s[k] as unknown[]).forEach((m, i) => visit(m, `${ptr}/${k}/${i}`));
    for (const k of MAP) if (isObj(s[k])) for (const [n, m] of Object.entries(s[k] as JsonSchema)) visit(m, `${ptr}/${k}/${esc(n)}`);
  };
  visit(input, "");
  return lint;
}

/** The root must be `type: "object"` (a missing type included). */
function rootTypeRule(schema: JsonSchema): LintItem[] {
  if (schema.type === "object") return [];
  const type = schema.type === undefined ? "missing" : JSON.stringify(schema.type);
  return [
    {
      severity: "rejected",
      pointer: "",
      keyword: "type",
      message: `OpenAI function parameters must be a JSON Schema object (the API answers "schema must be a JSON Schema of 'type: object'"; here type is ${type}); declare \`type: "object"\` at the root.`,
      doc: OPENAI_FUNCTIONS_DOC,
    },
  ];
}

export function openAiParameters(input: JsonSchema, strict: boolean): { parameters: JsonSchema; strict: boolean; strictReason?: string; lint: LintItem[] } {
  if (!strict) return { parameters: input, strict: false, lint: openAiBaseRules(input) };
  const r = strictSchema(input, OPENAI_STRICT);
  if (!r.strict) return { parameters: input, strict: false, strictReason: r.reason, lint: [...openAiBaseRules(input), ...r.lint] };
  // Sent rewritten (strict.ts closes the root as an object, or fails): only a root of another type is still refused.
  return { parameters: r.schema, strict: true, lint: [...rootTypeRule(r.schema), ...r.lint] };
}
