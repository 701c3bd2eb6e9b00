import { randomUUID } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { createMcpHandler, Server } from "@modelcontextprotocol/server";
import { serveFetch } from "../tests/helpers/mcp-http";
import { ROUTES } from "../lib/auth/routes";
import { accountRuns, percentile, startLoad, statusCounts, type Call } from "../tests/helpers/load";
import { privatePgUnavailable, startPrivatePg, type PrivatePg } from "../tests/helpers/private-pg";
import { createDatabase, query, startStudioProcess, type StudioProcess } from "../tests/helpers/studio-process";

// Faults under load, on the real server (the production build) and a private PostgreSQL of the
// test's own (initdb and pg_ctl on a free loopback port, never the machine's main server):
// clients keep calling `add` while the database is stopped, then frozen, or while the studio is
// killed. Every call ends (a run, or 503 within the configured timeouts: never a hang or a
// reset), every acknowledged run is stored with the outcome the client was told, none twice,
// and once the database is back no run is left `running`.

test.skip(!!privatePgUnavailable, privatePgUnavailable ?? "");
test.describe.configure({ mode: "serial" });

const CONNECT_MS = 1500;
const QUERY_MS = 2000;
const CLIENTS = 24;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let pg: PrivatePg;
let studio: StudioProcess | undefined;

test.beforeAll(async () => {
  pg = await startPrivatePg();
});
// Each test starts its own studio: one a failed test left running is killed here, before the next
// test starts another (a detached studio outlives the test process).
test.afterEach(async () => {
  await studio?.kill();
  studio = undefined;
});
test.afterAll(async () => {
  pg?.destroy();
});

const LEASE_MS = 3000;
const timeouts = { STUDIO_DB_CONNECT_TIMEOUT_MS: String(CONNECT_MS), STUDIO_DB_QUERY_TIMEOUT_MS: String(QUERY_MS), STUDIO_RUN_LEASE_MS: String(LEASE_MS) };

/** Polls until no run is `running` (a live studio stores a pending outcome within its retry backoff). */
async function settled(url: string, withinMs: number): Promise<number> {
  const until = Date.now() + withinMs;
  for (;;) {
    const [{ n }] = await query<{ n: string }>(url, "SELECT count(*)::text AS n FROM runs WHERE status = 'running'");
    if (Number(n) === 0 || Date.now() > until) return Number(n);
    await sleep(250);
  }
}

/** Finished runs with no "run" audit entry: a run is never stored without its entry. */
async function unaudited(url: string): Promise<number> {
  const [{ n }] = await query<{ n: string }>(
    url,
    "SELECT count(*)::text AS n FROM runs r WHERE r.status <> 'running' AND NOT EXISTS (SELECT 1 FROM audit_log a WHERE a.action = 'run' AND a.detail->>'runId' = r.id::text)",
  );
  return Number(n);
}

/**
 * Every GET route and page, all at once: each must end within the timeouts with 503
 * `unavailable` and Retry-After, or with an answer that needs no database (never another 5xx).
 */
async function everyRoute(url: string, token: string, label: string): Promise<void> {
  const sample: Record<string, string> = { "[name]": "add", "[id]": randomUUID(), "[preset]": "p", "[...all]": "get-session" };
  const paths = ROUTES.filter((r) => r.methods.GET && r.pattern !== "/setup").map(
    (r) =>
      r.pattern
        .split("/")
        .map((seg) => sample[seg] ?? seg)
        .join("/") || "/",
  );
  const answers = await Promise.all(
    paths.map(async (p) => {
      const t0 = Date.now();
      const ctrl = new AbortController();
      const res = await fetch(url + p, { headers: { authorization: `Bearer ${token}` }, redirect: "manual", signal: ctrl.signal });
      // Streams (SSE) would not end: the status and headers are the answer.
      const text = res.headers.get("content-type")?.includes("event-stream") ? "" : await res.text();
      ctrl.abort();
      return { p, status: res.status, retryAfter: res.headers.get("retry-after"), ms: Date.now() - t0, text };
    }),
  );
  const bound = CONNECT_MS + QUERY_MS + 1500;
  const wrong = answers.filter((a) => (a.status >= 500 && (a.status !== 503 || a.retryAfter !== "5")) || a.ms > bound);
  console.log(`every route, ${label}: ${answers.map((a) => `${a.p} ${a.status} ${a.ms}ms`).join(", ")}`);
  expect(
    wrong.map((a) => `${a.p} → ${a.status} in ${a.ms} ms: ${a.text.slice(0, 120)}`),
    label,
  ).toEqual([]);
  expect(answers.filter((a) => a.status === 503).length, `${label}: the outage was seen`).toBeGreaterThan(0);
}

