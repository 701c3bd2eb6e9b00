import AxeBuilder from "@axe-core/playwright";
import { expect, test, type APIRequestContext, type Browser, type Page } from "@playwright/test";

// WCAG 2.2 AA, checked by axe on every page, in both themes, at a desktop and a phone size, with
// forms filled and results shown. Critical and serious violations fail the test; every finding is
// printed (AXE lines) so a report can be read from the run.

const TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"];
const BASE = `http://127.0.0.1:${process.env.E2E_PORT ?? 3123}`;

type Fixture = { runId: string; otherRunId: string; viewer: { email: string; password: string } };
let fixture: Promise<Fixture> | undefined;

/** Two runs to open and compare and a viewer (for the forbidden page), made once per worker. */
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
    expect((await request.post("/api/tools/add/run", { data: { arguments: { a: "x" } } })).status()).toBe(400); // a rejected run too
    const viewer = { email: `a11y-viewer-${Date.now().toString(36)}@example.com`, password: "a11y-viewer-password" };
    const res = await request.post("/api/users", { data: { ...viewer, role: "viewer" }, headers: { origin: BASE } });
    expect(res.status()).toBe(201);
    return { runId, otherRunId, viewer };
  })();
  fixture.catch(() => (fixture = undefined)); // a failed setup is tried again by the next test
  return fixture;
}

/** Content reflows: the page itself never scrolls sideways (tables and code may scroll inside their own region). */
async function expectNoSidewaysScroll(page: Page, label: string) {
  const widths = await page.evaluate(() => {
    const view = window.innerWidth;
    // The outermost elements that stick out, to say what to fix.
    const out = [...document.querySelectorAll<HTMLElement>("main *")].filter((el) => el.getBoundingClientRect().right > view + 1 && (el.parentElement?.getBoundingClientRect().right ?? 0) <= view + 1);
    return { scroll: document.documentElement.scrollWidth, view, out: out.slice(0, 5).map((el) => `${el.tagName.toLowerCase()}.${String(el.className).slice(0, 80)}`) };
  });
  expect(widths.scroll, `${label}: the page scrolls sideways (${widths.out.join("; ")})`).toBeLessThanOrEqual(widths.view);
}

async function scan(page: Page, label: string) {
  const results = await new AxeBuilder({ page }).withTags(TAGS).analyze();
  const bad = results.violations.filter((v) => v.impact === "critical" || v.impact === "serious");
  const summary = results.violations.map((v) => `${v.id}(${v.impact}):${v.nodes.length}`).join(" ");
  console.log(`AXE ${label}: ${bad.reduce((n, v) => n + v.nodes.length, 0)} critical/serious nodes; ${summary || "none"}`);
  const detail = bad.flatMap((v) => v.nodes.slice(0, 5).map((n) => `${v.id} [${v.impact}] ${n.target.join(" ")}: ${n.failureSummary?.split("\n").slice(1, 2).join(" ").trim()}`));
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

/**
 * `themed: false`: the 401, 403 and 404 answers render without the saved/system theme (the theme
 * script in the layout does not run on them: an open defect), so they are checked as they render.
 */
type PageCase = { name: string; themed?: false; open(page: Page, f: Fixture, browser: Browser): Promise<Page | void> };

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
      await page.locator("#root_title").fill("Design review");
      await page.locator("#root_start").fill("2026-12-01T10:00");
      await page.locator("#root_venue_street").fill("1 Main St");
      await page.locator("#root_venue_city").fill("Lisbon");
      await page.locator('[id="root_venue_country"]').selectOption({ label: "Portugal" });
      await page.locator("#root_attendees_0_name").fill("Ada");
      await page.locator("#root_attendees_0_email").fill("ada@example.com");
      await page.locator('[id="root_tags__add"]').click();
      await page.locator("#root_tags_0").fill("design");
      await expect(page.getByTestId("json-editor")).toContainText('"design"');
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
  ...["servers", "outbox", "audit", "settings", "tokens", "users"].map(
    (name): PageCase => ({
      name,
      async open(page) {
        await page.goto(`/${name}`);
        await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      },
    }),
  ),
  {
    name: "not found",
    themed: false,
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
    themed: false,
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
    themed: false,
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
          if (p.themed !== false) await expect(target.locator("html")).toHaveClass(theme === "dark" ? /\bdark\b/ : /^(?!.*\bdark\b)/);
          try {
            await scan(target, `${theme} ${vp.name} ${p.name}`);
            const slug = p.name.replace(/[^a-z0-9]+/gi, "-").replace(/^-|-$/g, "").toLowerCase().slice(0, 40);
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

// 200% zoom of a 1440x900 window is a 720x450 viewport: text reflows, nothing needs a sideways scroll.
// Not yet true: some pages still scroll sideways at 720 px (issue 16 stays open for it).
test.fixme("at 200% zoom (720x450) no page scrolls sideways", async ({ page, request, browser }) => {
  test.setTimeout(240_000);
  await page.setViewportSize({ width: 720, height: 450 });
  const f = await setup(request);
  for (const p of PAGES) {
    const target = (await p.open(page, f, browser)) ?? page;
    try {
      await expectNoSidewaysScroll(target, `720x450 ${p.name}`);
    } finally {
      if (target !== page) await target.context().close();
    }
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
