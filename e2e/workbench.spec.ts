import { readFileSync, writeFileSync } from "node:fs";
import { expect, test, type Page } from "@playwright/test";
import { showJsonEditor } from "./support/json-editor";
import { fillCreateEventRequired } from "./support/create-event";

// The workbench while a run is in flight and after it, compare with media, and Settings' save
// feedback: what a person sees, in real Chromium.
const configPath = process.env.E2E_DIR + "/studio.jsonc";
const original = readFileSync(configPath, "utf8");
test.afterAll(() => writeFileSync(configPath, original));

const seconds = async (page: Page) => parseFloat((await page.getByTestId("in-flight-elapsed").textContent()) ?? "0");

test("a run in flight shows its elapsed time and its record in the recent runs; its status line lands below the header", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/tools/slow_count");
  await page.locator("#root_steps").fill("10");
  await page.locator("#root_delayMs").fill("600");
  await page.getByTestId("run-button").click();

  const inFlight = page.getByTestId("run-in-flight");
  await expect(inFlight).toBeVisible();
  await expect(page.getByTestId("result-panel")).toHaveAttribute("aria-busy", "true");
  const first = await seconds(page);
  await expect.poll(() => seconds(page), { timeout: 5_000 }).toBeGreaterThan(first + 0.3); // the clock ticks
  await expect(page.getByTestId("run-elapsed")).toHaveText(/^\d+\.\d s$/);
  const link = inFlight.getByRole("link", { name: /^run / });
  await expect(link).toBeVisible();
  const runId = (await link.getAttribute("href"))!.split("/").pop()!;
  // The recent runs list has it, running, while it runs.
  const row = page.getByTestId("run-row").filter({ has: page.locator(`a[href="/runs/${runId}"]`) });
  await expect(row).toContainText("running");
  await page.screenshot({ path: "e2e/.artifacts/screens/run-in-flight.png", fullPage: true });

  const output = page.getByTestId("run-output");
  await expect(output).toHaveAttribute("data-status", "success", { timeout: 20_000 });
  await expect(inFlight).toBeHidden();
  await expect(row).toContainText("success");
  // Focus is on the result, and its status line shows: below the sticky header, inside the window.
  await expect(page.getByTestId("result-panel")).toBeFocused();
  const header = (await page.locator("header.sticky").boundingBox())!;
  const status = (await output
    .locator("span", { hasText: /^success$/ })
    .first()
    .boundingBox())!;
  expect(status.y).toBeGreaterThanOrEqual(header.y + header.height);
  expect(status.y + status.height).toBeLessThanOrEqual(844);
  await page.screenshot({ path: "e2e/.artifacts/screens/run-finished-phone.png" });
});

test("at 1440 px, a tall result's status line lands in view below the header, and a plain image result zooms and downloads", async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto("/tools/create_event");
  await fillCreateEventRequired(page);
  await page.getByTestId("run-button").click();
  const output = page.getByTestId("run-output");
  await expect(output).toHaveAttribute("data-status", "success");
  expect((await output.boundingBox())!.height, "a result taller than the window").toBeGreaterThan(900);
  await expect(page.getByTestId("result-panel")).toBeFocused();
  const header = (await page.locator("header.sticky").boundingBox())!;
  const status = (await output
    .locator("span", { hasText: /^success$/ })
    .first()
    .boundingBox())!;
  expect(status.y).toBeGreaterThanOrEqual(header.y + header.height);
  expect(status.y + status.height).toBeLessThanOrEqual(900);
  await page.screenshot({ path: "e2e/.artifacts/screens/run-finished-tall-1440.png" });
  // The recent runs beside it are cards that fit their panel: nothing to scroll sideways there either.
  const recent = page.getByTestId("run-table").locator("xpath=..");
  const fit = await recent.evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth }));
  expect(fit.scroll).toBeLessThanOrEqual(fit.client);

  await page.goto("/tools/chart_png");
  for (const [i, v] of ["3", "7", "4"].entries()) {
    await page.locator('[id="root_values__add"]').click();
    await page.locator(`#root_values_${i}`).fill(v);
  }
  await page.getByTestId("run-button").click();
  const image = page.getByTestId("run-output").getByTestId("content-image");
  await expect(image.locator("img")).toHaveAttribute("src", /^data:image\/png;base64,/);
  await image.getByTestId("image-zoom").click();
  await expect(page.getByTestId("image-dialog")).toBeVisible();
  await expect(page.getByTestId("image-full")).toHaveAttribute("src", /^data:image\/png;base64,/);
  await page.keyboard.press("Escape");
  await expect(page.getByTestId("image-dialog")).toBeHidden();
  const [download] = await Promise.all([page.waitForEvent("download"), image.getByTestId("image-download").click()]);
  expect(download.suggestedFilename()).toMatch(/\.png$/);
  expect(
    readFileSync((await download.path())!)
      .subarray(1, 4)
      .toString("latin1"),
  ).toBe("PNG");
});

