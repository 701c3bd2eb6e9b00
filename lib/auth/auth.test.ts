import { describe, expect, it } from "vitest";
import { guardConfigFromEnv } from "../http/guard";
import { passDoor, type DoorDeps } from "./door";
import { globMatch, needsConfirmation, requiredRunRole } from "./policy";
import type { Identification, Principal } from "./principal";
import { lowerRole, roleAtLeast } from "./roles";
import { findRoute, ROUTES } from "./routes";
import { bearerToken, sameSecret } from "./secret-compare";

const spec = (name: string, source = "builtin", annotations: Record<string, boolean> = {}) => ({
  name,
  source: source === "builtin" ? ({ kind: "builtin", id: "builtin" } as const) : ({ kind: "mcp", id: source, server: source.slice(4) } as const),
  annotations,
});

describe("roles", () => {
  it("are ordered viewer < runner < admin", () => {
    expect(roleAtLeast("admin", "runner")).toBe(true);
    expect(roleAtLeast("runner", "admin")).toBe(false);
    expect(roleAtLeast("viewer", "viewer")).toBe(true);
    expect(lowerRole("admin", "runner")).toBe("runner");
  });
});

describe("run policy", () => {
  const rules = [
    { annotation: "destructive" as const, role: "admin" as const },
    { tool: "github_*", role: "admin" as const },
    { source: "mcp:sandbox", role: "viewer" as const },
  ];
  it("requires runner when no rule matches", () => {
    expect(requiredRunRole(spec("add"), rules)).toEqual({ role: "runner", rule: null });
  });
  it("matches by annotation, tool glob and source; the highest role wins", () => {
    expect(requiredRunRole(spec("wipe", "builtin", { destructiveHint: true }), rules).role).toBe("admin");
    expect(requiredRunRole(spec("github_merge", "mcp:gh"), rules).role).toBe("admin");
    expect(requiredRunRole(spec("sandbox_echo", "mcp:sandbox"), rules).role).toBe("runner");
    expect(requiredRunRole(spec("sandbox_echo", "mcp:sandbox"), [{ source: "mcp:sandbox", role: "viewer" }]).role).toBe("runner");
    expect(requiredRunRole(spec("github_x", "mcp:sandbox", { destructiveHint: true }), rules).rule).toEqual(rules[0]);
  });
  it("globs are whole-string with * and ?", () => {
    expect(globMatch("github_*", "github_merge")).toBe(true);
    expect(globMatch("github_*", "my_github_merge")).toBe(false);
    expect(globMatch("a?c", "abc")).toBe(true);
    expect(globMatch("a.c", "abc")).toBe(false);
    expect(globMatch("mcp:*", "mcp:everything")).toBe(true);
  });
  it("destructive means destructiveHint true and not read-only, by the tool's own word", () => {
    expect(needsConfirmation({ annotations: { destructiveHint: true } })).toBe(true);
    expect(needsConfirmation({ annotations: { destructiveHint: true, readOnlyHint: true } })).toBe(false);
    expect(needsConfirmation({ annotations: {} })).toBe(false);
    expect(needsConfirmation({})).toBe(false);
  });
});

describe("routes", () => {
  it("finds the declared route, static segments first", () => {
    expect(findRoute("/runs/compare")?.pattern).toBe("/runs/compare");
    expect(findRoute("/runs/123")?.pattern).toBe("/runs/[id]");
    expect(findRoute("/api/auth/sign-in/email")?.pattern).toBe("/api/auth/[...all]");
    expect(findRoute("/api/tools/add/presets/p1")?.pattern).toBe("/api/tools/[name]/presets/[preset]");
    expect(findRoute("/nothing/here")).toBeNull();
  });
  it("every route declares at least one method, and only sign-in, the setup link and the health check are public", () => {
    for (const r of ROUTES) expect(Object.keys(r.methods).length).toBeGreaterThan(0);
    const open = ROUTES.filter((r) => Object.values(r.methods).includes("public")).map((r) => r.pattern);
    expect(open.sort()).toEqual(["/api/auth/[...all]", "/api/health", "/setup", "/sign-in"]);
  });
});

describe("secrets", () => {
  it("compares in constant time and reads bearer headers", () => {
    expect(sameSecret("abc", "abc")).toBe(true);
    expect(sameSecret("abc", "abcd")).toBe(false);
    expect(bearerToken("Bearer tok-1")).toBe("tok-1");
    expect(bearerToken("bearer  tok-1 ")).toBe("tok-1");
    expect(bearerToken("Basic xyz")).toBeNull();
  });
});

describe("the door", () => {
  const who = (role: Principal["role"]): Principal => ({ via: "token", role, userId: "u", actor: "u@example.com", name: "U", tokenId: "t", tokenName: "t" });
  const deps = (id: Identification): DoorDeps => ({ guard: guardConfigFromEnv({}), identify: async () => id });
  const req = (method: string, pathname: string, headers: Record<string, string> = {}) => ({
    method,
    pathname,
    headers: new Headers({ host: "127.0.0.1:3000", ...headers }),
  });

  it("401 for anonymous callers, even on paths that do not exist", async () => {
    expect(await passDoor(req("GET", "/api/tools"), deps({ principal: null }))).toMatchObject({ admit: false, kind: "unauthenticated" });
    expect(await passDoor(req("GET", "/api/nope"), deps({ principal: null }))).toMatchObject({ kind: "unauthenticated" });
    expect(await passDoor(req("GET", "/runs"), deps({ principal: null }))).toMatchObject({ kind: "unauthenticated", page: true });
  });
  it("says why a token was refused", async () => {
    expect(await passDoor(req("GET", "/api/tools"), deps({ principal: null, problem: "expired", message: 'The API token "ci" expired' }))).toMatchObject({
      kind: "unauthenticated",
      message: expect.stringMatching(/expired/),
    });
  });
  it("403 when the role is too low, naming the role needed", async () => {
    const a = await passDoor(req("POST", "/api/servers"), deps({ principal: who("runner") }));
    expect(a).toMatchObject({ kind: "forbidden" });
    expect(!a.admit && a.message).toMatch(/needs the admin role/);
    expect(await passDoor(req("POST", "/api/tools/add/run"), deps({ principal: who("viewer") }))).toMatchObject({ kind: "forbidden" });
    expect(await passDoor(req("POST", "/api/tools/add/run"), deps({ principal: who("runner") }))).toMatchObject({ admit: true });
  });
  it("public routes need nobody; unknown paths are 404 and undeclared methods 405 for known callers", async () => {
    expect(await passDoor(req("POST", "/api/auth/sign-in/email"), deps({ principal: null }))).toMatchObject({ admit: true, principal: null });
    expect(await passDoor(req("GET", "/api/nope"), deps({ principal: who("admin") }))).toMatchObject({ kind: "not_found" });
    expect(await passDoor(req("DELETE", "/api/tools"), deps({ principal: who("admin") }))).toMatchObject({ kind: "method_not_allowed", allow: "GET" });
  });
  it("a foreign Host or a cross-site write is refused before anything else", async () => {
    expect(await passDoor(req("GET", "/api/tools", { host: "evil.example" }), deps({ principal: who("admin") }))).toMatchObject({ kind: "forbidden" });
    expect(await passDoor(req("POST", "/api/tools/add/run", { origin: "https://evil.example" }), deps({ principal: who("admin") }))).toMatchObject({
      kind: "forbidden",
    });
    expect(await passDoor(req("GET", "/sign-in", { host: "evil.example" }), deps({ principal: null }))).toMatchObject({ kind: "forbidden" });
  });
});