function describeCalls(calls: Call[]): string {
  const ms = calls.map((c) => c.ms).sort((a, b) => a - b);
  return `${calls.length} calls ${JSON.stringify(statusCounts(calls))}, p50 ${percentile(ms, 0.5).toFixed(0)} ms, p99 ${percentile(ms, 0.99).toFixed(0)} ms, max ${ms.at(-1)?.toFixed(0)} ms`;
}

test("database stopped, then frozen, under load: 503 within the timeouts, nothing acknowledged lost, nothing left running", async () => {
  test.setTimeout(180_000);
  studio = await startStudioProcess({ databaseUrl: pg.url, env: timeouts });
  const load = startLoad({ url: studio.url, token: studio.adminToken, clients: CLIENTS, requestTimeoutMs: 60_000 });
  await sleep(2000);
  const stoppedAt = load.calls.length;
  pg.stop();
  await sleep(3000);
  pg.start();
  await sleep(3000);
  pg.freeze(true);
  await sleep(3000);
  pg.freeze(false);
  await sleep(3000);
  load.stop();
  const calls = await load.done;
  console.log(`faults (stop, freeze): ${describeCalls(calls)}`);

  // Every call ended with an answer: a run, or 503 `unavailable` with Retry-After.
  expect(
    calls.filter((c) => c.status !== 200 && c.status !== 503),
    "only runs and 503s",
  ).toEqual([]);
  expect(calls.filter((c) => c.status === 503).length, "the outages were seen").toBeGreaterThan(0);
  expect(calls.length - stoppedAt, "calls went on through the outages").toBeGreaterThan(CLIENTS);
  // A call waits at most for a connection and then a statement (plus the run's own few ms and scheduling).
  const bound = CONNECT_MS + QUERY_MS + 1500;
  const slow503 = calls.filter((c) => c.status === 503 && c.ms > bound);
  expect(
    slow503.map((c) => Math.round(c.ms)),
    `503s slower than ${bound} ms`,
  ).toEqual([]);
  // Recovery needs no restart: the same studio runs tools again.
  const after = await fetch(`${studio.url}/api/tools/add/run`, {
    method: "POST",
    headers: { authorization: `Bearer ${studio.adminToken}`, "content-type": "application/json" },
    body: JSON.stringify({ arguments: { a: -1, b: -1 } }),
  });
  expect(after.status).toBe(200);

  const stuck = await settled(pg.url, 30_000);
  if (stuck)
    console.log(
      `studio log:\n${studio
        .log()
        .split("\n")
        .filter((l) => /tool-studio|rror/.test(l))
        .slice(-40)
        .join("\n")}`,
    );
  expect(stuck, "runs still running after recovery").toBe(0);
  const account = await accountRuns(pg.url, calls);
  console.log(`faults (stop, freeze): ${account.acknowledged} acknowledged, ${account.stored} stored ${JSON.stringify(account.byStatus)}`);
  expect(account.lost).toEqual([]);
  expect(account.duplicated).toEqual([]);
  expect(account.running).toBe(0);
  expect(await unaudited(pg.url), "finished runs without their audit entry").toBe(0);
  const verify = await fetch(`${studio.url}/api/audit/verify`, { headers: { authorization: `Bearer ${studio.adminToken}` } });
  expect(await verify.json()).toMatchObject({ ok: true });
  await studio.stop();
  studio = undefined;
});

