import { describe, expect, it } from "vitest";
import { checkRequest, guardConfigFromEnv } from "./guard";

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

  it("refuses DNS-rebound host names when bound to loopback", () => {
    expect(checkRequest(req({ method: "GET", host: "evil.example:3000" }), local)).toMatch(/Host "evil.example" is not allowed/);
    expect(checkRequest(req({ method: "GET", host: "studio.lan:3000" }), guardConfigFromEnv({ STUDIO_ALLOWED_HOSTS: "studio.lan" }))).toBeNull();
    expect(checkRequest(req({ method: "GET", host: "anything:3000" }), guardConfigFromEnv({ STUDIO_HOST: "0.0.0.0" }))).toBeNull();
  });
});
