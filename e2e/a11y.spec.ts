import AxeBuilder from "@axe-core/playwright";
import { expect, test, type APIRequestContext, type Browser, type Page } from "@playwright/test";
import { showJsonEditor } from "./support/json-editor";
import { fillCreateEventRequired } from "./support/create-event";

// WCAG 2.2 AA, checked by axe on every page, in both themes, at a desktop and a phone size, with
// forms filled and results shown. Critical and serious violations fail the test; every finding is
// printed (AXE lines) so a report can be read from the run.

const TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"];
const BASE = `http://127.0.0.1:${process.env.E2E_PORT ?? 3123}`;

type Fixture = { runId: string; otherRunId: string; longRunId: string; chartRunId: string; viewer: { email: string; password: string } };

/** Unbroken strings as tools return them (a URL, an id, base64): they must wrap or scroll in their box. */
const LONG = {
  url: `https://example.com/files/${"a1b2c3d4".repeat(30)}?signature=${"Zm9vYmFy".repeat(20)}`,
  id: `run_${"0123456789abcdef".repeat(12)}`,
  base64: "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk".repeat(10),
};
let fixture: Promise<Fixture> | undefined;

/** Runs to open and compare (one with long unbroken strings, one with an image) and a viewer (for the forbidden page), made once per worker. */
function setup(request: APIRequestContext): Promise<Fixture> {
  fixture ??= (async () => {
    const run = async (tool: string, args: object) => {
      const res = await request.post(`/api/tools/${tool}/run`, { data: { arguments: args } });
      expect(res.ok()).toBe(true);
      return ((await res.json()) as { run: { id: string } }).run.id;
    };
    const runId = await run("create_event", {
      title: "Design review",
      start: "2026-12-01T10:00:00Z",
      venue: { kind: "in_person", street: "1 Main St", city: "Lisbon", country: "Portugal" },
      attendees: [{ name: "Ada", email: "ada@example.com" }],
      tags: ["design"],
    });
    const otherRunId = await run("add", { a: 2, b: 40 });
    // A flat map of strings with a content-type, like the maps e2e/inference.spec.ts sends json_query: the shape it checks stays true.
    const longRunId = await run("json_query", { data: { "content-type": "text/plain", ...LONG, joined: LONG.url + LONG.id + LONG.base64 }, expression: "$" });
    const chartRunId = await run("chart_png", { values: [3, 7, 4, -2, 9, 12, 6] });
    expect((await request.post("/api/tools/add/run", { data: { arguments: { a: "x" } } })).status()).toBe(400); // a rejected run too
    const viewer = { email: `a11y-viewer-${Date.now().toString(36)}@example.com`, password: "a11y-viewer-password" };
    const res = await request.post("/api/users", { data: { ...viewer, role: "viewer" }, headers: { origin: BASE } });
    expect(res.status()).toBe(201);
    return { runId, otherRunId, longRunId, chartRunId, viewer };
  })();
  fixture.catch(() => (fixture = undefined)); // a failed setup is tried again by the next test
  return fixture;
}

/**
 * Content reflows: the page itself never scrolls sideways (tables and code may scroll inside their
 * own region). Soft, so one walk reports every page that fails, each with what sticks out.
 */
