import { expect, test, type Page } from "@playwright/test";
import { showJsonEditor } from "./support/json-editor";

// The whole slice in a real browser: list -> tool -> form -> run -> history -> run again.

async function shot(page: Page, name: string) {
  await page.screenshot({ path: `e2e/.artifacts/screens/${name}.png`, fullPage: true });
}

async function pick(page: Page, fieldId: string, option: string) {
  await page.locator(`[id="${fieldId}"]`).selectOption({ label: option });
}

test("the tool list shows every built-in tool and filters them", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByRole("heading", { name: "Tools" })).toBeVisible();
  const cards = page.getByTestId("tool-card");
  await page.getByLabel("Filter by source").selectOption("runtime");
  await expect(cards).toHaveCount(2); // order_total, greet_peer from the config
  await page.getByLabel("Filter by source").selectOption("builtin");
  await expect(cards).toHaveCount(10);
  await expect(cards.filter({ hasText: "Add two integers" })).toContainText("read-only");
  await page.getByLabel("Search tools").fill("png");
  await expect(cards).toHaveCount(1);
  await expect(cards.first()).toContainText("chart_png");
  await page.getByLabel("Search tools").fill("");
  await page.getByRole("button", { name: "writes" }).click();
  await expect(cards).toHaveCount(3); // send_message, notify_group, clear_outbox (source: builtin)
  await page.getByRole("button", { name: "destructive" }).click();
  await expect(cards).toHaveCount(1);
  await expect(cards.first()).toContainText("clear_outbox");
  await page.getByLabel("Search tools").fill("png");
  await expect(page.getByText("No tool matches these filters.")).toBeVisible();
  await page.getByRole("button", { name: "Clear filters" }).click();
  await expect(cards).toHaveCount(12);
  await shot(page, "tool-list");
});

test("fill a rich form (nested object, oneOf, array of objects), run it, find it in history, run it again", async ({ page }) => {
  await page.goto("/");
  await page.getByTestId("tool-card").filter({ hasText: "create_event" }).click();
  await expect(page.getByRole("heading", { name: "Plan an event" })).toBeVisible();

  await page.locator("#root_title").fill("Design review");
  await page.locator("#root_start").fill("2026-12-01T10:00");
  // venue: oneOf, first branch (in person) is preselected; fill its nested fields
  await page.locator("#root_venue_street").fill("1 Main St");
  await page.locator("#root_venue_city").fill("Lisbon");
  await pick(page, "root_venue_country", "Portugal");
  // attendees: array of $ref objects, one item present because minItems is 1
  await page.locator("#root_attendees_0_name").fill("Ada");
  await page.locator("#root_attendees_0_email").fill("ada@example.com");
  // tags: add an item to an optional array
  await page.locator('[id="root_tags__add"]').click();
  await page.locator("#root_tags_0").fill("design");

  // the JSON editor follows the form, and unset optional fields are not sent
  const editor = page.getByTestId("json-preview");
  await expect(editor).toContainText('"Design review"');
  await expect(editor).toContainText('"design"');
  await expect(editor).not.toContainText('"notes"');

  await page.getByTestId("run-button").click();
  const output = page.getByTestId("run-output");
  await expect(output).toHaveAttribute("data-status", "success");
  await expect(output).toContainText("output matches schema");
  await expect(output.getByTestId("content-resource")).toContainText("BEGIN:VCALENDAR");
  await shot(page, "tool-page-event");

  const runLink = output.getByRole("link", { name: /^run / });
  const href = await runLink.getAttribute("href");
  const runId = href!.split("/").pop()!;

  await page.getByRole("link", { name: "History" }).click();
  await expect(page.getByRole("heading", { name: "Run history" })).toBeVisible();
  await page.getByLabel("Tool", { exact: true }).selectOption("create_event");
  await expect(page).toHaveURL(/tool=create_event/);
  await page.getByRole("link", { name: `Open run ${runId}` }).click();

  await expect(page.getByRole("heading", { name: /^Run / })).toContainText(runId.slice(0, 8));
  await expect(page.getByText('"Design review"').first()).toBeVisible();
  await page.getByTestId("run-again").click();
  await expect(page).not.toHaveURL(new RegExp(runId));
  await expect(page.getByText("Replay of")).toBeVisible();
  await expect(page.getByRole("link", { name: runId.slice(0, 8) })).toBeVisible();
  await expect(page.getByTestId("run-output")).toHaveAttribute("data-status", "success");
  await shot(page, "run-detail");
});