test("pages say the database is unreachable, and come back by themselves when it is", async ({ page }) => {
  test.setTimeout(120_000);
  studio = await startStudioProcess({ databaseUrl: pg.url, env: timeouts, adminToken: process.env.E2E_ADMIN_TOKEN });
  await page.goto(`${studio.url}/runs`);
  await expect(page.getByRole("heading", { name: "Run history", exact: true })).toBeVisible();
  pg.stop();
  try {
    await everyRoute(studio.url, studio.adminToken, "database stopped");
    const health = await fetch(`${studio.url}/api/health`);
    expect(health.status).toBe(503);
    expect(health.headers.get("retry-after")).toBe("5");
    await page.goto(`${studio.url}/runs`);
    const notice = page.getByTestId("database-unreachable");
    await expect(notice).toBeVisible();
    await expect(notice).toContainText("The database is unreachable");
    await page.screenshot({ path: "e2e/.artifacts/screens/database-unreachable.png" });
    // The error page in both themes and at both sizes: themed, and never wider than the window.
    for (const theme of ["light", "dark"] as const) {
      for (const size of [
        { width: 1440, height: 900 },
        { width: 390, height: 844 },
      ]) {
        await page.emulateMedia({ colorScheme: theme });
        await page.setViewportSize(size);
        await page.goto(`${studio.url}/runs`);
        await expect(notice).toBeVisible();
        // Themed: a dark page is dark, a light one light (the failed render has no layout, so no theme class: the colours say it).
        const light = await page.evaluate(() => {
          const [r, g, b] = getComputedStyle(document.body)
            .backgroundColor.match(/\d+(\.\d+)?/g)!
            .map(Number);
          return (0.2126 * r! + 0.7152 * g! + 0.0722 * b!) / 255;
        });
        if (theme === "dark") expect(light).toBeLessThan(0.2);
        else expect(light).toBeGreaterThan(0.8);
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(size.width);
        await page.screenshot({ path: `e2e/.artifacts/screens/database-unreachable-${theme}-${size.width}x${size.height}.png`, fullPage: true });
      }
    }
  } finally {
    pg.start();
  }
  // No reload by the user: the page polls and renders again once the database answers.
  await expect(page.getByRole("heading", { name: "Run history", exact: true })).toBeVisible({ timeout: 20_000 });
  await expect(page.getByTestId("database-unreachable")).toHaveCount(0);
  pg.freeze(true);
  try {
    await everyRoute(studio.url, studio.adminToken, "database frozen");
  } finally {
    pg.freeze(false);
  }
  await studio.stop();
  studio = undefined;
});

test("the studio killed under load: every acknowledged run is stored, and its runs in flight end interrupted once their lease ends", async () => {
  test.setTimeout(180_000);
  const own = await createDatabase(pg.url); // a database of its own on the private server
  const dbUrl = own.url;
  const first = await startStudioProcess({ databaseUrl: dbUrl, env: timeouts });
  studio = first;
  const load = startLoad({ url: first.url, token: first.adminToken, clients: CLIENTS, requestTimeoutMs: 30_000 });
  while (!load.calls.some((c) => c.status === 200)) await sleep(100);
  await sleep(2000);
  await first.kill();
  await sleep(500);
  load.stop();
  const calls = await load.done;
  console.log(`kill: ${describeCalls(calls)}`);
  if (!calls.some((c) => c.status === 200)) console.log(`studio log:\n${first.log().slice(-4000)}`);
  expect(calls.filter((c) => c.runId).length, "runs acknowledged before the kill").toBeGreaterThan(0);
  expect(
    calls.filter((c) => c.status !== 200 && c.status !== "reset"),
    "only runs and dropped connections",
  ).toEqual([]);

  // Another studio on the same database marks what the dead one left running, once the leases end.
  studio = await startStudioProcess({ databaseUrl: dbUrl, env: timeouts, adminToken: first.adminToken });
  expect(await settled(dbUrl, 4 * LEASE_MS), "runs still running after their lease").toBe(0);
  const early = await query<{ id: string }>(dbUrl, "SELECT id::text FROM runs WHERE status = 'interrupted' AND finished_at < lease_until");
  expect(early, "runs interrupted before their lease ended").toEqual([]);
  const account = await accountRuns(dbUrl, calls);
  console.log(`kill: ${account.acknowledged} acknowledged, ${account.stored} stored ${JSON.stringify(account.byStatus)}`);
  expect(account.lost).toEqual([]);
  expect(account.duplicated).toEqual([]);
  expect(account.stored).toBeGreaterThanOrEqual(account.acknowledged);
  expect(await unaudited(dbUrl), "runs (interrupted ones included) without their audit entry").toBe(0);
  const verify = await fetch(`${studio.url}/api/audit/verify`, { headers: { authorization: `Bearer ${studio.adminToken}` } });
  expect(await verify.json()).toMatchObject({ ok: true });
  await studio.stop();
  studio = undefined;
});

