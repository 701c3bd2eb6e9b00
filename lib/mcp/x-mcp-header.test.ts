import { describe, expect, it } from "vitest";
import { encodeMcpParamValue, mcpParamHeaders, scanXMcpHeaders, type XMcpHeaderScan } from "./x-mcp-header";

const obj = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({ type: "object", properties, ...extra });
const reason = (scan: XMcpHeaderScan) => (scan.valid ? "" : scan.reason);

describe("x-mcp-header validation", () => {
  it("accepts schemas without annotations, and non-object schemas", () => {
    expect(scanXMcpHeaders(obj({ a: { type: "string" } }))).toEqual({ valid: true, declarations: [] });
    expect(scanXMcpHeaders(undefined)).toEqual({ valid: true, declarations: [] });
    expect(scanXMcpHeaders({ type: "object" })).toEqual({ valid: true, declarations: [] });
  });

  it("collects string, integer and boolean declarations, nested through properties", () => {
    const scan = scanXMcpHeaders(
      obj({
        region: { type: "string", "x-mcp-header": "Region" },
        n: { type: "integer", "x-mcp-header": "Count" },
        dry: { type: "boolean", "x-mcp-header": "Dry-Run" },
        target: obj({ id: { type: "string", "x-mcp-header": "Target.Id_2" } }),
        other: { type: "number" },
      }),
    );
    expect(scan).toEqual({
      valid: true,
      declarations: [
        { path: ["region"], token: "Region", type: "string" },
        { path: ["n"], token: "Count", type: "integer" },
        { path: ["dry"], token: "Dry-Run", type: "boolean" },
        { path: ["target", "id"], token: "Target.Id_2", type: "string" },
      ],
    });
  });

  it("accepts every RFC 9110 tchar", () => {
    expect(scanXMcpHeaders(obj({ a: { type: "string", "x-mcp-header": "!#$%&'*+-.^_`|~09azAZ" } })).valid).toBe(true);
  });

  it.each([
    ["empty", ""],
    ["a space", "My Header"],
    ["a colon", "a:b"],
    ["a slash", "a/b"],
    ["parentheses", "a(b)"],
    ["a comma", "a,b"],
    ["a quote", 'a"b'],
    ["CR LF", "a\r\nX-Evil: 1"],
    ["a tab", "a\tb"],
    ["non-ASCII", "Régión"],
    ["brackets", "a[b]"],
    ["an equals sign", "a=b"],
    ["braces", "{a}"],
  ])("rejects a token with %s", (_what, token) => {
    const scan = scanXMcpHeaders(obj({ a: { type: "string", "x-mcp-header": token } }));
    expect(scan.valid).toBe(false);
  });

  it.each([[42], [true], [null], [{}], [["A"]]])("rejects a non-string annotation %j", (value) => {
    const scan = scanXMcpHeaders(obj({ a: { type: "string", "x-mcp-header": value } }));
    expect(reason(scan)).toMatch(/non-empty string/);
  });

  it("rejects tokens that repeat without regard to case", () => {
    const scan = scanXMcpHeaders(obj({ a: { type: "string", "x-mcp-header": "Region" }, b: obj({ c: { type: "string", "x-mcp-header": "REGION" } }) }));
    expect(reason(scan)).toMatch(/"REGION".*duplicates "Region"/);
  });

  it.each([
    ["number", { type: "number" }],
    ["object", { type: "object", properties: {} }],
    ["array", { type: "array", items: { type: "string" } }],
    ["null", { type: "null" }],
    ["no type", {}],
    ["a type list", { type: ["string", "null"] }],
  ])("rejects an annotation on a property of type %s", (_what, schema) => {
    const scan = scanXMcpHeaders(obj({ a: { ...schema, "x-mcp-header": "A" } }));
    expect(reason(scan)).toMatch(/only string, integer or boolean/);
  });

  it("rejects an annotation on the root", () => {
    expect(reason(scanXMcpHeaders({ type: "string", "x-mcp-header": "Root" }))).toMatch(/root/);
  });

  it.each([
    ["inside array items", obj({ tags: { type: "array", items: { type: "string", "x-mcp-header": "Tag" } } })],
    ["inside prefixItems", obj({ t: { type: "array", prefixItems: [{ type: "string", "x-mcp-header": "T" }] } })],
    ["inside additionalProperties", obj({ m: { type: "object", additionalProperties: { type: "string", "x-mcp-header": "M" } } })],
    ["inside patternProperties", obj({ m: { type: "object", patternProperties: { "^x": { type: "string", "x-mcp-header": "M" } } } })],
    ["in $defs (reached by $ref)", { ...obj({ a: { $ref: "#/$defs/A" } }), $defs: { A: { type: "string", "x-mcp-header": "A" } } }],
    ["in definitions", { ...obj({ a: { $ref: "#/definitions/A" } }), definitions: { A: { type: "string", "x-mcp-header": "A" } } }],
    ["under oneOf", obj({ a: { oneOf: [{ type: "string", "x-mcp-header": "A" }, { type: "integer" }] } })],
    ["under anyOf", { type: "object", anyOf: [obj({ a: { type: "string", "x-mcp-header": "A" } })] }],
    ["under allOf", { type: "object", allOf: [obj({ a: { type: "string", "x-mcp-header": "A" } })] }],
    ["under not", obj({ a: { type: "string", not: { type: "string", "x-mcp-header": "A" } } })],
    ["under if/then", { type: "object", if: obj({ a: { const: 1 } }), then: obj({ b: { type: "string", "x-mcp-header": "B" } }) }],
    ["properties under items", obj({ list: { type: "array", items: obj({ id: { type: "string", "x-mcp-header": "Id" } }) } })],
    ["under dependentSchemas", { type: "object", dependentSchemas: { a: obj({ b: { type: "string", "x-mcp-header": "B" } }) } }],
  ])("rejects an annotation %s", (_what, schema) => {
    const scan = scanXMcpHeaders(schema);
    expect(scan.valid).toBe(false);
    expect(reason(scan)).toMatch(/only allowed on properties reached from the root through "properties" alone/);
  });

  it("does not mistake data (default, examples, const, enum) for annotations", () => {
    const scan = scanXMcpHeaders(
      obj({ a: { type: "object", default: { "x-mcp-header": "nope" }, examples: [{ "x-mcp-header": "x y" }] }, b: { const: { "x-mcp-header": 1 } } }),
    );
    expect(scan).toEqual({ valid: true, declarations: [] });
  });

  it("does not mistake a property NAMED x-mcp-header for an annotation", () => {
    const scan = scanXMcpHeaders(obj({ "x-mcp-header": { type: "string" } }));
    expect(scan).toEqual({ valid: true, declarations: [] });
  });
});

