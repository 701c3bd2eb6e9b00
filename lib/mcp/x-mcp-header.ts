/**
 * `x-mcp-header` (MCP 2026-07-28, Streamable HTTP "Schema Extension"): a tool's input schema may
 * mark primitive properties whose argument values the client mirrors into `Mcp-Param-<token>`
 * request headers. A tool whose annotations break the rules must be excluded from the tool list.
 *
 * The rules checked here:
 * - the annotation is a non-empty RFC 9110 token;
 * - tokens are unique within the tool without regard to case;
 * - it sits only on a property reached from the root through `properties` alone (any depth),
 *   never on the root, and never under items / additionalProperties / $defs / oneOf / anyOf /
 *   allOf / not / if-then-else / patternProperties / ... (so not inside arrays nor behind $ref);
 * - the annotated property's `type` is exactly "string", "integer" or "boolean".
 */

export const X_MCP_HEADER = "x-mcp-header";
export const MCP_PARAM_PREFIX = "Mcp-Param-";

/** RFC 9110 section 5.6.2 token: 1*tchar. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const ALLOWED_TYPES = new Set(["string", "integer", "boolean"]);

/** Keywords whose subschemas are NOT on the `properties`-only path. */
const OFF_PATH_SINGLE = [
  "items",
  "additionalProperties",
  "unevaluatedProperties",
  "unevaluatedItems",
  "contains",
  "propertyNames",
  "not",
  "if",
  "then",
  "else",
  "additionalItems",
];
const OFF_PATH_ARRAY = ["prefixItems", "oneOf", "anyOf", "allOf"];
const OFF_PATH_MAP = ["$defs", "definitions", "patternProperties", "dependentSchemas", "dependencies"];

export type XMcpHeaderType = "string" | "integer" | "boolean";

export interface XMcpHeaderDeclaration {
  /** Property names from the root of the arguments to the annotated property. */
  path: string[];
  /** The token as declared (the header is `Mcp-Param-<token>`). */
  token: string;
  type: XMcpHeaderType;
}

export type XMcpHeaderScan = { valid: true; declarations: XMcpHeaderDeclaration[] } | { valid: false; reason: string };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const where = (path: string[]) => (path.length ? `/${path.join("/")}` : "the root");

/** Checks every `x-mcp-header` annotation of an input schema; returns the declarations or the first fault. */
export function scanXMcpHeaders(inputSchema: unknown): XMcpHeaderScan {
  const declarations: XMcpHeaderDeclaration[] = [];
  const seen = new Map<string, string>(); // lowercase token -> as declared
  let fault: string | undefined;

  const visit = (node: unknown, path: string[], onPath: boolean, via: string | null): void => {
    if (fault !== undefined) return;
    if (Array.isArray(node)) {
      for (const item of node) visit(item, path, false, via);
      return;
    }
    if (!isObject(node)) return;

    if (Object.prototype.hasOwnProperty.call(node, X_MCP_HEADER)) {
      const raw = node[X_MCP_HEADER];
      if (!onPath || path.length === 0) {
        fault =
          path.length === 0 && onPath
            ? `x-mcp-header is not allowed on the root schema`
            : `x-mcp-header at ${where(path)} is under "${via}": it is only allowed on properties reached from the root through "properties" alone`;
        return;
      }
      if (typeof raw !== "string" || raw.length === 0) {
        fault = `x-mcp-header at ${where(path)} must be a non-empty string`;
        return;
      }
      if (!TOKEN.test(raw)) {
        fault = `x-mcp-header "${raw}" at ${where(path)} is not a valid HTTP token (RFC 9110: no spaces, controls or delimiters)`;
        return;
      }
      const type = node.type;
      if (typeof type !== "string" || !ALLOWED_TYPES.has(type)) {
        fault = `x-mcp-header "${raw}" at ${where(path)} is on a property of type ${JSON.stringify(type ?? null)}: only string, integer or boolean are allowed`;
        return;
      }
      const lower = raw.toLowerCase();
      const prior = seen.get(lower);
      if (prior !== undefined) {
        fault = `x-mcp-header "${raw}" at ${where(path)} duplicates "${prior}" (tokens must be unique without regard to case)`;
        return;
      }
      seen.set(lower, raw);
      declarations.push({ path, token: raw, type: type as XMcpHeaderType });
    }

    if (isObject(node.properties)) {
      for (const [key, child] of Object.entries(node.properties)) visit(child, [...path, key], onPath, via);
    }
    for (const k of OFF_PATH_SINGLE) if (k in node) visit(node[k], [...path, `<${k}>`], false, k);
    for (const k of OFF_PATH_ARRAY) if (Array.isArray(node[k])) visit(node[k], [...path, `<${k}>`], false, k);
    for (const k of OFF_PATH_MAP) {
      const m = node[k];
      if (isObject(m)) for (const [key, child] of Object.entries(m)) visit(child, [...path, `<${k}>`, key], false, k);
    }
  };

  if (!isObject(inputSchema)) return { valid: true, declarations };
  visit(inputSchema, [], true, null);
  return fault === undefined ? { valid: true, declarations } : { valid: false, reason: fault };
}

const B64_PREFIX = "=?base64?";
const B64_SUFFIX = "?=";

/**
 * An argument value as an HTTP field value: plain visible ASCII passes as is; anything else
 * (non-ASCII, controls, surrounding spaces, empty, or text that looks like the sentinel itself)
 * is sent as `=?base64?<base64 of UTF-8>?=`.
 */
export function encodeMcpParamValue(value: string): string {
  let plain = value.length > 0 && value === value.trim() && !(value.startsWith(B64_PREFIX) && value.endsWith(B64_SUFFIX));
  for (let i = 0; plain && i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (!(c === 9 || (c >= 0x20 && c <= 0x7e))) plain = false;
  }
  return plain ? value : `${B64_PREFIX}${Buffer.from(value, "utf8").toString("base64")}${B64_SUFFIX}`;
}

function valueText(value: unknown, type: XMcpHeaderType): string | undefined {
  if (type === "string") return typeof value === "string" ? value : undefined;
  if (type === "boolean") return typeof value === "boolean" ? JSON.stringify(value) : undefined;
  return typeof value === "number" && Number.isSafeInteger(value) ? JSON.stringify(value) : undefined;
}

/**
 * The `Mcp-Param-<token>` headers for one call: each declared argument that is present and of its
 * declared type (booleans and integers as their JSON text). Absent or null values send no header.
 */
export function mcpParamHeaders(declarations: XMcpHeaderDeclaration[], args: Record<string, unknown> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const d of declarations) {
    let v: unknown = args;
    for (const key of d.path) v = isObject(v) ? v[key] : undefined;
    if (v === undefined || v === null) continue;
    const s = valueText(v, d.type);
    if (s !== undefined) out[`${MCP_PARAM_PREFIX}${d.token}`] = encodeMcpParamValue(s);
  }
  return out;
}
