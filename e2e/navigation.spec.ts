import { expect, test, type APIRequestContext } from "@playwright/test";

// Moving between tools: the sidebar on the tool page, the tool list's filters in its URL, and a
// tool without parameters.

test("tool sidebar: / focuses the search, typing filters, arrow keys and Enter open another tool, the current one is marked", async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto("/tools/add");
  const sidebar = page.getByRole("navigation", { name: "Switch tool" });
  const current = sidebar.locator('[aria-current="page"]');
  await expect(current).toHaveCount(1);
  await expect(current).toHaveAttribute("href", "/tools/add");
  await page.screenshot({ path: "e2e/.artifacts/screens/tool-sidebar-1440.png" });
  // The list is one Tab stop (the current tool); the arrow keys move inside it.
  await expect(sidebar.locator('a[tabindex="0"]')).toHaveCount(1);
  await expect(sidebar.locator('a[tabindex="0"]')).toHaveAttribute("href", "/tools/add");
  await sidebar.getByLabel("Find a tool").focus();
  await page.keyboard.press("Tab");
  await expect(current).toBeFocused();
  await page.keyboard.press("Tab");
  await expect(sidebar.locator(":focus")).toHaveCount(0); // Tab leaves the list

  const search = sidebar.getByLabel("Find a tool");
  await page.keyboard.press("/");
  await expect(search).toBeFocused();
  await expect(search).toHaveValue(""); // the "/" itself is not typed

  await page.keyboard.type("_");
  const items = sidebar.getByTestId("tool-sidebar-item");
  await expect.poll(() => items.count()).toBeGreaterThan(2);
  for (const text of await items.allTextContents()) expect(text).toContain("_");
  await expect(sidebar.locator('a[href="/tools/add"]')).toHaveCount(0); // "add" has no "_" in name, title or source

  await expect(sidebar.locator('a[tabindex="0"]')).toHaveCount(1); // the first match, "add" being filtered out
  await page.keyboard.press("ArrowDown");
  await expect(items.nth(0)).toBeFocused();
  await page.keyboard.press("ArrowDown");
  await expect(items.nth(1)).toBeFocused();
  await page.keyboard.press("ArrowUp");
  await page.keyboard.press("ArrowDown");
  await expect(items.nth(1)).toBeFocused();
  const href = (await items.nth(1).getAttribute("href"))!;
  expect(href).toMatch(/^\/tools\/[^?]+\?find=_$/); // the search travels with the link
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL((u) => u.pathname + u.search === href);
  const after = page.getByRole("navigation", { name: "Switch tool" });
  await expect(after.locator('[aria-current="page"]')).toHaveAttribute("href", href);
  // The other tool's page keeps the search and its matches; so does a reload.
  await expect(after.getByLabel("Find a tool")).toHaveValue("_");
  for (const text of await after.getByTestId("tool-sidebar-item").allTextContents()) expect(text).toContain("_");
  await page.reload();
  await expect(page.getByLabel("Find a tool")).toHaveValue("_");

  // Emptying the search takes it out of the URL, without a navigation.
  await page.getByLabel("Find a tool").fill("");
  await expect(page).toHaveURL((u) => u.pathname + u.search === href.split("?")[0]);

  // Enter in the search opens the first match.
  await page.locator("h1").click();
  await page.keyboard.press("/");
  await page.keyboard.type("add");
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/tools\/add\?find=add$/);
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Add two integers");
});

test("tool sidebar stays in view beside a long tool page at 1440 px", async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto("/tools/create_event");
  const sidebar = page.getByTestId("tool-sidebar");
  await expect(sidebar.getByLabel("Find a tool")).toBeVisible();
  const pageHeight = await page.evaluate(() => document.documentElement.scrollHeight);
  expect(pageHeight, "the page is long enough to scroll").toBeGreaterThan(1400);
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(400);
  const header = (await page.locator("header.sticky").boundingBox())!;
  const box = (await sidebar.boundingBox())!;
  expect(box.y).toBeGreaterThanOrEqual(header.y + header.height); // below the header
  expect(box.y).toBeLessThan(900);
  await expect(sidebar.getByLabel("Find a tool")).toBeInViewport();
  await expect(sidebar.locator('[aria-current="page"]')).toBeInViewport();
  await page.screenshot({ path: "e2e/.artifacts/screens/tool-sidebar-scrolled-1440.png" });
});

