import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "@playwright/test";
import { parse as parseJsonc } from "jsonc-parser";
import { REPO_ROOT } from "../tests/helpers/mcp";
import { startStudioProcess, type StudioProcess } from "../tests/helpers/studio-process";

// A studio of its own (the production build, PGlite) with an MCP server offering 2,000 tools:
// the tool list renders a screenful of cards, not 2,000, and still finds, scrolls to and opens any
// of them; GET /api/tools pages through them all.

const TOOLS = 2000;
let studio: StudioProcess;
let dir: string;

test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  test.setTimeout(180_000);
  dir = mkdtempSync(path.join(os.tmpdir(), "studio-big-e2e-"));
  const example = parseJsonc(readFileSync(path.join(REPO_ROOT, "config", "studio.example.jsonc"), "utf8")) as Record<string, unknown>;
  const server = path.join(REPO_ROOT, "bench", "fixtures", "mcp-bench-server.mjs");
  const configPath = path.join(dir, "studio.json");
  writeFileSync(
    configPath,
    JSON.stringify({
      ...example,
      $schema: undefined,
      mcpServers: [{ name: "big", transport: "stdio", command: process.execPath, args: [server, "--tools", String(TOOLS)] }],
    }),
  );
  studio = await startStudioProcess({ configPath, dataDir: path.join(dir, "pglite"), readyWithinMs: 120_000 });
  // Connected once the server's tools are listed (tools/list pages of 500).
  await expect
    .poll(
      async () =>
        ((await (await fetch(`${studio.url}/api/tools`, { headers: { authorization: `Bearer ${studio.adminToken}` } })).json()).tools as unknown[]).length,
      { timeout: 60_000 },
    )
    .toBeGreaterThan(TOOLS);
});

test.afterAll(async () => {
  await studio?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test("the tool list of 2,000 tools renders a screenful, finds any tool as you type, and scrolls to the last", async ({ browser }) => {
  const context = await browser.newContext({ baseURL: studio.url, extraHTTPHeaders: { authorization: `Bearer ${studio.adminToken}` } });
  const page = await context.newPage();
  await page.goto("/");
  const list = page.getByTestId("tool-list-virtual");
  await expect(list).toBeVisible();
  const count = Number(/^(\d+) registered/.exec((await page.getByText(/^\d+ registered from/).textContent()) ?? "")?.[1]);
  expect(count).toBeGreaterThan(TOOLS);
  const cards = page.getByTestId("tool-card");
  expect(await cards.count()).toBeLessThan(100);
  // Each card says where it stands in the whole list.
  const first = page.locator('[role="listitem"][aria-posinset="1"]');
  await expect(first).toHaveAttribute("aria-setsize", String(count));

  await page.screenshot({ path: test.info().outputPath("tool-list-2000.png") });
  const axe = await new AxeBuilder({ page })
    .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"])
    .include('[data-testid="tool-list-virtual"]')
    .analyze();
  expect(axe.violations.map((v) => `${v.id}: ${v.nodes.length}`)).toEqual([]);
  // The end of the page holds the last tools (alphabetical: update_… sorts after the built-ins).
  await page.keyboard.press("End");
  const last = page.locator(`[role="listitem"][aria-posinset="${count}"]`);
  await expect(last).toBeVisible();
  expect(await cards.count()).toBeLessThan(100);
  await page.screenshot({ path: test.info().outputPath("tool-list-2000-end.png") });

  // Typing narrows 2,000 tools to one; it opens.
  const target = `_${TOOLS - 1}`;
  await page.getByRole("searchbox", { name: "Search tools" }).fill(target);
  await expect(cards).toHaveCount(1);
  await expect(list).toHaveCount(0); // one match: a plain list again
  await cards.first().click();
  await expect(page).toHaveURL(new RegExp(`/tools/big__\\w+${target}$`));
  await expect(page.getByRole("heading", { level: 1 })).toContainText(`#${TOOLS - 1}`);
  await page.screenshot({ path: test.info().outputPath("tool-of-2000.png") });
  await context.close();
});

test("GET /api/tools pages through 2,000 tools with limit and cursor", async () => {
  const auth = { authorization: `Bearer ${studio.adminToken}` };
  const all: string[] = ((await (await fetch(`${studio.url}/api/tools`, { headers: auth })).json()).tools as { name: string }[]).map((t) => t.name);
  const paged: string[] = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    const res = await fetch(`${studio.url}/api/tools?limit=1000${cursor ? `&cursor=${cursor}` : ""}`, { headers: auth });
    expect(res.status).toBe(200);
    const page = (await res.json()) as { tools: { name: string }[]; nextCursor?: string };
    paged.push(...page.tools.map((t) => t.name));
    cursor = page.nextCursor;
    pages++;
  } while (cursor);
  expect(pages).toBe(Math.ceil(all.length / 1000));
  expect(paged).toEqual(all);
});
