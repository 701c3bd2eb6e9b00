import { describe, expect, it } from "vitest";
import { inlineMarkdown } from "./inline-markdown";

describe("inlineMarkdown", () => {
  it("reads RJSF's own messages: code, emphasis and strong", () => {
    expect(inlineMarkdown("Unsupported field schema for field `root_a`: _Unknown field type x_.")).toEqual([
      { kind: "text", text: "Unsupported field schema for field " },
      { kind: "code", text: "root_a" },
      { kind: "text", text: ": " },
      { kind: "em", text: "Unknown field type x" },
      { kind: "text", text: "." },
    ]);
    expect(inlineMarkdown("**bold** and *soft*")).toEqual([
      { kind: "strong", text: "bold" },
      { kind: "text", text: " and " },
      { kind: "em", text: "soft" },
    ]);
  });

  it("leaves everything else as text: snake_case names, lone marks, HTML", () => {
    expect(inlineMarkdown("field snake_case_name")).toEqual([{ kind: "text", text: "field snake_case_name" }]);
    expect(inlineMarkdown("2 * 3 and a ` alone")).toEqual([{ kind: "text", text: "2 * 3 and a ` alone" }]);
    expect(inlineMarkdown("<b>x</b>")).toEqual([{ kind: "text", text: "<b>x</b>" }]);
    expect(inlineMarkdown("")).toEqual([]);
  });
});
