import { expect, test } from "@playwright/test";

declare global {
  interface Window {
    /** The URLs the page set through the History API (the debounce test records them). */
    urlSteps?: string[];
  }
}

// The history beyond a list: filters, stats, compare, export and presets.
test("filter by text, see a tool's stats, compare two runs, export them", async ({ page, request }) => {
  const a = (await (await request.post("/api/tools/add/run", { data: { arguments: { a: 1111, b: 1 } } })).json()).run;
  const b = (await (await request.post("/api/tools/add/run", { data: { arguments: { a: 2222, b: 1 } } })).json()).run;

  await page.goto("/runs");
  await page.getByLabel("Tool", { exact: true }).selectOption("add");
  await page.getByLabel("Text").fill("2222");
  await expect(page).toHaveURL(/\/runs\?tool=add&q=2222$/);
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

test("a filter chosen before the page's script has run is kept, and the next change adds to it", async ({ page, request }) => {
  const marker = String(91_000 + Math.floor(Math.random() * 8_000));
  await request.post("/api/tools/add/run", { data: { arguments: { a: Number(marker), b: 3 } } });
  // Hold the page's script back, so the choice lands in server-rendered HTML nobody listens to yet.
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  await page.route(
    (url) => url.pathname.startsWith("/_next/static/") && url.pathname.endsWith(".js"),
    async (route) => {
      await gate;
      await route.continue();
    },
  );
  await page.goto("/runs", { waitUntil: "domcontentloaded" });
  await page.getByLabel("Tool", { exact: true }).selectOption("add");
  release();
  await expect(page).toHaveURL(/\/runs\?tool=add$/);
  await page.getByLabel("Text").fill(marker);
  await expect(page).toHaveURL(new RegExp(`/runs\\?tool=add&q=${marker}$`));
  await expect(page.getByLabel("Tool", { exact: true })).toHaveValue("add");
  await expect(page.getByTestId("run-row")).toHaveCount(1);
});

test("filters apply as they change, with only the set filters in the URL; the no-JS form's empty fields are dropped", async ({ page, request }) => {
  const marker = String(31_000 + Math.floor(Math.random() * 60_000));
  const run = (await (await request.post("/api/tools/add/run", { data: { arguments: { a: Number(marker), b: 2 } } })).json()).run;
  await page.goto("/runs");
  await expect(page.getByRole("button", { name: "Apply", exact: true })).toHaveCount(0);
  await page.getByLabel("Status").selectOption("success");
  await expect(page).toHaveURL(/\/runs\?status=success$/);
  await page.getByLabel("Tool", { exact: true }).selectOption("add");
  await expect(page).toHaveURL(/\/runs\?tool=add&status=success$/);
  // Typing waits for a pause, then applies: one step in the URL, not one per key. Every URL the
  // page sets is recorded: none may hold a partial text.
  await page.evaluate(() => {
    const steps: string[] = (window.urlSteps = []);
    for (const k of ["pushState", "replaceState"] as const) {
      const original = history[k].bind(history);
      history[k] = (data: unknown, unused: string, url?: string | URL | null) => {
        if (url) steps.push(String(url));
        original(data, unused, url);
      };
    }
  });
  await page.getByLabel("Text").pressSequentially(marker, { delay: 40 });
  await expect(page).toHaveURL(new RegExp(`/runs\\?tool=add&status=success&q=${marker}$`));
  const steps = await page.evaluate(() => (window.urlSteps ?? []).filter((u) => u.includes("q=")));
  expect(steps.length).toBeGreaterThanOrEqual(1);
  expect(
    steps.filter((u) => !u.endsWith(`q=${marker}`)),
    "no URL with a partly typed text",
  ).toEqual([]);
  await expect(page.getByTestId("run-row")).toHaveCount(1);
  await expect(page.getByTestId("run-row").first()).toHaveAttribute("data-href", `/runs/${run.id}`);
  // Back to "any": the parameter leaves the URL.
  await page.getByLabel("Status").selectOption("");
  await page.getByLabel("Tool", { exact: true }).selectOption("");
  await expect(page).toHaveURL(new RegExp(`/runs\\?q=${marker}$`));
  await page.getByRole("link", { name: "Clear", exact: true }).click();
  await expect(page).toHaveURL(/\/runs$/);
  await expect(page.getByLabel("Text")).toHaveValue("");

  // What a browser without JavaScript submits: every field, most empty.
  await page.goto(`/runs?tool=add&source=&status=&errorKind=&origin=&actor=&since=&until=&q=${marker}`);
  await expect(page).toHaveURL(new RegExp(`/runs\\?tool=add&q=${marker}$`));
  await expect(page.getByTestId("run-row")).toHaveCount(1);
  await page.screenshot({ path: "e2e/.artifacts/screens/history-filtered.png", fullPage: true });
});

test("the run table is keyboard navigable: arrow keys move between rows with a visible focus ring, Enter opens the run", async ({ page, request }) => {
  for (const a of [501, 502, 503]) expect((await request.post("/api/tools/add/run", { data: { arguments: { a, b: 0 } } })).ok()).toBe(true);
  await page.goto("/runs?tool=add");
  const rows = page.getByTestId("run-row");
  await expect.poll(() => rows.count()).toBeGreaterThanOrEqual(3);
  // Tab from the text filter reaches the first row (one row is in the tab order).
  await page.getByLabel("Text").focus();
  for (let i = 0; i < 8 && !(await rows.first().evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press("Tab");
  await expect(rows.first()).toBeFocused();
  await page.keyboard.press("ArrowDown");
  await expect(rows.nth(1)).toBeFocused();
  await page.keyboard.press("ArrowDown");
  await expect(rows.nth(2)).toBeFocused();
  await page.keyboard.press("ArrowUp");
  await expect(rows.nth(1)).toBeFocused();
  const ring = await rows.nth(1).evaluate((el) => ({ style: getComputedStyle(el).outlineStyle, width: parseFloat(getComputedStyle(el).outlineWidth) }));
  expect(ring.style).toBe("solid");
  expect(ring.width).toBeGreaterThanOrEqual(2);
  expect(await rows.nth(1).getAttribute("tabindex")).toBe("0");
  expect(await rows.nth(0).getAttribute("tabindex")).toBe("-1");
  await page.screenshot({ path: "e2e/.artifacts/screens/history-row-focus.png" });
  const href = (await rows.nth(1).getAttribute("data-href"))!;
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(new RegExp(`${href}$`));
  await expect(page.getByRole("heading", { name: /^Run / })).toContainText(href.split("/").pop()!.slice(0, 8));
});

test("a click anywhere on a history row opens its run; its checkbox only selects it", async ({ page, request }) => {
  const marker = 7000 + Math.floor(Math.random() * 1000);
  const { run } = await (await request.post("/api/tools/add/run", { data: { arguments: { a: marker, b: 1 } } })).json();
  await page.goto(`/runs?tool=add&q=${marker}`);
  const row = page.locator(`[data-testid="run-row"][data-href="/runs/${run.id}"]`);
  await expect(row).toBeVisible();
  const box = row.getByRole("checkbox");
  if (await box.count()) {
    await box.click();
    await expect(box).toBeChecked();
    await expect(page).toHaveURL(/\/runs\?/);
  }
  // The arguments cell holds no link: the row itself answers the click.
  await row.getByText(`"a":${marker}`).click();
  await expect(page).toHaveURL(new RegExp(`/runs/${run.id}$`));
  await expect(page.getByRole("heading", { level: 1, name: /^Run / })).toContainText(run.id.slice(0, 8));
});

test("presets: save under an inline name (server errors beside the field), load, rename and delete with a confirmation", async ({ page }) => {
  await page.goto("/tools/add");
  await page.locator("#root_a").fill("7");
  await page.locator("#root_b").fill("8");
  const dialogs: string[] = []; // names are typed inline: no prompt() or confirm()
  page.on("dialog", (d) => {
    dialogs.push(d.type());
    d.dismiss().catch(() => {});
  });

  await page.getByTestId("save-preset").click();
  const name = page.getByLabel("Preset name");
  await expect(name).toBeFocused();
  // The server's limit, said beside the field.
  await name.fill("x".repeat(101));
  await page.getByTestId("preset-save-submit").click();
  await expect(page.getByTestId("preset-name-error")).toContainText("100");
  await expect(name).toHaveAttribute("aria-invalid", "true");
  await name.fill("seven and eight");
  await expect(page.getByTestId("preset-name-error")).toHaveCount(0);
  await page.getByTestId("preset-save-submit").click();
  await expect(page.getByText("Saved “seven and eight”")).toBeVisible();
  await expect(page.getByLabel("Preset name")).toHaveCount(0);

  await page.getByTestId("reset-form").click();
  await expect(page.locator("#root_a")).toHaveValue("");
  await page.getByLabel("Load a preset").selectOption({ label: "seven and eight" });
  await expect(page.locator("#root_a")).toHaveValue("7");
  await expect(page.locator("#root_b")).toHaveValue("8");

  // A second preset, then rename: onto a taken name is refused by the server, beside the field.
  await page.getByTestId("save-preset").click();
  await page.getByLabel("Preset name").fill("other");
  await page.getByLabel("Preset name").press("Enter");
  await expect(page.getByText("Saved “other”")).toBeVisible();
  await page.getByTestId("manage-presets").click();
  await page.getByRole("button", { name: "Rename preset seven and eight" }).click();
  const rename = page.getByLabel("New name for “seven and eight”");
  await expect(rename).toBeFocused();
  await rename.fill("other");
  await page.getByTestId("preset-rename-submit").click();
  await expect(page.getByTestId("preset-name-error")).toHaveText("another preset already has this name");
  await rename.fill("7 + 8");
  await page.getByTestId("preset-rename-submit").click();
  await expect(page.getByText("Renamed “seven and eight” to “7 + 8”")).toBeVisible();
  await expect(page.getByTestId("preset-item")).toHaveText([/7 \+ 8/, /other/]);
  await page.screenshot({ path: "e2e/.artifacts/screens/presets-manage.png" });

  // Delete asks first; Cancel keeps it.
  await page.getByRole("button", { name: "Delete preset other" }).click();
  const confirm = page.getByTestId("confirm-delete-preset");
  await expect(confirm).toContainText("cannot be undone");
  await confirm.getByRole("button", { name: "Cancel" }).click();
  await expect(page.getByTestId("preset-item")).toHaveCount(2);
  await page.getByRole("button", { name: "Delete preset other" }).click();
  await page.getByTestId("confirm-delete-preset").getByRole("button", { name: "Delete", exact: true }).click();
  await expect(page.getByText("Deleted “other”")).toBeVisible();
  await expect(page.getByTestId("preset-item")).toHaveText([/7 \+ 8/]);

  // The server agrees, after a reload.
  await page.reload();
  await expect(page.getByLabel("Load a preset").locator("option")).toHaveText(["Presets…", "7 + 8"]);
  expect(dialogs).toEqual([]);
});

test("at 390 px the run table reflows into one card per run: nothing scrolls sideways, not even inside the table", async ({ page, request }) => {
  expect((await request.post("/api/tools/add/run", { data: { arguments: { a: 390, b: 844 } } })).ok()).toBe(true);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/runs");
  const table = page.getByTestId("run-table");
  await expect(page.getByTestId("run-row").first()).toBeVisible();
  const region = table.locator("xpath=..");
  const widths = await region.evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth }));
  expect(widths.scroll, "the table fits its region").toBeLessThanOrEqual(widths.client);
  const row = (await page.getByTestId("run-row").first().boundingBox())!;
  expect(row.x).toBeGreaterThanOrEqual(0);
  expect(row.x + row.width).toBeLessThanOrEqual(390);
  // The card keeps what identifies the run: its status, tool, arguments and time.
  await expect(page.getByTestId("run-row").first()).toContainText("add");
  await expect(page.getByTestId("run-row").first()).toContainText('"a":390');
  await page.screenshot({ path: "e2e/.artifacts/screens/history-390-cards.png", fullPage: true });
});