test("compare shows two image runs as images side by side, without base64 in the diff", async ({ page, request }) => {
  const run = async (values: number[]) =>
    (await (await request.post("/api/tools/chart_png/run", { data: { arguments: { values, width: 200, height: 100 } } })).json()).run;
  const a = await run([1, 2, 3]);
  const b = await run([3, 2, 1, 5]);
  await page.goto(`/runs/compare?run=${a.id}&run=${b.id}`);
  const outputs = page.getByTestId("compare-outputs");
  await expect(outputs.getByTestId("content-image")).toHaveCount(2);
  const [left, right] = [
    (await outputs.getByTestId("content-image").nth(0).boundingBox())!,
    (await outputs.getByTestId("content-image").nth(1).boundingBox())!,
  ];
  expect(right.x).toBeGreaterThan(left.x + left.width - 1); // side by side, not stacked
  expect(Math.abs(right.y - left.y)).toBeLessThan(40);
  // Both structured contents are there to read side by side, and the diff names the paths.
  await expect(outputs.getByRole("region", { name: "Left structured content" })).toContainText('"count": 3');
  await expect(outputs.getByRole("region", { name: "Right structured content" })).toContainText('"count": 4');
  const diff = page.getByTestId("diff-output");
  await expect(diff).toContainText("/structuredContent/count");
  await expect(diff).toContainText("(base64,");
  expect(((await diff.textContent()) ?? "").length).toBeLessThan(20_000);
  await page.screenshot({ path: "e2e/.artifacts/screens/compare-images.png", fullPage: true });
});

/** Puts the cursor at the end of line `line` (1-based) of the Monaco editor, by keyboard. */
async function endOfLine(page: Page, line: number) {
  await page.getByTestId("json-editor").locator(".monaco-editor").first().click();
  await page.keyboard.press("ControlOrMeta+Home");
  for (let i = 1; i < line; i++) await page.keyboard.press("ArrowDown");
  await page.keyboard.press("End");
}

test("settings: a refused save says so beside Save, with the refused line highlighted; a good save says so there too", async ({ page }) => {
  test.setTimeout(120_000);
  await page.goto("/settings");
  await expect(page.getByTestId("live-status")).toHaveText("live");
  await showJsonEditor(page);
  const line = original.split("\n").findIndex((l) => l.includes('"alias": "ops",')) + 1;
  // `"alias": "ops",` becomes `"alias": 42,` (no quotes typed: Monaco's completion would take them).
  await endOfLine(page, line);
  for (let i = 0; i < '"ops",'.length; i++) await page.keyboard.press("Backspace");
  await page.keyboard.type("42,");
  await page.keyboard.press("Escape");
  await expect(page.getByTestId("json-editor")).toContainText('"alias": 42,');
  await page.getByTestId("config-save").click();

  const failed = page.getByTestId("config-save-failed");
  await expect(failed).toContainText(`Not saved: line ${line}`);
  const save = (await page.getByTestId("config-save").boundingBox())!;
  const said = (await failed.boundingBox())!;
  expect(Math.abs(said.y + said.height / 2 - (save.y + save.height / 2))).toBeLessThan(save.height); // the same row as Save
  expect(save.x - (said.x + said.width)).toBeLessThan(260);
  await expect(page.getByTestId("config-save-error")).toContainText("agents[0].alias");
  // The refused line is highlighted in the editor (and in view).
  await expect(page.locator(".monaco-editor .studio-error-line")).toHaveCount(1);
  await expect(page.locator(".monaco-editor .studio-error-line")).toBeVisible();
  await expect(page.locator(".monaco-editor .studio-error-gutter").first()).toBeVisible();
  // ...and it is the refused line: the mark sits level with that line's number and its text.
  const mark = (await page.locator(".monaco-editor .studio-error-line").boundingBox())!;
  const lineNumber = (await page
    .locator(".monaco-editor .line-numbers")
    .filter({ hasText: new RegExp(`^${line}$`) })
    .boundingBox())!;
  expect(Math.abs(lineNumber.y - mark.y)).toBeLessThan(2);
  const refusedText = (await page.locator(".monaco-editor .view-line").filter({ hasText: '"alias": 42,' }).boundingBox())!;
  expect(Math.abs(refusedText.y - mark.y)).toBeLessThan(2);
  await page.screenshot({ path: "e2e/.artifacts/screens/settings-save-refused.png" });

  // Revert clears the refusal and its marks; a comment on line 1 is a good edit that saves.
  await page.getByTestId("config-revert").click();
  await expect(page.locator(".monaco-editor .studio-error-line")).toHaveCount(0);
  await expect(page.getByTestId("config-save-error")).toHaveCount(0);
  await endOfLine(page, 1);
  await page.keyboard.type(" (saved by e2e/workbench.spec.ts)");
  await page.getByTestId("config-save").click();
  await expect(page.getByTestId("config-saved")).toContainText("Saved: version");
  expect(readFileSync(configPath, "utf8").split("\n")[0]).toMatch(/\(saved by e2e\/workbench\.spec\.ts\)$/);
});
