import { readFileSync, writeFileSync } from "node:fs";
import { expect, test } from "@playwright/test";

// @modelcontextprotocol/server-everything (an older protocol) through the UI: enable it on the
// Servers page, see its tools with their annotations, call them from the form.
const configPath = process.env.E2E_DIR + "/studio.jsonc";
const original = readFileSync(configPath, "utf8");
test.afterAll(() => writeFileSync(configPath, original));

test("server-everything: listed with annotations, callable from the form, every content kind rendered", async ({ page }) => {
  await page.goto("/servers");
  await page.getByRole("button", { name: "Enable everything" }).click();
  const server = page.getByTestId("server").filter({ hasText: "everything" });
  await expect(server).toHaveAttribute("data-state", "connected", { timeout: 45_000 });
  await expect(server).toContainText("2025-11-25");

  await page.goto("/?source=mcp%3Aeverything");
  const cards = page.getByTestId("tool-card");
  await expect(cards.filter({ hasText: "everything__echo" })).toBeVisible();
  expect(await cards.count()).toBeGreaterThanOrEqual(12);
  await page.screenshot({ path: "e2e/.artifacts/screens/everything-tools.png", fullPage: true });

  await page.goto("/tools/everything__get-sum");
  await expect(page.getByText("read-only").first()).toBeVisible(); // its annotations show as badges
  await page.locator("#root_a").fill("2");
  await page.locator("#root_b").fill("3");
  await page.getByTestId("run-button").click();
  await expect(page.getByTestId("run-output")).toContainText("The sum of 2 and 3 is 5.");

  await page.goto("/tools/everything__get-tiny-image");
  await page.getByTestId("run-button").click();
  await expect(page.getByTestId("run-output").getByTestId("content-image").locator("img")).toHaveAttribute("src", /^data:image\/png;base64,/);
  await page.screenshot({ path: "e2e/.artifacts/screens/everything-image.png", fullPage: true });

  await page.goto("/tools/everything__get-resource-links");
  await page.getByTestId("run-button").click();
  await expect(page.getByTestId("run-output").getByTestId("content-resource_link").first()).toBeVisible();

  await page.goto("/tools/everything__get-structured-content");
  const location = page.locator('[id="root_location"]');
  if (await location.count()) await location.selectOption({ index: 1 });
  await page.getByTestId("run-button").click();
  await expect(page.getByTestId("run-output")).toHaveAttribute("data-status", "success");
  await expect(page.getByTestId("run-output")).toContainText("output matches schema");
});
