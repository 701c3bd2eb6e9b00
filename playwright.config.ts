import { defineConfig } from "@playwright/test";
import { copyFileSync, existsSync, mkdirSync } from "node:fs";
import os from "node:os";
import path from "node:path";

const port = Number(process.env.E2E_PORT ?? 3123);
const oidcPort = Number(process.env.E2E_OIDC_PORT ?? 3124);
// Each e2e run gets its own embedded database, so no run sees another's data.
// Set once in the runner process; workers inherit it, so they all edit the server's config file.
process.env.E2E_DIR ??= path.join(os.tmpdir(), `tool-studio-e2e-${Date.now()}`);
const dataDir = path.join(process.env.E2E_DIR, "pglite");
export const e2eConfigPath = path.join(process.env.E2E_DIR, "studio.jsonc");
// Tests act as an admin through STUDIO_ADMIN_TOKEN (as scripts and headless browsers do); the
// sign-in specs open contexts without it.
process.env.E2E_ADMIN_TOKEN ??= `e2e-admin-${Date.now()}-${Math.random().toString(36).slice(2)}`;
export const e2eAdminToken = process.env.E2E_ADMIN_TOKEN;
if (!existsSync(e2eConfigPath)) {
  mkdirSync(process.env.E2E_DIR, { recursive: true });
  copyFileSync("config/studio.example.jsonc", e2eConfigPath);
}

export default defineConfig({
  testDir: "e2e",
  outputDir: "test-results",
  timeout: 60_000,
  expect: { timeout: 15_000 },
  fullyParallel: false,
  workers: 1,
  // One retry in CI, reported as "flaky" in the summary: e2e/domains.spec.ts:67 (a live config edit reaching an
  // open form) failed once in four full runs under load and is open to fix; a real failure fails twice.
  retries: process.env.CI ? 1 : 0,
  reporter: [["list"]],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    extraHTTPHeaders: { authorization: `Bearer ${process.env.E2E_ADMIN_TOKEN}` },
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--disable-quic",
      ],
    },
  },
  webServer: [
    {
      // A real OpenID provider for the SSO test (e2e/support/oidc-provider.mjs).
      command: "node e2e/support/oidc-provider.mjs",
      url: `http://127.0.0.1:${oidcPort}/.well-known/openid-configuration`,
      timeout: 30_000,
      reuseExistingServer: false,
      env: { OIDC_PORT: String(oidcPort), STUDIO_URL: `http://127.0.0.1:${port}` },
    },
    {
      command: "node scripts/studio.mjs",
      url: `http://127.0.0.1:${port}/api/tools`,
      timeout: 240_000,
      reuseExistingServer: false,
      stdout: "pipe",
      env: {
        PORT: String(port),
        STUDIO_DATA_DIR: dataDir,
        STUDIO_CONFIG: e2eConfigPath,
        DATABASE_URL: "",
        STUDIO_ADMIN_TOKEN: process.env.E2E_ADMIN_TOKEN,
        // The specs sign in many times from one address.
        STUDIO_SIGNIN_RATE_LIMIT: "200/60",
        // Tests reach it from loopback and name their client in X-Forwarded-For, as a proxy would.
        STUDIO_TRUSTED_PROXIES: "127.0.0.1,::1",
        STUDIO_OIDC_ISSUER: `http://127.0.0.1:${oidcPort}`,
        STUDIO_OIDC_CLIENT_ID: "tool-studio",
        STUDIO_OIDC_CLIENT_SECRET: "tool-studio-test-secret",
        STUDIO_OIDC_NAME: "Test SSO",
      },
    },
  ],
});
