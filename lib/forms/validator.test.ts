import { describe, expect, it } from "vitest";
import type { RJSFSchema } from "@rjsf/utils";
import { createSchemaUtils } from "@rjsf/utils";
import { createEventTool } from "../builtin-tools/create-event";
import { InterpretingValidator } from "./validator";

const event = createEventTool.spec.inputSchema as RJSFSchema;

describe("InterpretingValidator (RJSF's validator without code generation)", () => {
  it("answers if/then/else conditions, so dependent fields appear", () => {
    const utils = createSchemaUtils(new InterpretingValidator(), event);
    expect(Object.keys(utils.retrieveSchema(event, { repeat: "weekly" }).properties!)).toContain("occurrences");
    expect(Object.keys(utils.retrieveSchema(event, {}).properties!)).not.toContain("occurrences");
  });

  it("resolves a sub-schema's #/ references against the root schema", () => {
    const v = new InterpretingValidator();
    const attendees = event.properties!.attendees as RJSFSchema;
    expect(v.isValid(attendees, [{ name: "Ada" }], event)).toBe(true);
    expect(v.isValid(attendees, [{ email: "x@example.com" }], event)).toBe(false);
  });

  it("picks the oneOf branch pasted data matches", () => {
    const utils = createSchemaUtils(new InterpretingValidator(), event);
    const venue = event.properties!.venue as RJSFSchema;
    const options = venue.oneOf as RJSFSchema[];
    expect(utils.getClosestMatchingOption({ kind: "online", url: "https://x.example", platform: "zoom" }, options, 0)).toBe(1);
    expect(utils.getClosestMatchingOption({ kind: "in_person", street: "s", city: "c", country: "Spain" }, options, 1)).toBe(0);
  });

  it("checks formats and reports field-level errors", () => {
    const v = new InterpretingValidator();
    const schema: RJSFSchema = { type: "object", properties: { mail: { type: "string", format: "email" }, n: { type: "integer" } }, required: ["n"] };
    expect(v.isValid(schema, { mail: "nope", n: 1 }, schema)).toBe(false);
    const { errorSchema: es, errors } = v.validateFormData({ mail: "nope" }, schema);
    const errorSchema = es as Record<string, { __errors?: string[] }>;
    expect(errorSchema.n?.__errors).toEqual(["is required"]);
    expect(errorSchema.mail?.__errors?.length).toBe(1);
    expect(errors.map((e) => e.property).sort()).toEqual([".mail", ".n"]);
    expect(v.validateFormData({ n: 2 }, schema).errors).toEqual([]);
  });

  it("a schema it cannot read matches nothing", () => {
    const v = new InterpretingValidator();
    const broken = { $ref: "#/$defs/missing" } as RJSFSchema;
    expect(v.isValid(broken, 1, broken)).toBe(false);
    expect(v.rawValidation(broken, 1).validationError).toBeInstanceOf(Error);
  });
});

describe("InterpretingValidator: dialects, unreadable schemas, the cache", () => {
  it("reads the dialect a schema declares (2019-09, draft-07, draft-04; 2020-12 by default)", () => {
    const v = new InterpretingValidator();
    for (const $schema of [
      "https://json-schema.org/draft/2019-09/schema",
      "http://json-schema.org/draft-07/schema#",
      "http://json-schema.org/draft-04/schema#",
      undefined,
    ]) {
      const schema = { ...($schema ? { $schema } : {}), type: "object", properties: { n: { type: "integer" } }, required: ["n"] } as RJSFSchema;
      expect(v.isValid(schema, { n: 1 }, schema)).toBe(true);
      expect(v.isValid(schema, { n: "x" }, schema)).toBe(false);
    }
  });

  it("an unreadable schema matches nothing and says why as a form error", () => {
    const v = new InterpretingValidator();
    const broken = { type: "object", properties: { a: { $ref: "#/$defs/missing" } } } as RJSFSchema;
    expect(v.isValid(broken, { a: 1 }, broken)).toBe(false);
    const r = v.validateFormData({ a: 1 }, broken);
    expect(r.errors[0]?.message).toMatch(/.+/);
    expect(JSON.stringify(r.errorSchema)).toContain("The schema cannot be read");
  });

  it("reports a missing member on the member, and forgets its compiled schemas on reset", () => {
    const v = new InterpretingValidator();
    const schema = { type: "object", properties: { a: { type: "object", properties: { "b/c": { type: "string" } }, required: ["b/c"] } } } as RJSFSchema;
    const r = v.validateFormData({ a: {} }, schema);
    expect(r.errors.map((e) => e.property)).toEqual([".a.b/c"]);
    expect(v.validateFormData({ a: { "b/c": "x" } }, schema).errors).toEqual([]);
    v.reset();
    expect(v.isValid(schema, { a: { "b/c": "x" } }, schema)).toBe(true);
  });
});
