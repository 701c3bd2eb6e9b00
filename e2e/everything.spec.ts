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

// The studio declares elicitation, sampling and roots: server-everything offers the tools that
// need them, and a run's requests for input show in its panel and are answered there.
test("server-everything asks for input: an elicitation form and a sampling reply answered in the run panel", async ({ page }) => {
  await page.goto("/servers");
  const enable = page.getByRole("button", { name: "Enable everything" });
  if (await enable.isVisible()) await enable.click();
  const server = page.getByTestId("server").filter({ hasText: "everything" });
  await expect(server).toHaveAttribute("data-state", "connected", { timeout: 45_000 });

  await page.goto("/?source=mcp%3Aeverything");
  const cards = page.getByTestId("tool-card");
  for (const name of [
    "trigger-elicitation-request",
    "trigger-sampling-request",
    "trigger-url-elicitation",
    "get-roots-list",
    "trigger-elicitation-request-async",
    "trigger-sampling-request-async",
  ]) {
    // Not followed by "-": trigger-elicitation-request is also the start of trigger-elicitation-request-async.
    await expect(cards.filter({ hasText: new RegExp(`everything__${name}(?!-)`) })).toBeVisible();
  }
  // All 19: the two -async ones are offered because the studio takes elicitation and sampling as tasks.
  expect(await cards.count()).toBe(19);

  // Elicitation: the form from the requested schema, a required field checked, then accepted.
  await page.goto("/tools/everything__trigger-elicitation-request");
  await page.getByTestId("run-button").click();
  const request = page.getByTestId("input-request");
  await expect(request).toHaveAttribute("data-kind", "elicitation");
  await expect(request.getByTestId("input-message")).toHaveText("Please provide inputs for the following fields:");
  await expect(page.locator("#input_name")).toBeVisible();
  await expect(page.getByTestId("run-waiting-input")).toBeVisible();
  await page.getByTestId("result-panel").screenshot({ path: "e2e/.artifacts/screens/everything-elicitation-panel.png" });
  await page.screenshot({ path: "e2e/.artifacts/screens/everything-elicitation.png", fullPage: true });
  await page.getByTestId("input-accept").click();
  await expect(request.getByTestId("input-error")).toContainText("name");
  await page.locator("#input_name").fill("Ada Lovelace");
  await page.getByTestId("input-accept").click();
  await expect(page.getByTestId("run-output")).toHaveAttribute("data-status", "success");
  await expect(page.getByTestId("run-output")).toContainText("- Name: Ada Lovelace");

  // Sampling: the messages shown, the person writes the reply and approves it.
  await page.goto("/tools/everything__trigger-sampling-request");
  await page.locator("#root_prompt").fill("Tell me a <b>joke</b>");
  await page.getByTestId("run-button").click();
  const sampling = page.getByTestId("input-request");
  await expect(sampling).toHaveAttribute("data-kind", "sampling");
  // Server text is shown as text, never as HTML.
  await expect(sampling.getByTestId("sampling-messages")).toContainText("Tell me a <b>joke</b>");
  await expect(sampling.locator("b")).toHaveCount(0);
  await expect(sampling.getByTestId("sampling-system")).toContainText("You are a helpful test server.");
  await expect(page.getByTestId("sampling-approve")).toBeDisabled();
  await page.getByTestId("sampling-reply").fill("Why did the tool cross the road? To be called.");
  await page.getByTestId("result-panel").screenshot({ path: "e2e/.artifacts/screens/everything-sampling-panel.png" });
  await page.getByTestId("sampling-approve").click();
  await expect(page.getByTestId("run-output")).toHaveAttribute("data-status", "success");
  await expect(page.getByTestId("run-output")).toContainText("To be called.");

  // URL elicitation: the link opens only after consent; declining reaches the server.
  await page.goto("/tools/everything__trigger-url-elicitation");
  await page.locator("#root_url").fill("https://example.com/authorize");
  await page.getByTestId("run-button").click();
  const url = page.getByTestId("input-request");
  await expect(url.getByTestId("input-url")).toHaveText("https://example.com/authorize");
  await expect(url.getByTestId("input-url-open")).toHaveCount(0);
  await expect(url.getByTestId("input-accept")).toBeDisabled();
  await url.getByTestId("input-url-consent").check();
  await expect(url.getByTestId("input-url-open")).toHaveAttribute("href", "https://example.com/authorize");
  await expect(url.getByTestId("input-url-open")).toHaveAttribute("rel", /noopener/);
  await page.getByTestId("result-panel").screenshot({ path: "e2e/.artifacts/screens/everything-url-elicitation-panel.png" });
  await url.getByTestId("input-decline").click();
  await expect(page.getByTestId("run-output")).toContainText("declined");

  // Elicitation and sampling as tasks (the server polls the studio's task): answered in the same panel.
  await page.goto("/tools/everything__trigger-elicitation-request-async");
  await page.getByTestId("run-button").click();
  await expect(page.getByTestId("input-request")).toHaveAttribute("data-kind", "elicitation");
  await expect(page.getByTestId("input-request").getByTestId("input-message")).toContainText("async task demo");
  await page.locator("#input_name").fill("Grace Hopper");
  await page.getByTestId("result-panel").screenshot({ path: "e2e/.artifacts/screens/everything-elicitation-async-panel.png" });
  await page.getByTestId("input-accept").click();
  await expect(page.getByTestId("run-output")).toHaveAttribute("data-status", "success", { timeout: 20_000 });
  await expect(page.getByTestId("run-output")).toContainText("[COMPLETED] User provided the requested information!");
  await expect(page.getByTestId("run-output")).toContainText("- Name: Grace Hopper");

  await page.goto("/tools/everything__trigger-sampling-request-async");
  await page.locator("#root_prompt").fill("Say hi");
  await page.getByTestId("run-button").click();
  await expect(page.getByTestId("input-request")).toHaveAttribute("data-kind", "sampling");
  await page.getByTestId("sampling-reply").fill("Hi, as a task.");
  await page.getByTestId("sampling-approve").click();
  await expect(page.getByTestId("run-output")).toHaveAttribute("data-status", "success", { timeout: 20_000 });
  await expect(page.getByTestId("run-output")).toContainText("[COMPLETED] Async sampling completed!");
  await expect(page.getByTestId("run-output")).toContainText("Hi, as a task.");

  // A tool whose task support is required runs as a task; its state shows while it runs.
  await page.goto("/tools/everything__simulate-research-query");
  await page.locator("#root_topic").fill("tides");
  await page.getByTestId("run-button").click();
  await expect(page.getByTestId("progress")).toContainText("task working");
  await expect(page.getByTestId("run-output")).toHaveAttribute("data-status", "success", { timeout: 20_000 });
  await expect(page.getByTestId("run-output")).toContainText("Research Report: tides");
});