test("a chart run shows the PNG inline; open in form restores the arguments", async ({ page }) => {
  await page.goto("/tools/chart_png");
  await page.locator("#root_values_0").fill("3");
  await page.locator('[id="root_values__add"]').click();
  await page.locator("#root_values_1").fill("-2");
  await page.locator('[id="root_values__add"]').click();
  await page.locator("#root_values_2").fill("7");
  await page.keyboard.press("Control+Enter");
  const img = page.getByTestId("run-output").getByTestId("content-image").locator("img");
  await expect(img).toBeVisible();
  await expect(img).toHaveAttribute("src", /^data:image\/png;base64,/);
  expect(await img.evaluate((el: HTMLImageElement) => el.naturalWidth)).toBe(480);
  await shot(page, "tool-page-chart");

  await page.getByTestId("run-output").getByRole("link", { name: /^run / }).click();
  await page.getByRole("link", { name: "Open in form" }).click();
  await expect(page.getByText(/Form filled from/)).toBeVisible();
  await expect(page.locator("#root_values_1")).toHaveValue("-2");
});

test("typing JSON updates the form; invalid arguments are rejected with field errors", async ({ page }) => {
  await page.goto("/tools/add");
  await showJsonEditor(page);
  const editor = page.getByTestId("json-editor").locator(".monaco-editor").first();
  await editor.click();
  await page.keyboard.press("ControlOrMeta+A");
  await page.keyboard.insertText('{"a": 5, "b": 37}');
  // Monaco auto-closes brackets and quotes as it types: drop what it added after the cursor
  await page.keyboard.press("Shift+ControlOrMeta+End");
  await page.keyboard.press("Delete");
  await expect(page.locator("#root_a")).toHaveValue("5");
  await expect(page.locator("#root_b")).toHaveValue("37");
  await page.getByTestId("run-button").click();
  await expect(page.getByTestId("run-output")).toHaveAttribute("data-status", "success");
  await expect(page.getByTestId("run-output")).toContainText('"sum": 42');

  await page.locator("#root_b").fill("");
  await page.getByTestId("run-button").click();
  const output = page.getByTestId("run-output");
  await expect(output).toHaveAttribute("data-status", "rejected");
  await expect(output.getByTestId("error-details")).toContainText("/b is required");
});

test("a slow run shows progress and can be cancelled", async ({ page }) => {
  await page.goto("/tools/slow_count");
  await page.locator("#root_steps").fill("40");
  await page.locator("#root_delayMs").fill("250");
  await page.getByTestId("run-button").click();
  await expect(page.getByTestId("progress")).toContainText(/\d+ \/ 40/);
  await shot(page, "tool-page-progress");
  await page.getByTestId("cancel-button").click();
  const output = page.getByTestId("run-output");
  await expect(output).toHaveAttribute("data-status", "cancelled");
  await expect(output).toContainText("cancelled");
});

test("a failing tool shows its error kind; the history lists it", async ({ page }) => {
  await page.goto("/tools/fail");
  await pick(page, "root_kind", "rate_limited");
  await page.locator("#root_message").fill("Slow down <script>alert(1)</script>");
  await page.getByTestId("run-button").click();
  const output = page.getByTestId("run-output");
  await expect(output).toHaveAttribute("data-status", "error");
  await expect(output).toContainText("rate_limited");
  // a tool's text is shown as text, never as markup
  await expect(output).toContainText("<script>alert(1)</script>");
  await page.goto("/runs?status=error");
  await expect(page.getByTestId("run-row").first()).toContainText("rate_limited");
  await shot(page, "history");
});

test("a tool defined at run time in the config runs like any other", async ({ page }) => {
  await page.goto("/tools/order_total");
  await expect(page.getByText("runtime").first()).toBeVisible();
  await showJsonEditor(page);
  const editor = page.getByTestId("json-editor").locator(".monaco-editor").first();
  await editor.click();
  await page.keyboard.press("ControlOrMeta+A");
  await page.keyboard.insertText('{"items": [{"sku": "a", "qty": 2, "price": 1.5}, {"sku": "b", "qty": 1, "price": 4}]}');
  await page.keyboard.press("Shift+ControlOrMeta+End");
  await page.keyboard.press("Delete");
  await page.getByTestId("run-button").click();
  const output = page.getByTestId("run-output");
  await expect(output).toHaveAttribute("data-status", "success");
  await expect(output).toContainText('"total": 7');
});
