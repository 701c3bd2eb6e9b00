import { readFileSync, writeFileSync } from "node:fs";
import { expect, test } from "@playwright/test";
import { startOAuthFixture, type OAuthFixture } from "../tests/helpers/oauth-servers";

// OAuth for a remote MCP server, as an admin does it: the server shows "sign-in required", Sign in
// goes to its authorization server (a real OpenID provider started here, with its development
// login and consent screens), which sends the browser back to the server's page, connected; its
// tool runs; Sign out forgets the tokens.
const configPath = process.env.E2E_DIR + "/studio.jsonc";
const original = readFileSync(configPath, "utf8");
const BASE = `http://127.0.0.1:${process.env.E2E_PORT ?? 3123}`;
const ADMIN = { authorization: `Bearer ${process.env.E2E_ADMIN_TOKEN}`, origin: BASE, "content-type": "application/json" };
const NAME = "secure";
const shot = (page: import("@playwright/test").Page, name: string) => page.screenshot({ path: `e2e/.artifacts/screens/${name}.png`, fullPage: true });

let fixture: OAuthFixture;
test.beforeAll(async () => {
  fixture = await startOAuthFixture();
  const res = await fetch(`${BASE}/api/servers`, {
    method: "POST",
    headers: ADMIN,
    body: JSON.stringify({ name: NAME, transport: "http", url: fixture.mcpUrl }),
  });
  expect(res.status).toBe(201);
});
test.afterAll(async () => {
  writeFileSync(configPath, original);
  await fixture?.close();
});

test("an OAuth-protected server is reachable after a sign-in from its page; sign out forgets the tokens", async ({ page }) => {
  test.setTimeout(90_000);
  await page.goto("/servers");
  const row = page.getByTestId("server").filter({ hasText: NAME });
  await expect(row).toHaveAttribute("data-auth-required", "true", { timeout: 30_000 });
  await expect(row.getByText("sign-in required", { exact: true })).toBeVisible();
  await expect(row.getByRole("button", { name: `Sign in to ${NAME}` })).toBeEnabled();
  await shot(page, "oauth-servers-sign-in-required");

  await page.goto(`/servers/${NAME}`);
  await expect(page.getByText("sign-in required", { exact: true })).toBeVisible();
  await expect(page.getByTestId("server-signin")).toContainText("asks for OAuth authorization");
  await shot(page, "oauth-sign-in-required");

  await page.getByRole("button", { name: `Sign in to ${NAME}` }).click();
  // The provider's development login, then its consent screen.
  await expect(page).toHaveURL(new RegExp(`^${fixture.issuer}/interaction/`));
  await page.locator('input[name="login"]').fill("alice");
  await page.locator('input[name="password"]').fill("any");
  await page.getByRole("button", { name: "Sign-in" }).click();
  await page.getByRole("button", { name: "Continue" }).click();

  await expect(page).toHaveURL(new RegExp(`/servers/${NAME}\\?signin=ok$`));
  await expect(page.getByText("connected", { exact: true })).toBeVisible();
  await expect(page.getByTestId("signin-ok")).toBeVisible();
  await expect(page.getByText("signed in (OAuth)")).toBeVisible();
  await shot(page, "oauth-signed-in");
  // Nothing on the page carries the tokens.
  const html = await page.content();
  for (const token of fixture.accepted) expect(html).not.toContain(token);

  // Its tool runs with the token.
  await page.goto(`/tools/${NAME}__whoami`);
  await page.getByTestId("run-button").click();
  const output = page.getByTestId("run-output");
  await expect(output).toHaveAttribute("data-status", "success");
  await expect(output).toContainText("signed in as alice");

  // The audit log has the sign-in, without tokens.
  const audit = await (await fetch(`${BASE}/api/audit?action=server.oauth.signin`, { headers: ADMIN })).json();
  expect(audit.entries[0]).toMatchObject({ action: "server.oauth.signin", target: NAME });
  for (const token of fixture.accepted) expect(JSON.stringify(audit)).not.toContain(token);

  // Sign out: the server needs a sign-in again.
  await page.goto(`/servers/${NAME}`);
  await page.getByRole("button", { name: `Sign out of ${NAME}` }).click();
  await expect(page.getByText("sign-in required", { exact: true })).toBeVisible({ timeout: 20_000 });
  await expect(page.getByRole("button", { name: `Sign in to ${NAME}` })).toBeVisible();
});
