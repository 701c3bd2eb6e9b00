import { describe, expect, it } from "vitest";
import { validate } from "./validate";

const venue = {
  oneOf: [
    {
      type: "object",
      title: "In person",
      properties: { kind: { const: "in_person" }, street: { type: "string" }, city: { type: "string" }, country: { enum: ["Portugal", "Spain"] } },
      required: ["kind", "street", "city"],
      additionalProperties: false,
    },
    {
      type: "object",
      title: "Online",
      properties: { kind: { const: "online" }, url: { type: "string", format: "uri" } },
      required: ["kind", "url"],
      additionalProperties: false,
    },
  ],
};
const schema = { type: "object", properties: { venue, places: { type: "array", items: venue } }, additionalProperties: false };

const errorsOf = (value: unknown, s: Record<string, unknown> = schema) => {
  const r = validate(s, value);
  return r.valid ? [] : r.errors;
};

describe("only the chosen oneOf/anyOf branch is reported", () => {
  it("an empty in-person venue gets the in-person errors, not the online ones", () => {
    expect(errorsOf({ venue: { kind: "in_person" } })).toEqual([
      { path: "/venue/street", message: "is required" },
      { path: "/venue/city", message: "is required" },
    ]);
  });

  it("the discriminator picks the branch even when another branch has fewer errors", () => {
    expect(errorsOf({ venue: { kind: "online", street: "x", city: "y" } })).toEqual([
      { path: "/venue/url", message: "is required" },
      { path: "/venue/street", message: "is not an allowed property" },
      { path: "/venue/city", message: "is not an allowed property" },
    ]);
  });

  it("a wrong value of an ordinary enum stays an error of the chosen branch", () => {
    expect(errorsOf({ venue: { kind: "in_person", street: "x", city: "y", country: "Atlantis" } })).toEqual([
      { path: "/venue/country", message: 'must be one of "Portugal", "Spain"' },
    ]);
  });

  it("without a matching discriminator, the branch with the fewest errors is reported", () => {
    expect(errorsOf({ venue: { url: "https://example.com" } })).toEqual([{ path: "/venue/kind", message: "is required" }]);
  });

  it("anyOf without a discriminator: a member that fails its own rule points at its branch, not at one that merely lacks a member", () => {
    const contact = {
      type: "object",
      properties: {
        contact: {
          anyOf: [
            { type: "object", properties: { email: { type: "string", format: "email" } }, required: ["email"] },
            { type: "object", properties: { phone: { type: "string", pattern: "^\\+[0-9]{6,15}$" } }, required: ["phone"] },
          ],
        },
      },
    };
    expect(errorsOf({ contact: { phone: "12" } }, contact)).toEqual([{ path: "/contact/phone", message: 'must match pattern "^\\+[0-9]{6,15}$"' }]);
    expect(errorsOf({ contact: { email: "nope" } }, contact)).toEqual([{ path: "/contact/email", message: 'must match format "email"' }]);
    expect(errorsOf({ contact: {} }, contact)).toEqual([{ path: "/contact/email", message: "is required" }]);
  });

  it("each array item gets its own branch", () => {
    expect(errorsOf({ places: [{ kind: "online" }, { kind: "in_person", street: "s" }] })).toEqual([
      { path: "/places/0/url", message: "is required" },
      { path: "/places/1/city", message: "is required" },
    ]);
  });

  it("a value that matches several oneOf branches keeps the summary", () => {
    const twice = { oneOf: [{ type: "integer" }, { type: "number" }] };
    expect(errorsOf(1, twice)).toEqual([{ path: "", message: "must match exactly one schema in oneOf" }]);
  });

  it("anyOf of types: a value of the wrong type of every branch reports the first", () => {
    expect(errorsOf("x", { anyOf: [{ type: "integer" }, { type: "boolean" }] })).toEqual([{ path: "", message: "must be integer" }]);
  });

  it("a nested composition inside the dropped branch goes with it", () => {
    const nested = {
      oneOf: [
        { type: "object", properties: { k: { const: "a" }, v: { oneOf: [{ type: "string" }, { type: "integer" }] } }, required: ["k"] },
        { type: "object", properties: { k: { const: "b" }, w: { type: "string" } }, required: ["k", "w"] },
      ],
    };
    expect(errorsOf({ k: "a", v: true }, nested)).toEqual([{ path: "/v", message: "must be string" }]);
    expect(errorsOf({ k: "b" }, nested)).toEqual([{ path: "/w", message: "is required" }]);
  });
});

describe("if/then/else", () => {
  const conditional = {
    type: "object",
    properties: { repeat: { enum: ["daily", "weekly"] } },
    if: { required: ["repeat"] },
    then: { properties: { occurrences: { type: "integer", minimum: 2 } }, required: ["occurrences"] },
    else: { not: { required: ["occurrences"] } },
  };
  it("reports the branch's own errors, not 'must match \"then\" schema'", () => {
    expect(errorsOf({ repeat: "daily" }, conditional)).toEqual([{ path: "/occurrences", message: "is required" }]);
    expect(errorsOf({ repeat: "daily", occurrences: 1 }, conditional)).toEqual([{ path: "/occurrences", message: "must be >= 2" }]);
  });
});
