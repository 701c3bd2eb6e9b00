import { expect, test, type Locator, type Page } from "@playwright/test";

// Keyboard only: every step below is page.keyboard (no clicks, no fill), the focused element shows
// a ring, and focus lands where the answer is (the result after a run, the first field to fix after
// a rejection, the heading after a page change).

/** What shows the focus on the focused element: an outline, or a ring (a box-shadow with spread). */
async function focusRing(page: Page): Promise<string> {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return "nothing focused";
    const cs = getComputedStyle(el);
    const outline = cs.outlineStyle !== "none" && parseFloat(cs.outlineWidth) >= 2 ? `outline ${cs.outlineWidth} ${cs.outlineStyle}` : "";
    // A ring is a box-shadow layer "x y blur spread": a spread of 2px or more (a drop shadow has none).
    const ring = cs.boxShadow.split(/,(?![^(]*\))/).some((layer) => {
      const px = layer.replace(/rgba?\([^)]*\)|oklch\([^)]*\)|oklab\([^)]*\)|color\([^)]*\)/g, "").match(/-?[\d.]+px/g) ?? [];
      return px.length >= 4 && parseFloat(px[3]!) >= 2;
    });
    return outline || (ring ? `ring ${cs.boxShadow}` : `no ring on ${el.tagName}#${el.id}.${el.className}`);
  });
}

async function expectFocusRing(page: Page) {
  // Form inputs fade their ring in (a 150 ms transition): the ring must show, not be there at once.
  await expect.poll(() => focusRing(page), { timeout: 3000 }).toMatch(/^(outline|ring) /);
}

const isFocused = (target: Locator) => target.evaluate((el) => el === document.activeElement).catch(() => false);

/**
 * Press Tab (or Shift+Tab) until `target` has the focus. In the JSON editor Tab indents: press
 * Monaco's Ctrl+M first, its documented way to let Tab move the focus, so the editor is no trap.
 */
async function tabTo(page: Page, target: Locator, { back = false, max = 200 } = {}) {
  for (let i = 0; i < max; i++) {
    if (await isFocused(target)) return;
    // Ctrl+M is a toggle for the whole page: press it once per page load (remembered on window).
    const toggle = await page.evaluate(() => {
      if (!document.activeElement?.closest(".monaco-editor") || document.documentElement.dataset.tabMovesFocus) return false;
      document.documentElement.dataset.tabMovesFocus = "yes";
      return true;
    });
    if (toggle) await page.keyboard.press("Control+m");
    await page.keyboard.press(back ? "Shift+Tab" : "Tab");
  }
  throw new Error(`Tab never reached ${target}`);
}

/** In an open option-domain list, move with the arrow keys to the choice whose text matches, then Enter. */
async function chooseWithArrows(page: Page, field: Locator, option: RegExp) {
  await page.keyboard.press("ArrowDown"); // opens the list and focuses it
  const list = page.getByRole("listbox");
  await expect(list).toBeFocused();
  for (let i = 0; i < 12; i++) {
    const active = await list.getAttribute("aria-activedescendant");
    if (active && option.test(await page.locator(`[id="${active}"]`).innerText())) break;
    await page.keyboard.press("ArrowDown");
  }
  await page.keyboard.press("Enter");
  await expect(list).toBeHidden();
  await expect(field).toBeFocused(); // back on the field, which now shows the choice
}

