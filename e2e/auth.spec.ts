import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { showJsonEditor } from "./support/json-editor";

// Sign-in as people do it, in a browser without the admin token: the first-admin link of a fresh
// studio, password sign-in, SSO through a real OpenID provider, what each role may do, API tokens
// and who history says ran what.

test.use({ extraHTTPHeaders: {} });

const BASE = `http://127.0.0.1:${process.env.E2E_PORT ?? 3123}`;
const ADMIN = { authorization: `Bearer ${process.env.E2E_ADMIN_TOKEN}` };
const suffix = Date.now().toString(36);
const configPath = process.env.E2E_DIR + "/studio.jsonc";
const originalConfig = readFileSync(configPath, "utf8");
test.afterAll(() => writeFileSync(configPath, originalConfig));

let added = 0;
async function addUser(role: "viewer" | "runner" | "admin"): Promise<{ email: string; password: string }> {
  const email = `${role}-${suffix}-${++added}@example.com`;
  const password = `pw-${role}-${suffix}`;
  const res = await fetch(`${BASE}/api/users`, {
    method: "POST",
    headers: { ...ADMIN, "content-type": "application/json", origin: BASE },
    body: JSON.stringify({ email, password, role }),
  });
  expect(res.status).toBe(201);
  return { email, password };
}

async function signIn(page: Page, who: { email: string; password: string }, from = "/") {
  await page.goto(from);
  await page.getByLabel("Email").fill(who.email);
  await page.getByLabel("Password").fill(who.password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page.getByTestId("user-menu")).toBeVisible();
}

const shot = (page: Page, name: string) => page.screenshot({ path: `e2e/.artifacts/screens/${name}.png`, fullPage: true });

test("the first start prints a link; opening it makes you the first admin, signed in at once", async ({ page }) => {
  test.setTimeout(120_000);
  const dir = mkdtempSync(path.join(os.tmpdir(), "studio-first-"));
  const port = String(Number(process.env.E2E_PORT ?? 3123) + 10);
  writeFileSync(path.join(dir, "studio.jsonc"), "{}\n");
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: port,
    STUDIO_DATA_DIR: path.join(dir, "pglite"),
    STUDIO_CONFIG: path.join(dir, "studio.jsonc"),
    DATABASE_URL: "",
  };
  delete env.STUDIO_ADMIN_TOKEN;
  const child: ChildProcess = spawn(process.execPath, ["scripts/studio.mjs", "--no-build"], { env, stdio: ["ignore", "pipe", "pipe"] });
  try {
    const link = await new Promise<string>((resolve, reject) => {
      let out = "";
      const timer = setTimeout(() => reject(new Error(`no link printed:\n${out}`)), 90_000);
      child.stdout!.on("data", (d) => {
        out += d;
        const m = out.match(/http:\/\/127\.0\.0\.1:\d+\/setup\?token=[A-Za-z0-9_-]+/);
        if (m) {
          clearTimeout(timer);
          resolve(m[0]);
        }
      });
      child.on("exit", (code) => reject(new Error(`the studio exited (${code}):\n${out}`)));
    });
    // Before the link, nobody gets in.
    expect((await fetch(`http://127.0.0.1:${port}/api/tools`)).status).toBe(401);

    await page.goto(link);
    await expect(page).toHaveURL(/\/users\?welcome=1/);
    await expect(page.getByText(/you are the first admin/i)).toBeVisible();
    await shot(page, "first-admin-welcome");
    const welcome = page.getByTestId("welcome-card");
    await welcome.getByRole("textbox", { name: "Email" }).fill("ada@example.com");
    await welcome.getByLabel(/Password/).fill("ada-password-1");
    await welcome.getByRole("button", { name: /Save/ }).click();
    await expect(page.getByRole("cell", { name: "ada@example.com", exact: true })).toBeVisible();

    // The link works once.
    await page.goto(link);
    await expect(page.getByText(/already used/)).toBeVisible();

    // Signed out, the new password signs back in.
    await page.context().clearCookies();
    await page.goto(`http://127.0.0.1:${port}/`);
    await page.getByLabel("Email").fill("ada@example.com");
    await page.getByLabel("Password").fill("ada-password-1");
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await expect(page.getByRole("heading", { name: "Tools" })).toBeVisible();
  } finally {
    child.kill("SIGTERM");
    await new Promise((r) => child.once("exit", r));
    rmSync(dir, { recursive: true, force: true });
  }
});

