import { describe, expect, it } from "vitest";
import { defineTool } from "../tools/define";
import { text } from "../tools/output";
import { checkArguments, checkConfirmation, checkInput, checkPolicy, inspected } from "./checks";

const add = defineTool({
  name: "add",
  description: "adds",
  inputSchema: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"], additionalProperties: false } as const,
  async run() {
    return { content: [text("3")] };
  },
});
const wipe = defineTool({
  name: "wipe",
  description: "wipes",
  annotations: { destructiveHint: true },
  inputSchema: { type: "object" } as const,
  async run() {
    return { content: [text("gone")] };
  },
});

describe("the checks of a call", () => {
  it("arguments: an object matching the input schema, each problem a field", () => {
    expect(checkArguments(add, { a: 1, b: 2 })).toBeNull();
    expect(checkArguments(add, [1, 2])).toMatchObject({ kind: "invalid_args", fields: [{ path: "", message: "must be an object" }] });
    const e = checkArguments(add, { a: "1" });
    expect(e).toMatchObject({ kind: "invalid_args" });
    expect(e!.fields!.map((f) => f.path)).toEqual(expect.arrayContaining(["/a"]));
    expect(e!.message).toMatch(/^Invalid arguments: /);
  });

  it("a tool whose input schema does not compile is the tool's fault (provider), with the reason kept for the operator", () => {
    const broken = { ...add, spec: { ...add.spec, inputSchema: { type: "object", properties: { a: { type: 12 } } } as never } };
    expect(checkArguments(broken, { a: 1 })).toMatchObject({ kind: "provider", message: "The tool's input schema is not a valid JSON Schema." });
  });

  it("policy: a role below the rule's is refused, naming the rule and both roles; no role, no check", () => {
    const rules = [{ annotation: "destructive" as const, role: "admin" as const }];
    expect(checkPolicy({ runPolicy: () => rules }, { actor: "ada", role: "runner" }, wipe.spec)).toMatchObject({
      kind: "permission_denied",
      message: expect.stringMatching(/needs the admin role .*ada has the runner role/),
    });
    expect(checkPolicy({ runPolicy: () => rules }, { actor: "ada", role: "admin" }, wipe.spec)).toBeNull();
    expect(checkPolicy({ runPolicy: () => rules }, { actor: "ada" }, wipe.spec)).toBeNull();
    expect(checkPolicy({}, { actor: "ada", role: "runner" }, add.spec)).toBeNull();
  });

  it("confirmation: a destructive tool needs `confirmed` where the caller requires it, with how to confirm", () => {
    expect(checkConfirmation({ requireConfirmation: true }, wipe.spec)).toMatchObject({
      kind: "invalid_args",
      fields: [{ path: "/confirm", message: "must be true for a destructive tool" }],
      message: expect.stringContaining('"confirm": true'),
    });
    expect(checkConfirmation({ requireConfirmation: true, confirmHow: "answer the prompt" }, wipe.spec)!.message).toContain("answer the prompt");
    expect(checkConfirmation({ requireConfirmation: true, confirmed: true }, wipe.spec)).toBeNull();
    expect(checkConfirmation({}, wipe.spec)).toBeNull();
    expect(checkConfirmation({ requireConfirmation: true }, add.spec)).toBeNull();
  });

  it("input: arguments nobody inspected are; a NUL in a key is a problem and the stored copy is escaped", () => {
    const bad = { ["k\u0000"]: 1 };
    const i = inspected({ arguments: bad });
    expect(i.problems.length).toBeGreaterThan(0);
    // The NUL is written as its escape, in text PostgreSQL can store.
    expect(Object.keys(i.arguments as object)).toEqual(["k\\u0000"]);
    expect(checkInput(i.problems)).toMatchObject({ kind: "invalid_args", message: expect.stringContaining("stored altered for storage") });
    // Inspected by the caller already: taken as found.
    expect(inspected({ arguments: bad, inputProblems: [] })).toEqual({ arguments: bad, problems: [] });
    expect(inspected({ arguments: undefined }).arguments).toEqual({});
    expect(checkInput([])).toBeNull();
  });
});
