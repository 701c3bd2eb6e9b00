import { describe, expect, it } from "vitest";
import { expandTemplate, templateVariables } from "./uri-template";

describe("templateVariables", () => {
  it("finds each variable once, without operators or modifiers", () => {
    expect(templateVariables("test://template/{id}/data")).toEqual(["id"]);
    expect(templateVariables("file:///{+path}{?q,lang:2}{&page*}{#frag}{id}")).toEqual(["path", "q", "lang", "page", "frag", "id"]);
    expect(templateVariables("plain://no/variables")).toEqual([]);
  });
});

describe("expandTemplate", () => {
  it("expands per RFC 6570, encoding reserved characters in simple expansion only", () => {
    expect(expandTemplate("test://template/{id}/data", { id: "a b/c" })).toBe("test://template/a%20b%2Fc/data");
    expect(expandTemplate("file:///{+path}", { path: "a/b c" })).toBe("file:///a/b%20c");
    expect(expandTemplate("x://s{?q,lang}", { q: "hi", lang: "" })).toBe("x://s?q=hi");
  });
});
