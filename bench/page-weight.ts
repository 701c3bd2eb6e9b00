// npm run bench (last step): how much JavaScript does each page make the browser fetch before
// anyone touches it? Issue 12's target: at most 250 KiB gzipped on every page.
//
// Starts the built studio (`npm start`: scripts/server.mjs) on a fresh PostgreSQL database, makes two runs of the
// built-in `add` tool (for /runs/[id] and /runs/compare), then opens every page route under app/
// in Chromium and sums the script resources it loads up to the load event and until no script has
// been requested for 2.5 quiet seconds after it and an idle main thread (what hydration and effects
// fetch without a click counts too). Each script's body is gzipped here (level 6, what `next start` sends), so the figure
// does not depend on whether the server compressed it. A page over the target exits non-zero.
// Rows marked "(after a click)" are shown for information only and are not judged.
//
// Knobs (env): BENCH_NO_BUILD=1 (serve the existing build as is instead of letting studio.mjs
// rebuild a stale one), PAGE_WEIGHT_LIMIT_KIB (250), BENCH_TIMEOUT_S (300), CHROMIUM_PATH.
// Results: printed table + bench/results/page-weight.json.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { chromium, type Browser, type BrowserContext, type Page } from "@playwright/test";
import { startStudioProcess, type StudioProcess } from "../tests/helpers/studio-process";
import { intEnv } from "./env";
import { benchLifecycle, buildStudio } from "./lifecycle";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const cfg = {
  limitKiB: intEnv("PAGE_WEIGHT_LIMIT_KIB", 250, 1, 100_000),
  timeoutS: intEnv("BENCH_TIMEOUT_S", 300, 10, 3600),
  allowBuild: process.env.BENCH_NO_BUILD !== "1",
};
// A page has settled when no script was requested for this long after the load event and an idle
// main thread (hydration runs the effects that fetch lazy parts, seconds later on a busy machine).
const QUIET_MS = 2500;

interface PageSpec {
  label: string;
  path: string;
  /** Open it without the admin token (the sign-in page shows its form only to the signed out). */
  anonymous?: boolean;
  /** Something done after the load before counting again: shown, not judged. */
  after?: (page: Page) => Promise<void>;
}

interface PageWeight {
  label: string;
  path: string;
  status: number;
  scripts: number;
  gzipBytes: number;
  rawBytes: number;
  judged: boolean;
  pass: boolean;
}

const { tell: tellReaper, cleanups, cleanup, database } = benchLifecycle("page-weight", cfg.timeoutS);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Loads `spec` in a new page and returns the scripts fetched before interaction (url -> body). */
async function scriptsOf(
  context: BrowserContext,
  url: string,
  after?: (page: Page) => Promise<void>,
): Promise<{ status: number; scripts: Map<string, Buffer> }> {
  const page = await context.newPage();
  const scripts = new Map<string, Promise<Buffer | null>>();
  let lastScriptAt = Date.now();
  page.on("request", (req) => {
    if (req.resourceType() === "script") lastScriptAt = Date.now();
  });
  page.on("response", (res) => {
    if (res.request().resourceType() !== "script" || scripts.has(res.url())) return;
    lastScriptAt = Date.now();
    scripts.set(
      res.url(),
      res.body().then(
        (b) => b,
        () => null,
      ),
    );
  });
  const quiet = async () => {
    const until = Date.now() + 15_000;
    while (Date.now() - lastScriptAt < QUIET_MS && Date.now() < until) await sleep(100);
  };
  try {
    const res = await page.goto(url, { waitUntil: "load", timeout: 60_000 });
    await page.evaluate(() => new Promise((resolve) => requestIdleCallback(resolve, { timeout: 5000 })));
    await quiet();
    if (after) {
      await after(page);
      await quiet();
    }
    const bodies = new Map<string, Buffer>();
    for (const [u, p] of scripts) {
      const b = await p;
      if (b) bodies.set(u, b);
    }
    return { status: res?.status() ?? 0, scripts: bodies };
  } finally {
    await page.close();
  }
}

