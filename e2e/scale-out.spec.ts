import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { expect, test } from "@playwright/test";
import { accountRuns, startLoad, statusCounts } from "../tests/helpers/load";
import { startRoundRobin } from "../tests/helpers/round-robin";
import { createDatabase, query, runnerToken, startStudioProcess, type StudioProcess } from "../tests/helpers/studio-process";

// Two studio instances (the production build, `next start`, each its own process and config
// file) on one PostgreSQL database: what one does, the other sees; behind a round-robin proxy,
// one of them killed under load loses nothing. (Runs execute in the instance that received them:
// there is no job queue yet, see docs/SCALING.md.)

let db: Awaited<ReturnType<typeof createDatabase>>;
let a: StudioProcess;
let b: StudioProcess;
const LEASE_MS = 3000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  test.setTimeout(180_000);
  db = await createDatabase();
  const adminToken = `scale-${Date.now()}`;
  // One after the other: the first migrates the database.
  const env = { STUDIO_RUN_LEASE_MS: String(LEASE_MS) };
  a = await startStudioProcess({ databaseUrl: db.url, adminToken, env });
  b = await startStudioProcess({ databaseUrl: db.url, adminToken, env });
});
test.afterAll(async () => {
  await a?.stop();
  await b?.stop();
  await db?.drop();
});

const call = (s: StudioProcess, path: string, init: RequestInit = {}) =>
  fetch(s.url + path, { ...init, headers: { authorization: `Bearer ${s.adminToken}`, "content-type": "application/json", ...init.headers } });

interface ConfigBody {
  version: string;
  raw: string;
  path: string;
  revision: { id: number; author: string } | null;
}

test("a config save through A is seen by B within 1 s; B's stale version is refused", async () => {
  const before: ConfigBody = await (await call(a, "/api/config")).json();
  expect(before.version).toMatch(/^[0-9a-f]{64}$/);
  expect((await call(b, "/api/config")).headers.get("etag")).toBe(`"${before.version}"`); // both started from the same revision

  const text = before.raw + `\n// saved through A at ${Date.now()}\n`;
  const put = await call(a, "/api/config", { method: "PUT", body: JSON.stringify({ text, expectedVersion: before.version }) });
  expect(put.status).toBe(200);
  const saved: ConfigBody = await put.json();
  const savedAt = Date.now();
  let seen: ConfigBody | null = null;
  while (Date.now() - savedAt < 1000) {
    const now: ConfigBody = await (await call(b, "/api/config")).json();
    if (now.version === saved.version) {
      seen = now;
      break;
    }
    await sleep(20);
  }
  expect(seen, "B serves A's save within 1 s").not.toBeNull();
  expect(seen!.revision).toMatchObject({ id: saved.revision!.id, author: "token:STUDIO_ADMIN_TOKEN" });
  expect(seen!.raw).toBe(saved.raw);
  // B's own file follows: its text is the revision's (the version is the text's sha256).
  expect(createHash("sha256").update(readFileSync(seen!.path, "utf8")).digest("hex")).toBe(saved.version);

  // An editor that loaded the old version on B is told it changed.
  const stale = await call(b, "/api/config", { method: "PUT", body: JSON.stringify({ text: before.raw, expectedVersion: before.version }) });
  expect(stale.status).toBe(409);
  expect((await stale.json()).error.message).toMatch(/changed by someone else/);
  // If-Match works as well as the body field.
  const ifMatch = await call(b, "/api/config", { method: "PUT", body: JSON.stringify({ text: before.raw }), headers: { "if-match": `"${before.version}"` } });
  expect(ifMatch.status).toBe(409);

  const audit = await query<{ n: string }>(db.url, "SELECT count(*)::text AS n FROM audit_log WHERE action = 'config.change' AND detail->>'revision' = $1", [String(saved.revision!.id)]);
  expect(audit[0]!.n, "the save is audited once, by the instance that made it").toBe("1");
});

test("a run started on A is cancelled through B", async () => {
  const started = call(a, "/api/tools/slow_count/run", { method: "POST", body: JSON.stringify({ arguments: { steps: 100, delayMs: 200 } }) });
  let id: string | undefined;
  for (let i = 0; i < 200 && !id; i++) {
    await sleep(50);
    id = (await query<{ id: string }>(db.url, "SELECT id::text FROM runs WHERE tool_name = 'slow_count' AND status = 'running'"))[0]?.id;
  }
  expect(id, "the run is running on A").toBeTruthy();
  const cancel = await call(b, `/api/runs/${id}/cancel`, { method: "POST" });
  expect(cancel.status).toBe(200);
  expect(await cancel.json()).toEqual({ cancelled: true });
  const run = await (await started).json();
  expect(run.run).toMatchObject({ id, status: "cancelled" });
  // Cancelling it again, from either side, says it is over.
  expect((await call(a, `/api/runs/${id}/cancel`, { method: "POST" })).status).toBe(409);
  expect((await call(b, `/api/runs/${id}/cancel`, { method: "POST" })).status).toBe(409);
});

test("behind a round-robin proxy, A killed under load: every acknowledged run is stored once, A's runs in flight end interrupted only after their lease, the chain verifies", async () => {
  test.setTimeout(180_000);
  const proxy = await startRoundRobin([a.url, b.url]);
  try {
    const token = await runnerToken(b.url, b.adminToken);
    // Two long runs on A for sure, besides what the load sends its way.
    const long = [0, 1].map(() => call(a, "/api/tools/slow_count/run", { method: "POST", body: JSON.stringify({ arguments: { steps: 100, delayMs: 300 } }) }).catch(() => null));
    const load = startLoad({ url: proxy.url, token, clients: 16, requestTimeoutMs: 30_000 });
    while (load.calls.filter((c) => c.status === 200).length < 50) await sleep(50);
    await a.kill();
    const killedAt = Date.now();
    await sleep(2000); // the load goes on: B answers, A's turn is a 502
    load.stop();
    const calls = await load.done;
    await Promise.all(long);
    console.log(`scale-out kill: ${calls.length} calls ${JSON.stringify(statusCounts(calls))}, per backend ${JSON.stringify(proxy.counts)}`);
    expect(calls.filter((c) => c.status !== 200 && c.status !== 502 && c.status !== "reset"), "only runs, bad gateways and dropped connections").toEqual([]);
    expect(calls.filter((c) => c.status === 200 && c.at > 0).length).toBeGreaterThan(50);

    // B sweeps what A left running once the leases end; never before.
    const until = Date.now() + 6 * LEASE_MS;
    let running = 1;
    while (running && Date.now() < until) {
      running = Number((await query<{ n: string }>(db.url, "SELECT count(*)::text AS n FROM runs WHERE status = 'running'"))[0]!.n);
      if (running) await sleep(250);
    }
    expect(running, "runs still running after their lease").toBe(0);
    const early = await query<{ id: string }>(db.url, "SELECT id::text FROM runs WHERE status = 'interrupted' AND finished_at < lease_until");
    expect(early, "runs interrupted before their lease ended").toEqual([]);
    const interrupted = await query<{ n: string }>(db.url, "SELECT count(*)::text AS n FROM runs WHERE status = 'interrupted' AND tool_name = 'slow_count' AND finished_at >= $1", [new Date(killedAt)]);
    expect(Number(interrupted[0]!.n), "A's long runs end interrupted").toBe(2);

    const account = await accountRuns(db.url, calls);
    expect(account.lost).toEqual([]);
    expect(account.duplicated).toEqual([]);
    expect((await (await call(b, "/api/audit/verify")).json()).ok).toBe(true);
  } finally {
    await proxy.close();
  }
});