describe("Mcp-Param headers", () => {
  const declarations = [
    { path: ["region"], token: "Region", type: "string" as const },
    { path: ["count"], token: "Count", type: "integer" as const },
    { path: ["dry"], token: "Dry-Run", type: "boolean" as const },
    { path: ["target", "id"], token: "Target-Id", type: "string" as const },
  ];

  it("mirrors present values, booleans and integers as JSON text", () => {
    expect(mcpParamHeaders(declarations, { region: "eu-west-1", count: 3, dry: false, target: { id: "abc" } })).toEqual({
      "Mcp-Param-Region": "eu-west-1",
      "Mcp-Param-Count": "3",
      "Mcp-Param-Dry-Run": "false",
      "Mcp-Param-Target-Id": "abc",
    });
  });

  it("omits absent, null and mistyped values", () => {
    expect(mcpParamHeaders(declarations, { region: null, count: 1.5, dry: "yes", target: "abc" })).toEqual({});
    expect(mcpParamHeaders(declarations, undefined)).toEqual({});
  });

  it("base64-wraps values that are not plain visible ASCII", () => {
    expect(encodeMcpParamValue("plain value")).toBe("plain value");
    expect(encodeMcpParamValue("Zürich")).toBe(`=?base64?${Buffer.from("Zürich").toString("base64")}?=`);
    expect(encodeMcpParamValue(" padded")).toMatch(/^=\?base64\?/);
    expect(encodeMcpParamValue("")).toBe("=?base64??=");
    expect(encodeMcpParamValue("a\r\nb")).toMatch(/^=\?base64\?/);
    expect(encodeMcpParamValue("=?base64?abc?=")).toMatch(/^=\?base64\?PT9iYXNlNjQ/);
  });
});
