import { describe, expect, it } from "vitest";
import { bindProblem, checkRequest, guardConfigFromEnv } from "./guard";

const local = guardConfigFromEnv({});
const req = (over: Partial<Parameters<typeof checkRequest>[0]>) => ({ method: "POST", host: "127.0.0.1:3000", origin: null, secFetchSite: null, ...over });

describe("request guard", () => {
  it("lets curl and same-origin pages through", () => {
    expect(checkRequest(req({}), local)).toBeNull();
    expect(checkRequest(req({ origin: "http://127.0.0.1:3000", secFetchSite: "same-origin" }), local)).toBeNull();
    expect(checkRequest(req({ host: "localhost:3000", origin: "http://localhost:3000" }), local)).toBeNull();
  });

  it("refuses writes from other sites", () => {
    expect(checkRequest(req({ origin: "https://evil.example" }), local)).toMatch(/Cross-origin request from https:\/\/evil.example refused/);
    expect(checkRequest(req({ secFetchSite: "cross-site" }), local)).toMatch(/Cross-site/);
    expect(checkRequest(req({ origin: "null" }), local)).toMatch(/opaque origin/);
    expect(checkRequest(req({ method: "GET", origin: "https://evil.example" }), local)).toBeNull();
  });

  it("refuses DNS-rebound host names whatever the bind address", () => {
    expect(checkRequest(req({ method: "GET", host: "evil.example:3000" }), local)).toMatch(/Host "evil.example" is not allowed/);
    expect(checkRequest(req({ method: "GET", host: "studio.lan:3000" }), guardConfigFromEnv({ STUDIO_ALLOWED_HOSTS: "studio.lan" }))).toBeNull();
    // Bound to every address, the allow-list still holds: only named hosts get in.
    const wide = guardConfigFromEnv({ STUDIO_HOST: "0.0.0.0", STUDIO_PUBLIC_URL: "https://studio.example.com" });
    expect(checkRequest(req({ method: "GET", host: "anything:3000" }), wide)).toMatch(/not allowed/);
    expect(checkRequest(req({ method: "GET", host: "0.0.0.0:3000" }), wide)).toMatch(/not allowed/);
    expect(checkRequest(req({ method: "GET", host: "studio.example.com" }), wide)).toBeNull();
    expect(checkRequest(req({ method: "GET", host: "[::1]:3000" }), wide)).toBeNull();
    expect(checkRequest(req({ method: "GET", host: null }), wide)).toMatch(/no Host/);
  });

  it("refuses cross-site reads of the API but lets the sign-in callback through", () => {
    expect(checkRequest(req({ method: "GET", secFetchSite: "cross-site", pathname: "/api/runs/export" }), local)).toMatch(/Cross-site/);
    expect(checkRequest(req({ method: "GET", secFetchSite: "cross-site", pathname: "/api/auth/callback/oidc" }), local)).toBeNull();
    expect(checkRequest(req({ method: "GET", secFetchSite: "cross-site", pathname: "/runs" }), local)).toBeNull();
    // An MCP server's OAuth callback: the authorization server sends the browser there; nothing else under it.
    expect(checkRequest(req({ method: "GET", secFetchSite: "cross-site", pathname: "/api/servers/gh/oauth/callback" }), local)).toBeNull();
    expect(checkRequest(req({ method: "POST", secFetchSite: "cross-site", pathname: "/api/servers/gh/oauth/callback" }), local)).toMatch(/Cross-site/);
    expect(checkRequest(req({ method: "GET", secFetchSite: "cross-site", pathname: "/api/servers/gh/oauth" }), local)).toMatch(/Cross-site/);
    expect(checkRequest(req({ method: "GET", secFetchSite: "cross-site", pathname: "/api/servers/gh/oauth/callback/x" }), local)).toMatch(/Cross-site/);
  });

  it("will not start off loopback without the names it is reached by", () => {
    expect(bindProblem({})).toBeNull();
    expect(bindProblem({ STUDIO_HOST: "0.0.0.0" })).toMatch(/STUDIO_PUBLIC_URL/);
    expect(bindProblem({ STUDIO_HOST: "0.0.0.0", STUDIO_ALLOWED_HOSTS: "studio.lan" })).toBeNull();
    expect(bindProblem({ STUDIO_HOST: "0.0.0.0", STUDIO_PUBLIC_URL: "https://s.example" })).toBeNull();
    expect(bindProblem({ STUDIO_PUBLIC_URL: "not a url" })).toMatch(/not a URL/);
  });
});