test("clients retrying with an Idempotency-Key through a database outage: each key runs its tool exactly once", async () => {
  test.setTimeout(180_000);
  // The tool's side effect is outside the studio's database: an MCP server of the test's own counts each call by its tag.
  const invoked = new Map<string, number>();
  const handler = createMcpHandler(() => {
    const server = new Server({ name: "counter", version: "1.0.0" }, { capabilities: { tools: {} } });
    server.setRequestHandler("tools/list", () => ({
      tools: [
        { name: "bump", description: "Counts a call by its tag.", inputSchema: { type: "object", properties: { tag: { type: "string" } }, required: ["tag"] } },
      ],
    }));
    server.setRequestHandler("tools/call", async (request) => {
      const tag = String(request.params.arguments?.tag);
      invoked.set(tag, (invoked.get(tag) ?? 0) + 1);
      await sleep(300); // long enough for an outage to begin while calls are in flight
      return { content: [{ type: "text", text: `bumped ${tag}` }] };
    });
    return server;
  });
  const upstream = await serveFetch((request) => handler.fetch(request), "/mcp");
  const dir = mkdtempSync(path.join(os.tmpdir(), "idem-"));
  const configPath = path.join(dir, "studio.jsonc");
  writeFileSync(configPath, JSON.stringify({ mcpServers: [{ name: "counter", transport: "http", url: upstream.url.href }] }));
  const own = await createDatabase(pg.url);
  try {
    studio = await startStudioProcess({ databaseUrl: own.url, env: timeouts, configPath });
    const auth = { authorization: `Bearer ${studio.adminToken}` };
    let tool: string | undefined;
    for (let i = 0; i < 100 && !tool; i++) {
      const list = (await (await fetch(`${studio.url}/api/tools`, { headers: auth })).json()) as { tools: { name: string }[] };
      tool = list.tools.find((t) => t.name.endsWith("bump"))?.name;
      if (!tool) await sleep(200);
    }
    expect(tool, "the counter server's tool is listed").toBeDefined();

    let stopped = false;
    const answers: { key: string; status: number; attempts: number; runId?: string; capture?: string; replayed: boolean; run?: unknown }[] = [];
    /**
     * One logical call: the same key until the studio answers with a run (a 503 or a dropped
     * connection is retried). `impatient`: the first attempt gives up before the tool can answer,
     * as a client whose connection dropped, so its retry must find the run instead of running it again.
     */
    const callOnce = async (key: string, impatient: boolean) => {
      for (let attempts = 1; attempts <= 200; attempts++) {
        const res = await fetch(`${studio!.url}/api/tools/${tool}/run`, {
          method: "POST",
          headers: { ...auth, "content-type": "application/json", "idempotency-key": key },
          body: JSON.stringify({ arguments: { tag: key } }),
          signal: AbortSignal.timeout(impatient && attempts === 1 ? 100 : 30_000),
        }).catch(() => null);
        const body = res ? ((await res.json().catch(() => null)) as { run?: { id: string; capture?: string; status: string; error?: unknown } } | null) : null;
        if (res && res.status !== 503 && body?.run) {
          const { id, capture, status, error } = body.run;
          return answers.push({
            key,
            status: res.status,
            attempts,
            runId: id,
            capture,
            replayed: res.headers.get("idempotent-replayed") === "true",
            run: { status, error },
          });
        }
        await sleep(250);
      }
      answers.push({ key, status: 0, attempts: 200, replayed: false });
    };
    const client = async (c: number) => {
      for (let seq = 0; !stopped; seq++) await callOnce(`c${c}-${seq}-${randomUUID().slice(0, 8)}`, c % 2 === 1);
    };
    const clients = Array.from({ length: 8 }, (_, c) => client(c));
    // Calls in flight when the database stops (they answer their outcome), and calls that start
    // while it is away (refused before the tool runs, retried until it is back).
    while (invoked.size < 8) await sleep(20);
    pg.stop();
    clients.push(...Array.from({ length: 8 }, (_, c) => client(8 + c)));
    await sleep(3000);
    pg.start();
    await sleep(2000);
    stopped = true;
    await Promise.all(clients);

    const during = answers.filter((a) => Number(a.key.split("-")[0]!.slice(1)) >= 8);
    console.log(
      `idempotent retries: ${answers.length} calls, ${answers.filter((a) => a.attempts > 1).length} retried, ${answers.filter((a) => a.replayed).length} answered with the run their key named, ${answers.filter((a) => a.capture === "pending").length} answered before their run was stored`,
    );
    expect(
      answers.filter((a) => a.status !== 200),
      "every call ended with its run",
    ).toEqual([]);
    expect(during.filter((a) => a.attempts > 1).length, "calls made during the outage were refused and retried").toBeGreaterThan(0);
    expect(answers.filter((a) => a.replayed).length, "retries of calls whose answer was lost got the first run").toBeGreaterThan(0);
    const twice = [...invoked].filter(([, n]) => n !== 1);
    expect(twice, "tags the tool ran for more than once").toEqual([]);
    expect(
      answers.filter((a) => invoked.get(a.key) !== 1),
      "calls answered whose tool did not run once",
    ).toEqual([]);
    expect(await settled(own.url, 30_000), "runs still running after recovery").toBe(0);
    const rows = await query<{ key: string; n: string; ids: string }>(
      own.url,
      "SELECT idempotency_key AS key, count(*)::text AS n, string_agg(id::text, ',') AS ids FROM runs WHERE idempotency_key IS NOT NULL GROUP BY 1",
    );
    const byKey = new Map(rows.map((r) => [r.key, r]));
    for (const a of answers) {
      expect(byKey.get(a.key)?.n, `runs stored for ${a.key}`).toBe("1");
      expect(byKey.get(a.key)?.ids, `the run ${a.key} was answered with`).toBe(a.runId);
    }
    const statuses = await query<{ status: string; n: string }>(
      own.url,
      "SELECT status::text, count(*)::text AS n FROM runs WHERE idempotency_key IS NOT NULL GROUP BY 1",
    );
    expect(
      statuses.filter((r) => r.status !== "success"),
      "every keyed run succeeded",
    ).toEqual([]);
    // The rest are starts the outage cut before the tool was called: they gave their keys up to the retries.
    const others = await query<{ msg: string }>(own.url, "SELECT coalesce(error_message, status::text) AS msg FROM runs WHERE idempotency_key IS NULL");
    expect(
      others.filter((r) => !/the tool was not called/.test(r.msg)),
      "runs without their key",
    ).toEqual([]);
    await studio.stop();
    studio = undefined;
  } finally {
    await upstream.close();
    await handler.close();
    await own.drop().catch(() => {});
  }
});
