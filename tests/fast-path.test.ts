import { describe, expect, it } from "vitest";
import { unstable_doesMiddlewareMatch } from "next/experimental/testing/server";
import { config } from "../proxy";
import { ROUTES } from "../lib/auth/routes";
import { FAST_ROUTES, matchFastRoute } from "../lib/http/fast-path";
import { HANDLERS } from "../scripts/fast-routes";

// One table of hot paths (lib/http/fast-path.ts); proxy.ts's matcher (a literal Next requires), the
// route declarations and the bundle the production server loads must all say the same.
const sample: Record<string, string> = { "[name]": "add", "[id]": "00000000-0000-4000-8000-000000000000", "[preset]": "p", "[...all]": "get-session" };
const urlOf = (pattern: string) =>
  pattern
    .split("/")
    .map((s) => sample[s] ?? s)
    .join("/") || "/";
const proxied = (url: string) => unstable_doesMiddlewareMatch({ config, url });

describe("the hot paths", () => {
  it("are declared routes, with their methods", () => {
    for (const f of FAST_ROUTES) {
      const route = ROUTES.find((r) => r.pattern === f.pattern);
      expect(route, f.pattern).toBeDefined();
      for (const m of f.methods) expect(route!.methods[m], `${m} ${f.pattern}`).toBeDefined();
    }
  });

  it("skip proxy.ts exactly where the table says, and every other route passes it", () => {
    for (const f of FAST_ROUTES) expect(proxied(urlOf(f.pattern)), f.pattern).toBe(!f.unproxied);
    // A name the fast path leaves to Next goes through the proxy, whose URL checks answer it.
    expect(proxied("/api/tools/a%20b/run")).toBe(true);
    for (const r of ROUTES.filter((r) => !FAST_ROUTES.some((f) => f.pattern === r.pattern))) expect(proxied(urlOf(r.pattern)), r.pattern).toBe(true);
  });

  it("have a handler each in the production server's bundle, and nothing else is in it", () => {
    expect(Object.keys(HANDLERS).sort()).toEqual(FAST_ROUTES.map((f) => f.pattern).sort());
    for (const f of FAST_ROUTES) {
      // Unproxied routes answer their other methods themselves, as the proxy would.
      const methods = f.unproxied ? ["GET", "POST", "PUT", "PATCH", "DELETE"] : f.methods;
      for (const m of methods) expect(typeof HANDLERS[f.pattern]![m], `${m} ${f.pattern}`).toBe("function");
    }
  });

  it("are matched by the server's router for every declared method of a sample path", () => {
    for (const f of FAST_ROUTES) for (const m of f.methods) expect(matchFastRoute(m, urlOf(f.pattern))?.route.pattern).toBe(f.pattern);
  });
});
