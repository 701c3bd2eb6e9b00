import { readFileSync, writeFileSync } from "node:fs";
import { expect, test } from "@playwright/test";

// The audit log end to end: a run through the API shows up on /audit under a green chain badge;
// a config save through the API is recorded once, with where it came from.

test("a run via the API appears on /audit with a verified chain", async ({ page, request }) => {
  const res = await request.post("/api/tools/add/run", { data: { arguments: { a: 20, b: 22 } } });
  expect(res.status()).toBe(200);
  const { run } = await res.json();

  // the API first
  const api = await (await request.get("/api/audit?action=run&target=add&limit=5")).json();
  expect(api.entries[0]).toMatchObject({ action: "run", target: "add", detail: { runId: run.id, status: "success", origin: "api", errorKind: null } });
  expect(api.entries[0].hash).toMatch(/^[0-9a-f]{64}$/);
  const report = await (await request.get("/api/audit/verify")).json();
  expect(report).toMatchObject({ ok: true });
  expect(report.entries).toBeGreaterThanOrEqual(1);
  expect((await request.get("/api/audit?cursor=garbage")).status()).toBe(400);
  expect((await request.get("/api/audit?since=someday")).status()).toBe(400);

  // then the page, from the nav
  await page.goto("/");
  await page.getByRole("link", { name: "Audit", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Audit log" })).toBeVisible();
  const badge = page.getByTestId("audit-chain");
  await expect(badge).toHaveAttribute("data-ok", "true");
  await expect(badge).toHaveText(/^chain verified: \d+ entr(y|ies)$/);
  // The run's own entry (its first output also makes a "shape.change" entry that names the run).
  const row = page.locator('[data-testid="audit-row"][data-action="run"]').filter({ hasText: run.id.slice(0, 8) });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText("add");
  await expect(row).toContainText("status=success");

  // filter by action with the GET form; the run link opens the run
  await page.getByLabel("Action").selectOption("run");
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page).toHaveURL(/action=run/);
  await expect(page.getByTestId("audit-row").first()).toHaveAttribute("data-action", "run");
  await row.getByRole("link").click();
  await expect(page).toHaveURL(new RegExp(`/runs/${run.id}`));
  await page.screenshot({ path: "e2e/.artifacts/screens/audit.png", fullPage: true });
});

test("a config save through the API is recorded once, as the API's, with the caller", async ({ request }) => {
  const configPath = process.env.E2E_DIR + "/studio.jsonc";
  const original = readFileSync(configPath, "utf8");
  try {
    const current = await (await request.get("/api/config")).json();
    const text = current.raw + "\n// audited edit\n";
    const put = await request.put("/api/config", { data: { text, expectedVersion: current.version }, headers: { "user-agent": "e2e-audit" } });
    expect(put.status()).toBe(200);
    const { version } = await put.json();
    await new Promise((r) => setTimeout(r, 500)); // the disk watcher would have fired by now
    const { entries } = await (await request.get("/api/audit?action=config.change&limit=50")).json();
    const forVersion = entries.filter((e: { detail: { version: number; atStartup?: boolean } }) => e.detail.version === version && !e.detail.atStartup);
    expect(forVersion).toHaveLength(1);
    expect(forVersion[0].detail.source).toBe("api");
    expect(forVersion[0].from).toContain("e2e-audit");
    expect((await (await request.get("/api/audit/verify")).json()).ok).toBe(true);
  } finally {
    writeFileSync(configPath, original);
  }
});