test("tool sidebar folds into a Tools button at 390 px and the page does not scroll sideways", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/tools/create_event");
  const toggle = page.getByTestId("tool-sidebar-toggle");
  const search = page.getByLabel("Find a tool");
  await expect(toggle).toBeVisible();
  await expect(toggle).toHaveAttribute("aria-expanded", "false");
  await expect(search).toBeHidden();
  await toggle.click();
  await expect(toggle).toHaveAttribute("aria-expanded", "true");
  await expect(search).toBeVisible();
  await expect(page.locator('[data-testid=tool-sidebar] [aria-current="page"]')).toHaveAttribute("href", "/tools/create_event");
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await toggle.click();
  // "/" opens it again and focuses the search.
  await page.locator("h1").click();
  await page.keyboard.press("/");
  await expect(search).toBeFocused();
  await page.screenshot({ path: "e2e/.artifacts/screens/tool-sidebar-390.png" });
});

test("the tool list keeps its search and filters in the URL, so Back returns to the same list", async ({ page }) => {
  await page.goto("/");
  await page.getByLabel("Search tools").fill("message");
  await page.getByLabel("Filter by source").selectOption("builtin");
  await page.getByRole("button", { name: "writes", exact: true }).click();
  await expect(page).toHaveURL(/\/\?q=message&source=builtin&hint=writes$/);
  const cards = page.getByTestId("tool-card");
  await expect(cards.filter({ hasText: "send_message" })).toHaveCount(1);
  const count = await cards.count();

  await cards.first().click();
  await expect(page).toHaveURL(/\/tools\//);
  await page.goBack();
  await expect(page).toHaveURL(/\/\?q=message&source=builtin&hint=writes$/);
  await expect(page.getByLabel("Search tools")).toHaveValue("message");
  await expect(page.getByLabel("Filter by source")).toHaveValue("builtin");
  await expect(page.getByRole("button", { name: "writes", exact: true })).toHaveAttribute("aria-pressed", "true");
  await expect(cards).toHaveCount(count);

  // Cleared filters leave a plain URL.
  await page.getByLabel("Search tools").fill("");
  await page.getByLabel("Filter by source").selectOption("all");
  await page.getByRole("button", { name: "writes", exact: true }).click();
  await expect(page).toHaveURL(/\/$/);
});

/** Adds a runtime tool to the config through the API; returns a function that puts the config back. */
async function addRuntimeTool(request: APIRequestContext, tool: object): Promise<() => Promise<void>> {
  const before = await (await request.get("/api/config")).json();
  const text = (before.raw as string).replace(/"tools"\s*:\s*\[/, (m) => `${m}\n    ${JSON.stringify(tool)},`);
  expect(text).not.toBe(before.raw);
  const put = await request.put("/api/config", { data: { text, expectedVersion: before.version } });
  expect(put.status()).toBe(200);
  const { version } = await put.json();
  return async () => {
    expect((await request.put("/api/config", { data: { text: before.raw, expectedVersion: version } })).status()).toBe(200);
  };
}

test("a tool without parameters says it takes no arguments instead of showing an empty form", async ({ page, request }) => {
  const name = `e2e_no_args_${Date.now().toString(36)}`;
  const restore = await addRuntimeTool(request, {
    name,
    title: "No arguments",
    description: "Answers without arguments.",
    inputSchema: { type: "object" },
    expression: '{"ok": true}',
  });
  try {
    await expect.poll(async () => (await request.get(`/api/tools/${name}`)).status()).toBe(200);
    await page.goto(`/tools/${name}`);
    await expect(page.getByTestId("no-arguments")).toHaveText("This tool takes no arguments.");
    await expect(page.getByTestId("param-form")).toHaveCount(0);
    await page.getByTestId("run-button").click();
    await expect(page.getByTestId("run-output")).toHaveAttribute("data-status", "success");
    // A tool with parameters still shows its form.
    await page.goto("/tools/add");
    await expect(page.getByTestId("param-form")).toBeVisible();
    await expect(page.getByTestId("no-arguments")).toHaveCount(0);
  } finally {
    await restore();
  }
});

test("at 390 px the tables of history, audit and users reflow into cards: none scrolls sideways inside its box", async ({ page, request }) => {
  expect((await request.post("/api/tools/add/run", { data: { arguments: { a: 1, b: 2 } } })).ok()).toBe(true);
  await page.setViewportSize({ width: 390, height: 844 });
  let tables = 0;
  for (const path of ["/runs", "/audit", "/users"]) {
    await page.goto(path);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    const found = page.locator('table[data-testid$="-table"]');
    await expect(found.first()).toBeVisible();
    for (const table of await found.all()) {
      tables++;
      const fit = await table.evaluate((el) => ({
        name: el.getAttribute("data-testid"),
        scroll: el.parentElement!.scrollWidth,
        client: el.parentElement!.clientWidth,
      }));
      expect(fit.scroll, `${path} ${fit.name} fits its box`).toBeLessThanOrEqual(fit.client);
    }
    await page.screenshot({ path: `e2e/.artifacts/screens/tables-390${path.replace("/", "-")}.png`, fullPage: true });
  }
  expect(tables).toBeGreaterThanOrEqual(3);
});
