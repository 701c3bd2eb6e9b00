import { describe, expect, it } from "vitest";
import { startProblem } from "./first-start";

describe("startProblem", () => {
  it("lets a loopback studio start, with or without trusted proxies it can read", () => {
    expect(startProblem({})).toBeNull();
    expect(startProblem({ STUDIO_TRUSTED_PROXIES: "127.0.0.1,10.0.0.0/8,::1" })).toBeNull();
  });

  it("refuses trusted proxies it cannot read, naming the bad entry", () => {
    expect(startProblem({ STUDIO_TRUSTED_PROXIES: "127.0.0.1,not-an-address" })).toContain("not-an-address");
  });

  it("refuses an address off loopback without the names it is reached by", () => {
    expect(startProblem({ STUDIO_HOST: "0.0.0.0" })).toMatch(/STUDIO_PUBLIC_URL|STUDIO_ALLOWED_HOSTS/);
    expect(startProblem({ STUDIO_HOST: "0.0.0.0", STUDIO_ALLOWED_HOSTS: "studio.example.com" })).toBeNull();
  });
});