test("anonymous people get the sign-in form with 401; a wrong password says so", async ({ page }) => {
  const res = await page.goto("/runs");
  expect(res?.status()).toBe(401);
  await expect(page.getByRole("heading", { name: "Sign in to Tool Studio" })).toBeVisible();
  await shot(page, "sign-in");
  await page.getByLabel("Email").fill("nobody@example.com");
  await page.getByLabel("Password").fill("not-a-password");
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page.getByRole("alert").filter({ hasText: /invalid/i })).toBeVisible();
});

test("a viewer browses but cannot run: the Run button says why, and the API answers 403", async ({ page }) => {
  const viewer = await addUser("viewer");
  await signIn(page, viewer, "/tools/add");
  await expect(page.getByTestId("run-button")).toBeDisabled();
  await expect(page.getByTestId("run-disabled-reason")).toContainText("Your role (viewer) cannot run tools");
  await shot(page, "viewer-tool");
  const status = await page.evaluate(
    async () =>
      (
        await fetch("/api/tools/add/run", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ arguments: { a: 1, b: 2 } }),
        })
      ).status,
  );
  expect(status).toBe(403);
  await page.goto("/settings");
  await expect(page.getByTestId("config-save")).toBeDisabled();
  const users = await page.goto("/users");
  expect(users?.status()).toBe(403);
});

