import { expect, test, type APIRequestContext, type Page } from "@playwright/test";

// Invocation triggers: the /triggers page and POST /api/triggers/match, against the built-in tools'
// real triggers (lib/builtin-tools/*.ts). Other tools or runtime config may add triggers, so the
// API tests look at the tools they name rather than at the whole answer.

async function shot(page: Page, name: string) {
  await page.screenshot({ path: `e2e/.artifacts/screens/${name}.png`, fullPage: true });
}

type Match = { tool: string; triggers: string[]; spans?: { start: number; end: number; trigger: string }[] };

async function match(request: APIRequestContext, message: string): Promise<Match[]> {
  const res = await request.post("/api/triggers/match", { data: { message } });
  expect(res.status()).toBe(200);
  const body = await res.json();
  expect(Array.isArray(body.matches)).toBe(true);
  return body.matches;
}

const triggersOf = (matches: Match[], tool: string) => matches.find((m) => m.tool === tool)?.triggers;

test("the triggers page highlights the phrases of a typed message and lists the tools they nudge toward", async ({ page }) => {
  await page.goto("/");
  await page.getByRole("navigation").getByRole("link", { name: "Triggers", exact: true }).click();
  await expect(page).toHaveURL(/\/triggers$/);
  await expect(page.getByRole("heading", { name: "Invocation triggers" })).toBeVisible();

  // every tool and its triggers are listed
  const addRow = page.locator('[data-testid="trigger-row"][data-tool="add"]');
  await expect(addRow).toContainText("Add two integers");
  await expect(addRow).toContainText("addition");
  for (const tool of ["add", "chart_png", "create_event", "fail", "json_query", "slow_count"]) {
    await expect(page.locator(`[data-testid="trigger-row"][data-tool="${tool}"]`)).toBeVisible();
  }

  const box = page.getByPlaceholder("Type a message an agent might receive…");
  await box.pressSequentially("please add 2 and 40", { delay: 20 });

  const add = page.locator('[data-testid="trigger-match"][data-tool="add"]');
  await expect(add).toBeVisible();
  await expect(add).toContainText("Add two integers");
  await expect(add.getByRole("link")).toHaveAttribute("href", "/tools/add");
  const preview = page.getByTestId("trigger-preview");
  const marks = preview.locator("mark");
  await expect(preview).toHaveText("please add 2 and 40");
  await expect(marks.filter({ hasText: /^add$/ })).toHaveCount(1);
  await expect(marks.filter({ hasText: /^add$/ })).toHaveAttribute("data-tools", /(^| )add( |$)/);
  await shot(page, "triggers");

  // an example chip fills the box and is matched
  await page.getByRole("button", { name: "draw a chart of these numbers" }).click();
  await expect(box).toHaveValue("draw a chart of these numbers");
  await expect(page.locator('[data-testid="trigger-match"][data-tool="chart_png"]')).toBeVisible();
  await expect(preview).toHaveText("draw a chart of these numbers");
  await expect(marks.filter({ hasText: /^chart$/ })).toHaveCount(1);

  // the message is user text: shown as text, never as markup
  await box.fill('<img src=x onerror="window.__xss=1"> add <b>me</b>');
  await expect(page.locator('[data-testid="trigger-match"][data-tool="add"]')).toBeVisible();
  await expect(preview).toContainText('<img src=x onerror="window.__xss=1">');
  await expect(preview.locator("img, b")).toHaveCount(0);
  expect(await page.evaluate(() => (window as Window & { __xss?: number }).__xss)).toBeUndefined();

  // a word that only contains a trigger does not match it
  await box.fill("my address summary");
  await expect(preview).toHaveText("my address summary");
  await expect(page.locator('[data-testid="trigger-match"][data-tool="add"]')).toHaveCount(0);
  await expect(marks.filter({ hasText: /add|sum/ })).toHaveCount(0);
});

test("POST /api/triggers/match: whole phrases, case-insensitive, Unicode boundaries", async ({ request }) => {
  // a phrase of several words
  const phrase = await match(request, "could you schedule a meeting with marta");
  expect(triggersOf(phrase, "create_event")).toEqual(["schedule a meeting"]);
  expect(phrase.find((m) => m.tool === "create_event")?.spans).toEqual([{ start: 10, end: 28, trigger: "schedule a meeting" }]);

  // inside a longer word: no match, at the start or at the end of the word
  const inside = await match(request, "my address book, a summary, a subplot");
  expect(triggersOf(inside, "add")).toBeUndefined();
  expect(triggersOf(inside, "chart_png")).toBeUndefined();

  // punctuation, `_` and `-` are boundaries; case does not matter
  expect(triggersOf(await match(request, "Sum: 2, 3."), "add")).toEqual(["sum"]);
  expect(triggersOf(await match(request, "PLEASE ADD 2 AND 40"), "add")).toEqual(["add"]);
  expect(triggersOf(await match(request, "run chart_png"), "chart_png")).toEqual(["chart"]);
  expect(triggersOf(await match(request, "make it fail-fast"), "fail")).toEqual(["fail"]);

  // digits are not boundaries
  expect(triggersOf(await match(request, "add2 plus3"), "add")).toBeUndefined();

  // ideographs are letters: spaces around a trigger make a boundary, ideographs do not
  expect(triggersOf(await match(request, "グラフ chart 作成"), "chart_png")).toEqual(["chart"]);
  expect(triggersOf(await match(request, "グラフchart作成"), "chart_png")).toBeUndefined();

  // astral characters: a mathematical letter is a letter, an emoji is a boundary
  expect(triggersOf(await match(request, "𝐀add"), "add")).toBeUndefined();
  const rocket = await match(request, "🚀add");
  expect(triggersOf(rocket, "add")).toEqual(["add"]);
  expect(rocket.find((m) => m.tool === "add")?.spans).toEqual([{ start: 2, end: 5, trigger: "add" }]);

  // the most distinct matched triggers first; triggers in declaration order
  const many = await match(request, "plot a bar chart, then add it up");
  const chart = many.findIndex((m) => m.tool === "chart_png");
  const add = many.findIndex((m) => m.tool === "add");
  expect(chart).toBeGreaterThanOrEqual(0);
  expect(add).toBeGreaterThan(chart);
  expect(many[chart].triggers).toEqual(["chart", "plot", "bar chart"]);

  // nothing matches an empty message
  expect(await match(request, "")).toEqual([]);
});

test("POST /api/triggers/match: bad bodies are 400", async ({ request }) => {
  const missing = await request.post("/api/triggers/match", { data: {} });
  expect(missing.status()).toBe(400);
  const body = await missing.json();
  expect(body.error.kind).toBe("bad_request");
  expect(body.error.details).toEqual(expect.arrayContaining([expect.objectContaining({ path: "/message" })]));

  expect((await request.post("/api/triggers/match", { data: { message: 42 } })).status()).toBe(400);
  expect((await request.post("/api/triggers/match", { data: { message: "x".repeat(10_001) } })).status()).toBe(400);
  expect((await request.post("/api/triggers/match", { data: { message: "x".repeat(10_000) } })).status()).toBe(200);
  const notJson = await request.post("/api/triggers/match", { data: Buffer.from("{oops"), headers: { "content-type": "application/json" } });
  expect(notJson.status()).toBe(400);
  expect((await notJson.json()).error.message).toMatch(/not valid JSON/);
});
