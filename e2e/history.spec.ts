import { expect, test } from "@playwright/test";

// The history beyond a list: filters, stats, compare, export and presets.
test("filter by text, see a tool's stats, compare two runs, export them", async ({ page, request }) => {
  const a = (await (await request.post("/api/tools/add/run", { data: { arguments: { a: 1111, b: 1 } } })).json()).run;
  const b = (await (await request.post("/api/tools/add/run", { data: { arguments: { a: 2222, b: 1 } } })).json()).run;

  await page.goto("/runs");
  await page.getByLabel("Tool", { exact: true }).selectOption("add");
  await page.getByLabel("Text").fill("2222");
  await page.getByRole("button", { name: "Apply", exact: true }).click();
  await expect(page.getByTestId("run-row")).toHaveCount(1);
  await expect(page.getByTestId("run-stats")).toContainText("Runs");

  await page.goto("/runs?tool=add");
  await page.getByLabel(`Select run ${a.id} to compare`).check();
  await page.getByLabel(`Select run ${b.id} to compare`).check();
  await page.getByTestId("compare-selected").click();
  await expect(page.getByRole("heading", { name: "Compare runs" })).toBeVisible();
  const args = page.getByTestId("diff-arguments");
  await expect(args).toContainText("/a");
  await expect(args).toContainText("1111");
  await expect(args).toContainText("2222");
  await page.screenshot({ path: "e2e/.artifacts/screens/compare.png", fullPage: true });

  const csv = await request.get("/api/runs/export?format=csv&tool=add&q=2222");
  expect(csv.headers()["content-type"]).toContain("text/csv");
  const lines = (await csv.text()).trim().split("\r\n");
  expect(lines).toHaveLength(2);
  expect(lines[1]).toContain(b.id);
  const nd = await request.get("/api/runs/export?tool=add&q=1111");
  expect(JSON.parse((await nd.text()).trim()).id).toBe(a.id);
  const bad = await request.get("/api/runs/export?format=xml");
  expect(bad.status()).toBe(400);
});

test("save arguments as a preset and load them back", async ({ page }) => {
  await page.goto("/tools/add");
  await page.locator("#root_a").fill("7");
  await page.locator("#root_b").fill("8");
  page.once("dialog", (d) => d.accept("seven and eight"));
  await page.getByTestId("save-preset").click();
  await expect(page.getByText("Saved “seven and eight”")).toBeVisible();
  await page.getByTestId("reset-form").click();
  await expect(page.locator("#root_a")).toHaveValue("");
  await page.getByLabel("Load a preset").selectOption({ label: "seven and eight" });
  await expect(page.locator("#root_a")).toHaveValue("7");
  await expect(page.locator("#root_b")).toHaveValue("8");
});
