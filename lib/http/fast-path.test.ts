import { describe, expect, it } from "vitest";
import { FAST_ROUTES, matchFastRoute } from "./fast-path";

describe("the fast path's router", () => {
  it("takes a run of a plain-named tool, with its name as the param, query or not", () => {
    expect(matchFastRoute("POST", "/api/tools/add/run")).toMatchObject({ route: { pattern: "/api/tools/[name]/run" }, params: { name: "add" } });
    expect(matchFastRoute("POST", "/api/tools/srv__read.file-2/run?x=1")?.params).toEqual({ name: "srv__read.file-2" });
  });

  it("leaves to Next a name with an escape or another character, other methods and longer paths", () => {
    expect(matchFastRoute("POST", "/api/tools/a%20b/run")).toBeNull();
    expect(matchFastRoute("POST", "/api/tools/a:b/run")).toBeNull();
    expect(matchFastRoute("GET", "/api/tools/add/run")).toBeNull();
    expect(matchFastRoute("POST", "/api/tools/add/run/x")).toBeNull();
    expect(matchFastRoute("POST", "/api/tools/add/runs")).toBeNull();
    expect(matchFastRoute("POST", "/api/tools")).toBeNull();
    expect(matchFastRoute("GET", "/api/toolsx")).toBeNull();
    expect(matchFastRoute("GET", "/api/tools/add")).toBeNull();
  });

  it("takes the list and every method of /api/mcp, and only those", () => {
    expect(matchFastRoute("GET", "/api/tools?source=builtin")?.route.gzipByEtag).toBe(true);
    for (const m of ["GET", "POST", "DELETE"]) expect(matchFastRoute(m, "/api/mcp")?.route.pattern).toBe("/api/mcp");
    expect(matchFastRoute("PUT", "/api/mcp")).toBeNull();
    expect(matchFastRoute("GET", "/api/mcp/x")).toBeNull();
  });

  it("lists each pattern once", () => {
    expect(new Set(FAST_ROUTES.map((r) => r.pattern)).size).toBe(FAST_ROUTES.length);
  });
});
