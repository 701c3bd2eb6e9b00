import { mkdirSync } from "node:fs";
import { expect, test, type Page, type Route } from "@playwright/test";

// Page weight (issue 12): Monaco, a megabyte of script, is fetched only when the JSON editor is
// shown, and a failure to fetch it stays inside the editor's panel. Monaco's chunks are told apart
// by their text: Monaco reads `self.MonacoEnvironment` (and our setup sets it).
const MONACO = "MonacoEnvironment";
const shots = "e2e/.artifacts/screens";
mkdirSync(shots, { recursive: true });

/** Every script the page fetches, in order, with whether it is part of Monaco. */
function watchScripts(page: Page) {
  const scripts: { url: string; monaco: Promise<boolean> }[] = [];
  page.on("response", (res) => {
    if (res.request().resourceType() !== "script") return;
    scripts.push({
      url: res.url(),
      monaco: res.text().then(
        (t) => t.includes(MONACO),
        () => false,
      ),
    });
  });
  return {
    count: () => scripts.length,
    monacoSince: async (from: number) => {
      const out: string[] = [];
      for (const s of scripts.slice(from)) if (await s.monaco) out.push(s.url);
      return out;
    },
  };
}

/** The page has loaded and hydrated (the form answers) and has fetched what it fetches by itself. */
async function settled(page: Page) {
  await page.waitForLoadState("load");
  await expect(page.getByTestId("param-form")).toBeVisible();
  await expect(page.getByTestId("show-json-editor")).toBeEnabled();
  await page.evaluate(() => new Promise((resolve) => requestIdleCallback(resolve, { timeout: 3000 })));
  await page.waitForTimeout(1500);
}

/** Holds (or fails) the requests for Monaco's chunks; the rest pass as they are. */
async function interceptMonaco(page: Page, handle: (route: Route, pass: () => Promise<void>) => Promise<void>) {
  await page.route("**/_next/static/chunks/*.js", async (route) => {
    const res = await route.fetch();
    const body = await res.body();
    const pass = () => route.fulfill({ response: res, body });
    if (body.includes(MONACO)) await handle(route, pass);
    else await pass();
  });
}

test("the tool page fetches no Monaco chunk until the JSON editor is shown; shown, it loads and edits the arguments", async ({ page }) => {
  const scripts = watchScripts(page);
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto("/tools/add");
  await settled(page);
  expect(await scripts.monacoSince(0)).toEqual([]);
  await expect(page.locator(".monaco-editor")).toHaveCount(0);
  // The arguments are in view all the same, read-only.
  await page.locator("#root_a").fill("4");
  await expect(page.getByTestId("json-preview")).toContainText('"a": 4');
  await page.screenshot({ path: `${shots}/json-editor-closed.png` });

  // Showing it: a loading state in the panel while Monaco comes (held back here to see it).
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  await interceptMonaco(page, async (_route, pass) => {
    await held;
    await pass();
  });
  const before = scripts.count();
  await page.getByTestId("show-json-editor").click();
  await expect(page.getByTestId("json-editor-loading")).toBeVisible();
  await expect(page.getByTestId("json-editor-loading")).toContainText("Loading the JSON editor");
  await page.screenshot({ path: `${shots}/json-editor-loading.png` });
  release();

  const editor = page.getByTestId("json-editor").locator(".monaco-editor").first();
  await expect(editor).toBeVisible({ timeout: 60_000 });
  expect((await scripts.monacoSince(before)).length).toBeGreaterThan(0);
  // Nothing more to hold: a chunk still in the handler when the page navigates away below would
  // fail the test with "Response has been disposed" (it did, once in CI).
  await page.unrouteAll({ behavior: "ignoreErrors" });
  await expect(page.getByTestId("hide-json-editor")).toHaveAttribute("aria-expanded", "true");

  // It works: typed JSON reaches the form, and Run sends it.
  await expect(page.getByTestId("json-editor")).toContainText('"a": 4');
  await editor.click();
  await page.keyboard.press("ControlOrMeta+a");
  await page.keyboard.press("Delete");
  await page.keyboard.type('{"a": 20, "b": 22', { delay: 5 });
  await page.keyboard.press("Escape");
  await expect(page.locator("#root_b")).toHaveValue("22");
  await expect(page.locator("#root_a")).toHaveValue("20");
  await page.screenshot({ path: `${shots}/json-editor-open.png` });
  await page.getByTestId("run-button").click();
  await expect(page.getByTestId("run-output")).toHaveAttribute("data-status", "success");
  await expect(page.getByTestId("run-output")).toContainText("42");

  // Remembered: the next tool page shows it at once.
  await page.goto("/tools/add");
  await expect(page.getByTestId("json-editor").locator(".monaco-editor").first()).toBeVisible();
  await page.getByTestId("hide-json-editor").click();
  await expect(page.getByTestId("json-preview")).toBeVisible();
});

test("when Monaco cannot be fetched, the JSON panel says so and offers plain text; the form and Run still work", async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto("/tools/add");
  await settled(page);
  await interceptMonaco(page, (route) => route.abort("failed"));
  await page.getByTestId("show-json-editor").click();

  const failed = page.getByTestId("json-editor-failed");
  await expect(failed).toBeVisible();
  await expect(failed.getByRole("alert")).toContainText("The JSON editor could not load");
  // ...inside the JSON panel, nowhere else.
  await expect(page.locator(`#tool-json-editor [data-testid="json-editor-failed"]`)).toBeVisible();
  await expect(page.getByRole("alert").filter({ hasText: "could not load" })).toHaveCount(1);

  // The plain text edits the same arguments, both ways.
  const text = page.getByTestId("json-editor-fallback");
  await text.fill('{"a": 5, "b": 6}');
  await expect(page.locator("#root_a")).toHaveValue("5");
  await page.locator("#root_b").fill("7");
  await expect(text).toHaveValue(/"b": 7/);
  await page.screenshot({ path: `${shots}/json-editor-failed.png` });

  await page.getByTestId("run-button").click();
  await expect(page.getByTestId("run-output")).toHaveAttribute("data-status", "success");
  await expect(page.getByTestId("run-output")).toContainText("12");

  // Once Monaco can be fetched again, Retry brings the editor with the text as it is now.
  await page.unrouteAll({ behavior: "ignoreErrors" });
  await page.getByTestId("json-editor-retry").click();
  await expect(page.getByTestId("json-editor").locator(".monaco-editor").first()).toBeVisible({ timeout: 60_000 });
  await expect(page.getByTestId("json-editor")).toContainText('"b": 7');
});