async function expectNoSidewaysScroll(page: Page, label: string) {
  const widths = await page.evaluate(() => {
    const doc = document.scrollingElement ?? document.documentElement;
    const view = doc.clientWidth;
    // Inside a box that scrolls or clips, so it cannot widen the page. An absolutely positioned
    // element (e.g. `sr-only` text) escapes every box up to its positioned ancestor; a fixed one
    // never widens the page.
    const inClippingBox = (el: Element) => {
      let position = getComputedStyle(el).position;
      if (position === "fixed") return true;
      for (let a = el.parentElement; a && a !== document.body && a !== document.documentElement; a = a.parentElement) {
        const style = getComputedStyle(a);
        if (position === "absolute" && style.position === "static") continue;
        if (style.overflowX !== "visible") return true;
        if (style.position === "fixed") return true;
        position = style.position;
      }
      return false;
    };
    // What sticks out past the window and is not inside a box that scrolls or clips: elements, and
    // text that overflows its own box (a long unbroken id or URL leaves its element's box as it is).
    const found: { el: Element; right: number; width: number; text: boolean }[] = [];
    for (const el of document.body.querySelectorAll("*")) {
      const r = el.getBoundingClientRect();
      if (r.width > 0 && r.right + window.scrollX > view + 1 && !inClippingBox(el))
        found.push({ el, right: r.right + window.scrollX, width: r.width, text: false });
    }
    const texts = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = texts.nextNode(); node; node = texts.nextNode()) {
      const box = node.parentElement;
      if (!box || !node.textContent?.trim()) continue;
      const range = document.createRange();
      range.selectNodeContents(node);
      const r = range.getBoundingClientRect();
      if (r.width > 0 && r.right + window.scrollX > view + 1 && getComputedStyle(box).overflowX === "visible" && !inClippingBox(box))
        found.push({ el: box, right: r.right + window.scrollX, width: r.width, text: true });
    }
    // The outermost of them say what to fix; widest first.
    const sticking = new Set(found.filter((f) => !f.text).map((f) => f.el));
    const outermost = found.filter((f) => (f.text ? !sticking.has(f.el) : !f.el.parentElement || !sticking.has(f.el.parentElement)));
    const describe = ({ el, right, width, text }: (typeof found)[number]) => {
      const id = el.id ? `#${el.id}` : "";
      const testId = el.getAttribute("data-testid") ? `[data-testid=${el.getAttribute("data-testid")}]` : "";
      const cls = typeof el.className === "string" && el.className ? `.${el.className.trim().split(/\s+/).slice(0, 6).join(".")}` : "";
      const words = (el.textContent ?? "").replace(/\s+/g, " ").trim().slice(0, 40);
      return `${text ? "text in " : ""}<${el.tagName.toLowerCase()}${id}${testId}${cls}> ${Math.round(width)}px wide, right edge at ${Math.round(right)}px${words ? ` ("${words}")` : ""}`;
    };
    return {
      scroll: doc.scrollWidth,
      view,
      out: outermost
        .sort((a, b) => b.width - a.width)
        .slice(0, 3)
        .map(describe),
    };
  });
  expect
    .soft(
      widths.scroll,
      `${label}: the page is ${widths.scroll}px wide in a ${widths.view}px window; widest: ${widths.out.join("; ") || "(nothing in the page sticks out)"}`,
    )
    .toBeLessThanOrEqual(widths.view + 1);
}

async function scan(page: Page, label: string) {
  const results = await new AxeBuilder({ page }).withTags(TAGS).analyze();
  const bad = results.violations.filter((v) => v.impact === "critical" || v.impact === "serious");
  const summary = results.violations.map((v) => `${v.id}(${v.impact}):${v.nodes.length}`).join(" ");
  console.log(`AXE ${label}: ${bad.reduce((n, v) => n + v.nodes.length, 0)} critical/serious nodes; ${summary || "none"}`);
  const detail = bad.flatMap((v) =>
    v.nodes.slice(0, 5).map((n) => `${v.id} [${v.impact}] ${n.target.join(" ")}: ${n.failureSummary?.split("\n").slice(1, 2).join(" ").trim()}`),
  );
  expect(detail, `${label}: critical and serious axe violations`).toEqual([]);
}