test("keyboard only: find a tool, fill nested fields, an array and a select, get the errors, run, read the result, open it in history, run it again", async ({
  page,
}) => {
  test.setTimeout(180_000);
  await page.goto("/");
  await page.keyboard.press("Tab");
  await expect(page.getByRole("link", { name: "Skip to content" })).toBeFocused();
  await expectFocusRing(page);

  // Find the tool.
  const search = page.getByLabel("Search tools");
  await tabTo(page, search);
  await expectFocusRing(page);
  await page.keyboard.type("create_event");
  const card = page.getByTestId("tool-card").filter({ hasText: "create_event" });
  await expect(page.getByTestId("tool-card")).toHaveCount(1);
  await tabTo(page, card);
  await expectFocusRing(page);
  await page.keyboard.press("Enter");
  const heading = page.getByRole("heading", { level: 1, name: "Plan an event" });
  await expect(heading).toBeFocused(); // a new page: focus starts at its heading

  // Part of the form, then Run (Ctrl+Enter): the server rejects it and the focus goes to the first field to fix.
  const title = page.locator("#root_title");
  await tabTo(page, title);
  await expectFocusRing(page);
  await page.keyboard.type("Design review");
  await page.keyboard.press("Control+Enter");
  const output = page.getByTestId("run-output");
  await expect(output).toHaveAttribute("data-status", "rejected");
  const start = page.locator("#root_start");
  await expect(start).toBeFocused();
  await expectFocusRing(page);
  await expect(page.getByTestId("run-announcer")).toContainText("Run rejected");
  // The field's error is announced with it.
  const describedBy = (await start.getAttribute("aria-describedby")) ?? "";
  expect(describedBy.split(" ")).toContain("root_start__error");
  await expect(page.locator('[id="root_start__error"]')).not.toBeEmpty();

  // The rest of the form: a date-time, the nested venue (with a select), an array of objects, an array of strings.
  await page.keyboard.type("12012026");
  await page.keyboard.press("ArrowRight");
  await page.keyboard.type("1000A");
  const typeInto = async (fieldId: string, text: string) => {
    await tabTo(page, page.locator(`[id="${fieldId}"]`));
    await expectFocusRing(page);
    await page.keyboard.type(text);
  };
  await typeInto("root_venue_street", "1 Main St");
  await typeInto("root_venue_city", "Lisbon");
  await typeInto("root_venue_country", "Portugal"); // type-to-find in the native select
  await expect(page.locator('[id="root_venue_country"] option:checked')).toHaveText("Portugal");
  await typeInto("root_attendees_0_name", "Ada");
  await typeInto("root_attendees_0_email", "ada@example.com");
  const addTag = page.locator('[id="root_tags__add"]');
  await tabTo(page, addTag);
  await expectFocusRing(page);
  await page.keyboard.press("Enter");
  await typeInto("root_tags_0", "design");
  await expect(page.getByTestId("json-preview")).toContainText('"design"');

  // Show the JSON editor from the keyboard (Monaco is fetched only then)...
  await tabTo(page, page.getByTestId("show-json-editor"));
  await expectFocusRing(page);
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("json-editor").locator(".monaco-editor").first()).toBeVisible({ timeout: 60_000 });
  await expect(page.getByTestId("hide-json-editor")).toBeFocused();

  // ...and Run with the button this time (through the JSON editor, which lets Tab go with Ctrl+M).
  const runButton = page.getByTestId("run-button");
  await tabTo(page, runButton);
  await expectFocusRing(page);
  await page.keyboard.press("Enter");
  await expect(output).toHaveAttribute("data-status", "success");
  const result = page.getByTestId("result-panel");
  await expect(result).toBeFocused(); // the answer is where the focus is
  await expectFocusRing(page);
  await expect(page.getByTestId("run-announcer")).toContainText("Run success");
  await expect(result).toContainText("output matches schema");
  await expect(result.getByTestId("content-resource")).toContainText("BEGIN:VCALENDAR");
  const runId = (await output.getByRole("link", { name: /^run / }).getAttribute("href"))!.split("/").pop()!;

  // Open it in the history.
  const history = page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "History" });
  await tabTo(page, history, { back: true, max: 120 });
  await expectFocusRing(page);
  await page.keyboard.press("Enter");
  await expect(page.getByRole("heading", { level: 1, name: "Run history" })).toBeFocused();
  const row = page.getByRole("link", { name: `open run ${runId}` });
  await tabTo(page, row);
  await expectFocusRing(page);
  await page.keyboard.press("Enter");
  await expect(page.getByRole("heading", { level: 1, name: /^Run / })).toBeFocused();
  await expect(page.getByRole("heading", { level: 1 })).toContainText(runId.slice(0, 8));

  // Run it again: a new run, a replay of this one.
  const again = page.getByTestId("run-again");
  await tabTo(page, again);
  await expectFocusRing(page);
  await page.keyboard.press("Enter");
  await expect(page).not.toHaveURL(new RegExp(runId));
  await expect(page.getByRole("heading", { level: 1, name: /^Run / })).toBeFocused();
  await expect(page.locator("dd").filter({ hasText: runId.slice(0, 8) })).toBeVisible(); // "Replay of"
  await expect(page.getByTestId("run-output")).toHaveAttribute("data-status", "success");
  // Pressed on the studio's own page, under the admin token these specs browse with: origin ui, and
  // the token by a readable name.
  await expect(page.locator('dt:text-is("Origin") + dd')).toHaveText("ui");
  await expect(page.locator('dt:text-is("Actor") + dd')).toHaveText("Admin token (STUDIO_ADMIN_TOKEN)");
  await page.screenshot({ path: "e2e/.artifacts/screens/keyboard-run-again.png", fullPage: true });
});

test("/ focuses the tool search from anywhere on the tool list; inside a field it is typed", async ({ page }) => {
  await page.goto("/");
  const search = page.getByLabel("Search tools");
  await expect(search).not.toBeFocused();
  // The shortcut works once the page's script runs: press until it does (nothing else takes the key).
  await expect(async () => {
    await page.keyboard.press("/");
    await expect(search).toBeFocused({ timeout: 500 });
  }).toPass();
  await expect(search).toHaveValue("");
  await page.keyboard.type("add");
  // From a button further down the page, "/" comes back to the search.
  const readOnly = page.getByRole("group", { name: "Filter by annotations" }).getByRole("button", { name: "read-only" });
  await tabTo(page, readOnly);
  await page.keyboard.press("/");
  await expect(search).toBeFocused();
  await page.keyboard.press("End");
  await page.keyboard.type("/x");
  await expect(search).toHaveValue("add/x");
  // In another field (the source select types to find), "/" stays there.
  await tabTo(page, page.getByLabel("Filter by source"));
  await page.keyboard.press("/");
  await expect(page.getByLabel("Filter by source")).toBeFocused();
});

test("keyboard only: option-domain choices with the arrow keys, Escape to close, run, focus on the result", async ({ page }) => {
  test.setTimeout(120_000);
  await page.goto("/tools/send_message");
  const channel = page.locator('[id="root_channel"]');
  await tabTo(page, channel);
  await expectFocusRing(page);

  // Escape closes the list and gives the focus back.
  await page.keyboard.press("ArrowDown");
  await expect(page.getByRole("listbox")).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(page.getByRole("listbox")).toBeHidden();
  await expect(channel).toBeFocused();

  await chooseWithArrows(page, channel, /telegram\.oncall/);
  await expect(channel).toContainText("telegram.oncall");
  const target = page.locator('[id="root_target"]');
  await tabTo(page, target);
  await chooseWithArrows(page, target, /Marta/);
  await expect(target).toContainText("Marta");
  await tabTo(page, page.locator("#root_text"));
  await page.keyboard.type("pager test from the keyboard");
  await page.keyboard.press("Control+Enter");
  await expect(page.getByTestId("run-output")).toHaveAttribute("data-status", "success");
  await expect(page.getByTestId("result-panel")).toBeFocused();
  await expect(page.getByTestId("run-announcer")).toContainText("Run success");
  await page.screenshot({ path: "e2e/.artifacts/screens/keyboard-domains.png", fullPage: true });
});
