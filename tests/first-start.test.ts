import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";

// Off loopback, anyone on the network reaches the studio: it must refuse to start until it
// knows the names it is reached by.
describe("npm run studio off loopback", () => {
  it("refuses to start without STUDIO_PUBLIC_URL or STUDIO_ALLOWED_HOSTS, saying what to set", () => {
    const env = { ...process.env, STUDIO_HOST: "0.0.0.0", STUDIO_PUBLIC_URL: "", STUDIO_ALLOWED_HOSTS: "" };
    const r = spawnSync(process.execPath, ["scripts/studio.mjs", "--no-build"], { env, encoding: "utf8", timeout: 20_000 });
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/Refusing to listen on 0\.0\.0\.0 without STUDIO_PUBLIC_URL or STUDIO_ALLOWED_HOSTS/);
  });
});