/** A page without the admin token (signed out), in the same theme and size as `page`. */
async function signedOutPage(browser: Browser, page: Page): Promise<Page> {
  const colorScheme = await page.evaluate(() => (matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light"));
  return (await browser.newContext({ extraHTTPHeaders: {}, colorScheme, viewport: page.viewportSize() })).newPage();
}

/** Signs `who` in with the form (on /sign-in, then on to `next`). */
async function signedInPage(browser: Browser, page: Page, who: Fixture["viewer"], next: string): Promise<Page> {
  const other = await signedOutPage(browser, page);
  await other.goto(`/sign-in?next=${encodeURIComponent(next)}`);
  await other.getByLabel("Email").fill(who.email);
  await other.getByLabel("Password").fill(who.password);
  await other.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(other.getByTestId("user-menu")).toBeVisible();
  return other;
}

type PageCase = { name: string; open(page: Page, f: Fixture, browser: Browser): Promise<Page | void> };

const PAGES: PageCase[] = [
  {
    name: "tool list",
    async open(page) {
      await page.goto("/");
      await expect(page.getByTestId("tool-card").first()).toBeVisible();
    },
  },
  {
    name: "tool page: create_event filled and run (nested object, oneOf, array, select)",
    async open(page) {
      await page.goto("/tools/create_event");
      await fillCreateEventRequired(page);
      await page.locator("#root_attendees_0_email").fill("ada@example.com");
      await page.locator('[id="root_tags__add"]').click();
      await page.locator("#root_tags_0").fill("design");
      await expect(page.getByTestId("json-preview")).toContainText('"design"');
      await page.getByTestId("run-button").click();
      await expect(page.getByTestId("run-output")).toHaveAttribute("data-status", "success");
    },
  },
  {
    name: "tool page: send_message option domains, run, list open",
    async open(page) {
      await page.goto("/tools/send_message");
      await page.getByTestId("domain-channel").getByRole("button").first().click();
      await page.getByRole("option", { name: /telegram\.oncall/ }).click();
      await page.getByTestId("domain-target").getByRole("button").first().click();
      await page.getByRole("option", { name: /Marta/ }).click();
      await page.locator("#root_text").fill("axe test");
      await page.getByTestId("run-button").click();
      await expect(page.getByTestId("run-output")).toHaveAttribute("data-status", "success");
      await page.getByTestId("domain-channel").getByRole("button").first().click();
      await expect(page.getByRole("listbox")).toBeVisible();
    },
  },
  {
    name: "tool page: add rejected with field errors",
    async open(page) {
      await page.goto("/tools/add");
      await page.locator("#root_a").fill("2");
      await page.getByTestId("run-button").click();
      await expect(page.getByTestId("run-output")).toHaveAttribute("data-status", "rejected");
    },
  },
  {
    name: "tool page: json_query run again with long unbroken strings (URL, id, base64)",
    async open(page, f) {
      await page.goto(`/tools/json_query?fromRun=${f.longRunId}`);
      await expect(page.getByTestId("json-preview")).toContainText("signature");
      await page.getByTestId("run-button").click();
      await expect(page.getByTestId("run-output")).toHaveAttribute("data-status", "success");
    },
  },
  {
    name: "tool page: chart_png run again (image result)",
    async open(page, f) {
      await page.goto(`/tools/chart_png?fromRun=${f.chartRunId}`);
      await page.getByTestId("run-button").click();
      await expect(page.getByTestId("run-output")).toHaveAttribute("data-status", "success");
      await expect(page.getByTestId("run-output").locator("img").first()).toBeVisible();
    },
  },
  {
    name: "tool page: model view, strict, lint (create_event for OpenAI Responses)",
    async open(page) {
      await page.goto("/tools/create_event");
      const view = page.getByTestId("model-view");
      await view.scrollIntoViewIfNeeded();
      await page.getByTestId("model-view-target").selectOption("openai-responses");
      await page.getByTestId("model-view-strict").check();
      await expect(page.getByText("Sent in strict mode")).toBeVisible();
      await expect(page.getByTestId("model-view-lint")).toBeVisible();
      await page.getByTestId("model-view-lint").scrollIntoViewIfNeeded();
    },
  },
  {
    name: "context budget (Gemini)",
    async open(page) {
      await page.goto("/budget?for=gemini");
      await expect(page.getByTestId("budget-total")).toBeVisible();
    },
  },
  {
    name: "run detail: what the model gets back (chart_png for Anthropic)",
    async open(page, f) {
      await page.goto(`/runs/${f.chartRunId}`);
      await page.getByTestId("run-model-view-target").selectOption("anthropic");
      await expect(page.getByTestId("run-model-view-carried")).toContainText("image (image/png)");
      await page.getByTestId("run-model-view").scrollIntoViewIfNeeded();
    },
  },
  {
    name: "history",
    async open(page) {
      await page.goto("/runs");
      await expect(page.getByRole("heading", { name: "Run history" })).toBeVisible();
    },
  },
  {
    name: "history filtered by tool (stats)",
    async open(page) {
      await page.goto("/runs?tool=add");
      await expect(page.getByRole("heading", { name: "Run history" })).toBeVisible();
    },
  },
  {
    name: "run detail",
    async open(page, f) {
      await page.goto(`/runs/${f.runId}`);
      await expect(page.getByRole("heading", { name: /^Run / })).toBeVisible();
    },
  },
  {
    name: "run detail with long unbroken strings",
    async open(page, f) {
      await page.goto(`/runs/${f.longRunId}`);
      await expect(page.getByRole("heading", { name: /^Run / })).toBeVisible();
    },
  },
  {
    name: "compare runs",
    async open(page, f) {
      await page.goto(`/runs/compare?run=${f.runId}&run=${f.otherRunId}`);
      await expect(page.getByRole("heading", { name: "Compare runs" })).toBeVisible();
    },
  },
  {
    name: "triggers",
    async open(page) {
      await page.goto("/triggers");
      await page.getByLabel("Message", { exact: true }).fill("please send a message to the team");
      await expect(page.getByTestId("trigger-table")).toBeVisible();
    },
  },
  // Pages that show their content as they load.
  ...["servers", "outbox", "audit", "settings", "tokens", "users"].map((name): PageCase => ({
    name,
    async open(page) {
      await page.goto(`/${name}`);
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      // The config editor (Monaco, fetched when shown) is checked drawn, comments and all.
      if (name === "settings") {
        await showJsonEditor(page);
        await expect(page.locator(".monaco-editor .view-line").first()).toBeVisible();
      }
    },
  })),
  {
    name: "not found",
    async open(page) {
      await page.goto("/tools/no_such_tool");
      await expect(page.getByRole("heading", { name: "Not found" })).toBeVisible();
    },
  },
  {
    name: "sign-in (signed out)",
    async open(page, _f, browser) {
      const other = await signedOutPage(browser, page);
      await other.goto("/sign-in");
      await expect(other.getByRole("heading", { name: "Sign in to Tool Studio" })).toBeVisible();
      return other;
    },
  },
  {
    name: "unauthorized: a page opened signed out, after a failed sign-in",
    async open(page, _f, browser) {
      const other = await signedOutPage(browser, page);
      const res = await other.goto("/runs");
      expect(res?.status()).toBe(401);
      await other.getByLabel("Email").fill("nobody@example.com");
      await other.getByLabel("Password").fill("wrong-password");
      await other.getByRole("button", { name: "Sign in", exact: true }).click();
      await expect(other.getByRole("alert")).toBeVisible();
      return other;
    },
  },
  {
    name: "forbidden (a viewer opens users)",
    async open(page, f, browser) {
      const other = await signedInPage(browser, page, f.viewer, "/");
      const res = await other.goto("/users");
      expect(res?.status()).toBe(403);
      await expect(other.getByRole("heading", { name: "Not for your role" })).toBeVisible();
      return other;
    },
  },
  {
    name: "tool page as a viewer (run disabled with reason)",
    async open(page, f, browser) {
      const other = await signedInPage(browser, page, f.viewer, "/tools/add");
      await expect(other.getByTestId("run-disabled-reason")).toBeVisible();
      return other;
    },
  },
];

const VIEWPORTS = [
  { name: "1440x900", viewport: { width: 1440, height: 900 } },
  { name: "390x844", viewport: { width: 390, height: 844 } },
] as const;

for (const theme of ["light", "dark"] as const) {
  for (const vp of VIEWPORTS) {
    test.describe(`axe, ${theme} theme, ${vp.name}`, () => {
      test.use({ colorScheme: theme, viewport: vp.viewport });
      for (const p of PAGES) {
        test(p.name, async ({ page, request, browser }) => {
          test.setTimeout(180_000);
          const f = await setup(request);
          const target = (await p.open(page, f, browser)) ?? page;
          await expect(target.locator("html")).toHaveClass(theme === "dark" ? /\bdark\b/ : /^(?!.*\bdark\b)/);
          try {
            await expectNoSidewaysScroll(target, `${theme} ${vp.name} ${p.name}`);
            await scan(target, `${theme} ${vp.name} ${p.name}`);
            const slug = p.name
              .replace(/[^a-z0-9]+/gi, "-")
              .replace(/^-|-$/g, "")
              .toLowerCase()
              .slice(0, 40);
            // The viewport only: a full-page shot of a tool page (Monaco, long schemas) takes long on a busy machine.
            await target.screenshot({ path: `e2e/.artifacts/screens/a11y-${theme}-${vp.name}-${slug}.png` });
          } finally {
            if (target !== page) await target.context().close();
          }
        });
      }
    });
  }
}

// No page scrolls sideways at a phone, at 200% zoom of a 1440x900 window (a 720x450 viewport) and
// on a desktop: text reflows, and wide content (tables, JSON, schemas, long ids) scrolls inside its
// own region. One walk of every page per size, reporting every page that fails.
for (const vp of [
  { name: "390x844", viewport: { width: 390, height: 844 } },
  { name: "720x450 (200% zoom)", viewport: { width: 720, height: 450 } },
  { name: "1440x900", viewport: { width: 1440, height: 900 } },
]) {
  test(`at ${vp.name} no page scrolls sideways`, async ({ page, request, browser }) => {
    test.setTimeout(300_000);
    await page.setViewportSize(vp.viewport);
    const f = await setup(request);
    for (const p of PAGES) {
      const target = (await p.open(page, f, browser)) ?? page;
      try {
        // Lists, editors and tables that load after the heading are measured too.
        await target.waitForLoadState("networkidle", { timeout: 10_000 }).catch(() => {});
        await expectNoSidewaysScroll(target, `${vp.name} ${p.name}`);
      } finally {
        if (target !== page) await target.context().close();
      }
    }
  });
}

test.describe("the navigation at 390x844", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("collapses into a Menu button: opened from the keyboard, a link followed, Escape closes it and focus returns", async ({ page }) => {
    await page.goto("/runs");
    await expect(page.getByRole("heading", { name: "Run history" })).toBeVisible();
    const button = page.getByRole("button", { name: "Menu", exact: true });
    const nav = page.getByRole("navigation", { name: "Main" });
    // The row of links does not fit: only the button shows, and it says the list is closed.
    await expect(nav).toBeHidden();
    await expect(button).toHaveAttribute("aria-expanded", "false");

    // Reached with Tab from the top of the page (after the skip link and the studio's name).
    for (let i = 0; i < 5 && !(await button.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press("Tab");
    await expect(button).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(button).toHaveAttribute("aria-expanded", "true");
    await expect(nav).toBeVisible();
    expect(await nav.getAttribute("id")).toBe(await button.getAttribute("aria-controls"));
    await expect(nav.getByRole("link")).toHaveText(["Tools", "Budget", "History", "Triggers", "Servers", "Outbox", "Audit", "Settings"]);
    await expect(nav.getByRole("link", { name: "History" })).toHaveAttribute("aria-current", "page");
    await expectNoSidewaysScroll(page, "390x844 history with the menu open");
    await scan(page, "390x844 history with the menu open");

    // Tab walks the links in order; Enter follows one, and the menu closes on the new page.
    await page.keyboard.press("Tab");
    await expect(nav.getByRole("link", { name: "Tools" })).toBeFocused();
    for (let i = 0; i < 8 && !(await nav.getByRole("link", { name: "Audit" }).evaluate((el) => el === document.activeElement)); i++)
      await page.keyboard.press("Tab");
    await expect(nav.getByRole("link", { name: "Audit" })).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/\/audit$/);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await expect(button).toHaveAttribute("aria-expanded", "false");
    await expect(nav).toBeHidden();

    // Opened again with Space; Escape from inside the list closes it and puts focus back on the button.
    await button.focus();
    await page.keyboard.press("Space");
    await expect(nav).toBeVisible();
    await expect(nav.getByRole("link", { name: "Audit" })).toHaveAttribute("aria-current", "page");
    await page.keyboard.press("Tab");
    await expect(nav.getByRole("link", { name: "Tools" })).toBeFocused();
    await page.keyboard.press("Escape");
    await expect(nav).toBeHidden();
    await expect(button).toHaveAttribute("aria-expanded", "false");
    await expect(button).toBeFocused();

    // A desktop window shows the links in a row and no button.
    await page.setViewportSize({ width: 1440, height: 900 });
    await expect(button).toBeHidden();
    await expect(nav.getByRole("link")).toHaveText(["Tools", "Budget", "History", "Triggers", "Servers", "Outbox", "Audit", "Settings"]);
  });
});

test("the 404 and 403 pages follow the theme the person chose, over the system's", async ({ page, request, browser }) => {
  const f = await setup(request);
  await page.goto("/");
  await page.evaluate(() => localStorage.setItem("theme", "dark"));
  await page.goto("/tools/no_such_tool");
  await expect(page.getByRole("heading", { name: "Not found" })).toBeVisible();
  await expect(page.locator("html")).toHaveClass(/\bdark\b/);

  const viewer = await signedInPage(browser, page, f.viewer, "/");
  try {
    await viewer.emulateMedia({ colorScheme: "dark" });
    await viewer.evaluate(() => localStorage.setItem("theme", "light"));
    expect((await viewer.goto("/users"))?.status()).toBe(403);
    await expect(viewer.getByRole("heading", { name: "Not for your role" })).toBeVisible();
    // Once the page answers clicks it has hydrated, so the theme it shows is the one it keeps.
    await viewer.getByTestId("user-menu").getByRole("button").click();
    await expect(viewer.getByRole("navigation", { name: "Account" })).toBeVisible();
    await expect(viewer.locator("html")).not.toHaveClass(/\bdark\b/);
  } finally {
    await viewer.context().close();
  }
});

test("animations and transitions stop when the system asks for reduced motion", async ({ page }) => {
  await page.goto("/");
  // Elements with the animation and transition utilities the studio uses (spinners, pulses, hover transitions).
  const timings = () =>
    page.evaluate(() => {
      const el = document.createElement("div");
      el.className = "animate-spin transition";
      document.body.append(el);
      const cs = getComputedStyle(el);
      const t = { animation: parseFloat(cs.animationDuration), transition: parseFloat(cs.transitionDuration) };
      el.remove();
      return t;
    });
  const normal = await timings();
  expect(normal.animation).toBeGreaterThanOrEqual(0.5);
  expect(normal.transition).toBeGreaterThan(0.05);
  await page.emulateMedia({ reducedMotion: "reduce" });
  const reduced = await timings();
  expect(reduced.animation).toBeLessThan(0.001);
  expect(reduced.transition).toBeLessThan(0.001);
});