test("why a tool crashed: the operator detail is shown to an admin (run page and API), never to a runner or a viewer", async ({ page, browser }) => {
  const message = `crash-${suffix} at handler`;
  // The crash's own text as the detail holds it (the thrown Error, its stack): the arguments carry only the message.
  const secret = `Error: ${message}`;
  const res = await fetch(`${BASE}/api/tools/fail/run`, {
    method: "POST",
    headers: { ...ADMIN, "content-type": "application/json" },
    body: JSON.stringify({ arguments: { kind: "other", mode: "crash", message } }),
  });
  const { run } = await res.json();
  expect(run).toMatchObject({ status: "error", error: { kind: "other", message: "The tool failed with an unexpected error." } });
  expect(JSON.stringify(run)).not.toContain(secret); // the caller's own answer never carries it

  const asAdmin = (await (await fetch(`${BASE}/api/runs/${run.id}`, { headers: ADMIN })).json()).run;
  expect(asAdmin.error.detail).toContain(secret);

  const runner = await addUser("runner");
  const signedIn = await fetch(`${BASE}/api/auth/sign-in/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: BASE },
    body: JSON.stringify(runner),
  });
  const cookie = signedIn.headers
    .getSetCookie()
    .find((c) => c.startsWith("better-auth.session_token="))!
    .split(";")[0]!;
  const asRunner = await (await fetch(`${BASE}/api/runs/${run.id}`, { headers: { cookie } })).json();
  expect(asRunner.run.id).toBe(run.id);
  expect(JSON.stringify(asRunner)).not.toContain(secret);

  const viewer = await addUser("viewer");
  await signIn(page, viewer, `/runs/${run.id}`);
  await expect(page.getByTestId("run-output")).toHaveAttribute("data-status", "error");
  await expect(page.getByTestId("operator-detail")).toHaveCount(0);
  await expect(page.locator("body")).not.toContainText(secret);
  expect(await page.evaluate(async (id) => (await fetch(`/api/runs/${id}`)).text(), run.id)).not.toContain(secret);

  const admin = await browser.newContext({ extraHTTPHeaders: ADMIN });
  const adminPage = await admin.newPage();
  await adminPage.goto(`${BASE}/runs/${run.id}`);
  await expect(adminPage.getByTestId("operator-detail")).toContainText(secret);
  await expect(adminPage.locator('dt:text-is("Actor") + dd')).toHaveText("Admin token (STUDIO_ADMIN_TOKEN)");
  await admin.close();
});

test("a runner runs a tool; history and the audit log name them; their API token runs as them", async ({ page }) => {
  const runner = await addUser("runner");
  await signIn(page, runner, "/tools/add");
  await page.locator("#root_a").fill("20");
  await page.locator("#root_b").fill("22");
  await page.getByTestId("run-button").click();
  const output = page.getByTestId("run-output");
  await expect(output).toHaveAttribute("data-status", "success");
  const runId = (await output.getByRole("link", { name: /^run / }).getAttribute("href"))!.split("/").pop()!;
  const run = (await (await fetch(`${BASE}/api/runs/${runId}`, { headers: ADMIN })).json()).run;
  expect(run).toMatchObject({ actor: runner.email, origin: "ui" });

  // A personal token, created on the Tokens page and shown once.
  await page.goto("/tokens");
  await page.getByLabel("Name", { exact: true }).fill("laptop script");
  await page.getByRole("button", { name: /Create token/ }).click();
  const token = await page.getByTestId("new-token-value").inputValue();
  expect(token).toMatch(/^tst_/);
  await shot(page, "tokens");
  const viaToken = await fetch(`${BASE}/api/tools/add/run`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify({ arguments: { a: 1, b: 1 } }),
  });
  expect(viaToken.status).toBe(200);
  const tokenRun = (await viaToken.json()).run;
  expect(tokenRun).toMatchObject({ actor: runner.email, origin: "api", status: "success" });
  expect(tokenRun.tokenId).toBeTruthy();

  // History filters by user, and the run's audit entry names the user and the token.
  await page.goto(`/runs?actor=${encodeURIComponent(runner.email)}`);
  await expect(page.getByRole("link", { name: `Open run ${tokenRun.id}` })).toBeVisible();
  await expect(page.getByRole("link", { name: `Open run ${runId}` })).toBeVisible();
  const audit = (await (await fetch(`${BASE}/api/audit?action=run&actor=${encodeURIComponent(runner.email)}`, { headers: ADMIN })).json()).entries;
  expect(audit.find((e: { detail: { runId: string } }) => e.detail.runId === tokenRun.id).detail).toMatchObject({ tokenId: tokenRun.tokenId, origin: "api" });

  // A runner may not add servers.
  await page.goto("/servers");
  await expect(page.getByTestId("add-server-toggle")).toBeDisabled();
});

test("an admin adds a server, and a destructive tool asks to be confirmed", async ({ page }) => {
  const admin = await addUser("admin");
  await signIn(page, admin, "/servers");
  await page.getByTestId("add-server-toggle").click();
  await page.getByLabel("Server name").fill("authdemo");
  await page.getByLabel("Command").fill(process.execPath);
  await page.getByLabel("Arguments").fill("examples/mcp-server/server.mjs");
  await page.getByRole("button", { name: "Add and connect" }).click();
  await expect(page.getByTestId("server").filter({ hasText: "authdemo" })).toHaveAttribute("data-state", "connected", { timeout: 30_000 });
  const audit = (await (await fetch(`${BASE}/api/audit?action=server.add`, { headers: ADMIN })).json()).entries;
  expect(audit[0]).toMatchObject({ actor: admin.email, target: "authdemo" });

  await page.goto("/tools/clear_outbox");
  await page.getByTestId("run-button").click();
  const confirm = page.getByRole("alertdialog", { name: "Confirm destructive run" });
  await expect(confirm).toContainText("clear_outbox is marked destructive");
  await expect(page.getByTestId("confirm-run")).toBeFocused();
  await shot(page, "confirm-destructive");
  await page.getByTestId("confirm-run").click();
  await expect(page.getByTestId("run-output")).toHaveAttribute("data-status", "success");
  // Without "confirm": true the API refuses, naming why.
  const bare = await fetch(`${BASE}/api/tools/clear_outbox/run`, {
    method: "POST",
    headers: { ...ADMIN, "content-type": "application/json" },
    body: JSON.stringify({ arguments: {} }),
  });
  expect(bare.status).toBe(400);
  expect((await bare.json()).error.message).toMatch(/destructive.*"confirm": true/);
});

test("single sign-on through the OpenID provider signs a new person in as a viewer", async ({ page }) => {
  await page.goto("/sign-in");
  await page.getByRole("button", { name: "Continue with Test SSO" }).click();
  // oidc-provider's development login and consent screens.
  await page.locator('input[name="login"]').fill("olivia");
  await page.locator('input[name="password"]').fill("any");
  await page.locator('button[type="submit"]').click();
  await page.locator('button[type="submit"]').click(); // consent
  await expect(page.getByRole("heading", { name: "Tools" })).toBeVisible();
  const me = await page.evaluate(async () => (await (await fetch("/api/me")).json()).principal);
  expect(me).toMatchObject({ via: "session", role: "viewer", actor: "olivia@example.com" });
  const audit = (await (await fetch(`${BASE}/api/audit?action=auth.sign-in&actor=olivia%40example.com`, { headers: ADMIN })).json()).entries;
  expect(audit[0]?.detail).toMatchObject({ method: "sso" });
});

test("secrets never leave the server: the config API, the Settings and Servers pages show them as set", async ({ page }) => {
  const secret = `SUPER-SECRET-${suffix}`;
  const add = await fetch(`${BASE}/api/servers`, {
    method: "POST",
    headers: { ...ADMIN, "content-type": "application/json", origin: BASE },
    body: JSON.stringify({
      name: `secretive${suffix}`,
      transport: "http",
      url: "http://127.0.0.1:9/mcp",
      headers: { Authorization: `Bearer ${secret}` },
      enabled: false,
    }),
  });
  expect(add.status).toBe(201);
  expect(readFileSync(configPath, "utf8")).toContain(secret); // it is kept, on the server
  const config = await (await fetch(`${BASE}/api/config`, { headers: ADMIN })).text();
  expect(config).not.toContain(secret);
  expect(config).toContain("••••••(set)");
  for (const path of ["/api/servers", "/api/audit?action=server.add", "/api/audit?action=config.change"]) {
    expect(await (await fetch(`${BASE}${path}`, { headers: ADMIN })).text(), path).not.toContain(secret);
  }
  const admin = await addUser("admin");
  await signIn(page, admin, "/settings");
  await expect(page.getByRole("heading", { name: "Settings" })).toBeVisible();
  expect(await page.content()).not.toContain(secret);
  await page.goto("/servers");
  await expect(page.getByTestId("server").filter({ hasText: `secretive${suffix}` })).toBeVisible();
  expect(await page.content()).not.toContain(secret);
});

test("pages carry a nonce-based CSP that forbids framing, and Monaco still works under it", async ({ page }) => {
  const violations: string[] = [];
  page.on("console", (m) => {
    if (/Content Security Policy|Refused to/i.test(m.text())) violations.push(m.text());
  });
  const runner = await addUser("runner");
  await signIn(page, runner, "/tools/add");
  const res = await page.goto("/tools/add");
  const csp = res!.headers()["content-security-policy"];
  expect(csp).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+' 'strict-dynamic'/);
  expect(csp).toContain("frame-ancestors 'none'");
  await showJsonEditor(page); // Monaco's chunks, fetched on demand, are allowed by the CSP too
  await page.locator("#root_a").fill("2");
  await page.locator("#root_b").fill("3");
  await expect(page.locator(".monaco-editor").first()).toContainText('"b": 3');
  expect(violations).toEqual([]);
});