async function makeRuns(studio: StudioProcess): Promise<string[]> {
  const ids: string[] = [];
  for (const b of [2, 3]) {
    const res = await fetch(`${studio.url}/api/tools/add/run`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${studio.adminToken}`, origin: studio.url },
      body: JSON.stringify({ arguments: { a: 1, b } }),
    });
    if (!res.ok) throw new Error(`could not run add: ${res.status} ${await res.text()}`);
    ids.push(((await res.json()) as { run: { id: string } }).run.id);
  }
  return ids;
}

async function main() {
  if (cfg.allowBuild) buildStudio();
  const db = await database();
  const studio = await startStudioProcess({ databaseUrl: db.url, readyWithinMs: 120_000 });
  tellReaper({ pgid: studio.pid });
  cleanups.push(async () => {
    await studio.stop();
    tellReaper({ pgidGone: studio.pid });
  });
  const [runA, runB] = await makeRuns(studio);

  const openJsonEditor = async (page: Page) => {
    const show = page.getByTestId("show-json-editor");
    if (await show.count()) await show.click();
    await page.locator('[data-testid="json-editor"] .monaco-editor').first().waitFor({ timeout: 60_000 });
  };
  const pages: PageSpec[] = [
    { label: "home", path: "/" },
    { label: "tool (add)", path: "/tools/add" },
    { label: "tool (create_event)", path: "/tools/create_event" },
    { label: "history", path: "/runs" },
    { label: "run", path: `/runs/${runA}` },
    { label: "compare", path: `/runs/compare?run=${runA}&run=${runB}` },
    { label: "audit", path: "/audit" },
    { label: "outbox", path: "/outbox" },
    { label: "triggers", path: "/triggers" },
    { label: "servers", path: "/servers" },
    // A server's own page (resources, templates, prompts); its scripts load whether it is connected or not.
    { label: "server (example)", path: "/servers/example" },
    { label: "settings", path: "/settings" },
    { label: "users", path: "/users" },
    { label: "tokens", path: "/tokens" },
    { label: "sign-in", path: "/sign-in", anonymous: true },
    { label: "not found", path: "/tools/no-such-tool" },
    { label: "tool (add), JSON editor shown (after a click)", path: "/tools/add", after: openJsonEditor },
    { label: "settings, editor shown (after a click)", path: "/settings", after: openJsonEditor },
  ];

  let browser: Browser | undefined = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
      "--disable-quic",
    ],
  });
  cleanups.push(async () => {
    await browser?.close();
    browser = undefined;
  });
  const admin = await browser.newContext({
    baseURL: studio.url,
    extraHTTPHeaders: { authorization: `Bearer ${studio.adminToken}` },
    viewport: { width: 1440, height: 900 },
  });
  const anonymous = await browser.newContext({ baseURL: studio.url, viewport: { width: 1440, height: 900 } });

  const results: PageWeight[] = [];
  for (const spec of pages) {
    // A new context per page would refetch everything anyway; the cache is off so each page pays its own way.
    const context = spec.anonymous ? anonymous : admin;
    await context.clearCookies();
    const { status, scripts } = await scriptsOf(context, `${studio.url}${spec.path}`, spec.after);
    let gzipBytes = 0;
    let rawBytes = 0;
    for (const body of scripts.values()) {
      rawBytes += body.length;
      gzipBytes += gzipSync(body, { level: 6 }).length;
    }
    const judged = !spec.after;
    results.push({
      label: spec.label,
      path: spec.path,
      status,
      scripts: scripts.size,
      gzipBytes,
      rawBytes,
      judged,
      pass: !judged || gzipBytes <= cfg.limitKiB * 1024,
    });
  }

  const kib = (n: number) => (n / 1024).toFixed(1);
  const rows = results.map((r) => [
    r.label,
    r.path.replace(/[0-9a-f-]{36}/g, "…"),
    String(r.status),
    String(r.scripts),
    kib(r.rawBytes),
    kib(r.gzipBytes),
    r.judged ? (r.pass ? "pass" : "FAIL") : "-",
  ]);
  const head = ["page", "path", "HTTP", "scripts", "KiB raw", `KiB gzip (≤${cfg.limitKiB})`, ""];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => (i >= 2 && i <= 5 ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join("  ");
  console.log(`\nJavaScript each page loads before interaction (gzipped; target ≤${cfg.limitKiB} KiB)\n`);
  console.log(line(head));
  console.log(widths.map((w) => "-".repeat(w)).join("  "));
  for (const r of rows) console.log(line(r));

  mkdirSync(path.join(root, "bench", "results"), { recursive: true });
  writeFileSync(
    path.join(root, "bench", "results", "page-weight.json"),
    JSON.stringify({ at: new Date().toISOString(), limitKiB: cfg.limitKiB, pages: results }, null, 2),
  );

  const bad = results.filter((r) => !r.pass || r.status >= 500 || r.status === 0);
  await cleanup();
  if (bad.length) {
    console.error(`\n${bad.length} page(s) over ${cfg.limitKiB} KiB or not served: ${bad.map((r) => r.label).join(", ")}`);
    process.exit(1);
  }
  console.log(`\nEvery page is within ${cfg.limitKiB} KiB.`);
}

main().catch(async (e: unknown) => {
  console.error(e);
  await cleanup();
  process.exit(1);
});
