import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { expect, test } from "@playwright/test";
import { accountRuns, startLoad, statusCounts } from "../tests/helpers/load";
import { EXAMPLE_SERVER } from "../tests/helpers/mcp";
import { startRoundRobin } from "../tests/helpers/round-robin";
import {
  createDatabase,
  query,
  runnerToken,
  startStudioProcess,
  startWorkerProcess,
  type StudioProcess,
  type WorkerProcess,
} from "../tests/helpers/studio-process";

// Two studio instances (the production build, `next start`, each its own process and config
// file) and one worker (`npm run worker`) on one PostgreSQL database: what one does, the other
// sees; queued runs (`"mode": "async"`) are run by the worker, whichever instance took them;
// behind a round-robin proxy, one instance killed under load loses nothing. Synchronous runs
// execute in the instance that received them (docs/SCALING.md says why).

let db: Awaited<ReturnType<typeof createDatabase>>;
let a: StudioProcess;
let b: StudioProcess;
let worker: WorkerProcess;
const LEASE_MS = 3000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  test.setTimeout(180_000);
  db = await createDatabase();
  const adminToken = `scale-${Date.now()}`;
  // One after the other: the first migrates the database.
  // The web instances leave queued runs to the worker.
  const env = { STUDIO_RUN_LEASE_MS: String(LEASE_MS), STUDIO_WORKER: "off" };
  a = await startStudioProcess({ databaseUrl: db.url, adminToken, env });
  b = await startStudioProcess({ databaseUrl: db.url, adminToken, env });
  worker = await startWorkerProcess({ databaseUrl: db.url, env: { STUDIO_RUN_LEASE_MS: String(LEASE_MS), STUDIO_WORKER_CONCURRENCY: "3" } });
});
test.afterAll(async () => {
  await worker?.stop();
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

  const audit = await query<{ n: string }>(db.url, "SELECT count(*)::text AS n FROM audit_log WHERE action = 'config.change' AND detail->>'revision' = $1", [
    String(saved.revision!.id),
  ]);
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

test("a token revoked or a user demoted through A is refused or capped by B at once (B's cache of verified tokens is cleared)", async () => {
  const token = await runnerToken(a.url, a.adminToken);
  // Arguments no other test's load uses (the kill test accounts for every `add` run by them).
  let n = 0;
  const run = (s: StudioProcess) =>
    fetch(`${s.url}/api/tools/add/run`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ arguments: { a: -1_000_000 - n++, b: 0 } }),
    });
  // B verifies the token (and keeps the verification).
  expect((await run(b)).status).toBe(200);
  expect((await run(b)).status).toBe(200);
  const { principal } = await (await fetch(`${b.url}/api/me`, { headers: { authorization: `Bearer ${token}` } })).json();
  const { tokenId, userId } = principal as { tokenId: string; userId: string };
  expect(tokenId && userId).toBeTruthy();
  // Demoted to viewer through A: B caps the token at once (a viewer may not run tools).
  expect((await call(a, `/api/users/${userId}`, { method: "PATCH", body: JSON.stringify({ role: "viewer" }), headers: { origin: a.url } })).status).toBe(200);
  await expect.poll(async () => (await run(b)).status, { timeout: 1000, intervals: [50] }).toBe(403);
  expect((await call(a, `/api/users/${userId}`, { method: "PATCH", body: JSON.stringify({ role: "runner" }), headers: { origin: a.url } })).status).toBe(200);
  await expect.poll(async () => (await run(b)).status, { timeout: 1000, intervals: [50] }).toBe(200);
  // Revoked through A: refused by B within a second, not after the cache's 30 s.
  expect((await call(a, `/api/tokens/${tokenId}`, { method: "DELETE", headers: { origin: a.url } })).status).toBe(200);
  await expect.poll(async () => (await run(b)).status, { timeout: 1000, intervals: [50] }).toBe(401);
});

const asyncRun = (s: StudioProcess, tool: string, args: object, extra: object = {}) =>
  call(s, `/api/tools/${tool}/run`, { method: "POST", body: JSON.stringify({ arguments: args, mode: "async", ...extra }) });

async function waitForStatus(s: StudioProcess, id: string, done: (status: string) => boolean, ms = 30_000): Promise<{ status: string; owner?: string }> {
  const until = Date.now() + ms;
  for (;;) {
    const run = (await (await call(s, `/api/runs/${id}`)).json()).run;
    if (done(run.status) || Date.now() > until) return run;
    await sleep(100);
  }
}

test("async runs taken by either instance are run by the worker; a queued one and a running one are cancelled through the other", async () => {
  test.setTimeout(120_000);
  const sent = await Promise.all(Array.from({ length: 10 }, (_, i) => asyncRun(i % 2 ? a : b, "add", { a: i, b: 1000 })));
  for (const res of sent) {
    expect(res.status).toBe(202);
    expect(res.headers.get("location")).toMatch(/^\/api\/runs\/[0-9a-f-]{36}$/);
  }
  const ids: string[] = await Promise.all(sent.map(async (r) => ((await r.json()) as { run: { id: string; status: string } }).run.id));
  for (const id of ids) expect((await waitForStatus(a, id, (st) => st !== "queued" && st !== "running")).status).toBe("success");
  const owners = await query<{ owner: string }>(db.url, "SELECT DISTINCT owner FROM runs WHERE id = ANY($1::uuid[])", [ids]);
  expect(owners, "every queued run ran in the worker").toEqual([{ owner: worker.instance }]);
  const sums = await query<{ s: string }>(db.url, "SELECT (structured_content->>'sum') AS s FROM runs WHERE id = ANY($1::uuid[]) ORDER BY 1", [ids]);
  expect(sums.map((r) => Number(r.s)).sort((x, y) => x - y)).toEqual(Array.from({ length: 10 }, (_, i) => 1000 + i));

  // The worker takes 3 at a time: of 4 slow runs, one waits.
  const slow = await Promise.all(Array.from({ length: 4 }, () => asyncRun(a, "slow_count", { steps: 100, delayMs: 100 })));
  const slowIds: string[] = await Promise.all(slow.map(async (r) => ((await r.json()) as { run: { id: string } }).run.id));
  let queued: string | undefined;
  let running: string | undefined;
  for (let i = 0; i < 200 && !(queued && running); i++) {
    const rows = await query<{ id: string; status: string }>(db.url, "SELECT id::text, status::text FROM runs WHERE id = ANY($1::uuid[])", [slowIds]);
    queued = rows.find((r) => r.status === "queued")?.id;
    running = rows.find((r) => r.status === "running")?.id;
    if (rows.filter((r) => r.status === "running").length < 3) queued = undefined;
    await sleep(50);
  }
  expect(queued, "one slow run waits while three run").toBeTruthy();
  const cancelQueued = await call(b, `/api/runs/${queued}/cancel`, { method: "POST" });
  expect(cancelQueued.status).toBe(200);
  expect((await waitForStatus(b, queued!, (st) => st !== "queued")).status).toBe("cancelled");
  const cancelRunning = await call(b, `/api/runs/${running}/cancel`, { method: "POST" });
  expect(cancelRunning.status).toBe(200);
  expect((await waitForStatus(a, running!, (st) => st !== "running")).status).toBe("cancelled");
  for (const id of slowIds) {
    if (id === queued || id === running) continue;
    await call(a, `/api/runs/${id}/cancel`, { method: "POST" });
    expect((await waitForStatus(a, id, (st) => st !== "running" && st !== "queued")).status).toBe("cancelled");
  }
  const neverRan = await query<{ owner: string | null }>(db.url, "SELECT owner FROM runs WHERE id = $1::uuid", [queued]);
  expect(neverRan, "the run cancelled while queued never reached a worker").toEqual([{ owner: null }]);
});

test("an MCP server added through A is held by the worker alone; B lists its tools and runs them, over HTTP and /api/mcp", async () => {
  test.setTimeout(90_000);
  const add = await call(a, "/api/servers", {
    method: "POST",
    body: JSON.stringify({ name: "ex", transport: "stdio", command: process.execPath, args: [EXAMPLE_SERVER] }),
  });
  expect(add.status).toBe(201);
  // The worker connects (config revision -> NOTIFY) and publishes; B reads what it published.
  let state = "";
  for (let i = 0; i < 300 && state !== "connected"; i++) {
    const servers: { name: string; state: string }[] = (await (await call(b, "/api/servers")).json()).servers;
    state = servers.find((s) => s.name === "ex")?.state ?? "";
    if (state !== "connected") await sleep(100);
  }
  expect(state, "B shows the server connected, as the worker sees it").toBe("connected");
  const tools: { name: string }[] = (await (await call(b, "/api/tools")).json()).tools;
  expect(tools.map((t) => t.name)).toContain("ex__add");
  const publishers = await query<{ publisher: string }>(db.url, "SELECT DISTINCT publisher FROM mcp_server_states");
  expect(publishers, "only the worker holds the connection").toEqual([{ publisher: worker.instance }]);

  // A synchronous call through B: queued for the worker, answered by B once it ends.
  const res = await call(b, "/api/tools/ex__add/run", { method: "POST", body: JSON.stringify({ arguments: { a: 2, b: 3 } }) });
  expect(res.status).toBe(200);
  const run = (await res.json()).run;
  expect(run).toMatchObject({ status: "success", output: { structuredContent: { sum: 5 } } });
  expect(await query<{ owner: string }>(db.url, "SELECT owner FROM runs WHERE id = $1::uuid", [run.id])).toEqual([{ owner: worker.instance }]);

  // An agent on /api/mcp of A (2026-07-28, sessionless) lists and calls it the same way.
  const client = new Client({ name: "scale-out", version: "1.0.0" }, { versionNegotiation: { mode: { pin: "2026-07-28" } } });
  await client.connect(
    new StreamableHTTPClientTransport(new URL("/api/mcp", a.url), { requestInit: { headers: { authorization: `Bearer ${a.adminToken}` } } }),
  );
  try {
    expect((await client.listTools()).tools.map((t) => t.name)).toContain("ex__add");
    const result = await client.callTool({ name: "ex__add", arguments: { a: 40, b: 2 } });
    expect(result.structuredContent).toEqual({ sum: 42 });
  } finally {
    await client.close();
  }
});

test("behind a round-robin proxy, A killed under load: every acknowledged run is stored once, A's runs in flight end interrupted only after their lease, the chain verifies", async () => {
  test.setTimeout(180_000);
  const proxy = await startRoundRobin([a.url, b.url]);
  try {
    const token = await runnerToken(b.url, b.adminToken);
    // Two long runs on A for sure, besides what the load sends its way.
    const long = [0, 1].map(() =>
      call(a, "/api/tools/slow_count/run", { method: "POST", body: JSON.stringify({ arguments: { steps: 100, delayMs: 300 } }) }).catch(() => null),
    );
    const load = startLoad({ url: proxy.url, token, clients: 16, requestTimeoutMs: 30_000 });
    while (load.calls.filter((c) => c.status === 200).length < 50) await sleep(50);
    // Queued through A just before it dies: the worker runs them all the same.
    const queuedOnA = await Promise.all(
      Array.from({ length: 6 }, (_, i) => asyncRun(a, "add", { a: 500 + i, b: 1 }).then((r) => r.json() as Promise<{ run: { id: string } }>)),
    );
    await a.kill();
    const killedAt = Date.now();
    await sleep(2000); // the load goes on: B answers, A's turn is a 502
    load.stop();
    const calls = await load.done;
    await Promise.all(long);
    console.log(`scale-out kill: ${calls.length} calls ${JSON.stringify(statusCounts(calls))}, per backend ${JSON.stringify(proxy.counts)}`);
    expect(
      calls.filter((c) => c.status !== 200 && c.status !== 502 && c.status !== "reset"),
      "only runs, bad gateways and dropped connections",
    ).toEqual([]);
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
    const interrupted = await query<{ n: string }>(
      db.url,
      "SELECT count(*)::text AS n FROM runs WHERE status = 'interrupted' AND tool_name = 'slow_count' AND finished_at >= $1",
      [new Date(killedAt)],
    );
    expect(Number(interrupted[0]!.n), "A's long runs end interrupted").toBe(2);

    for (const { run } of queuedOnA)
      expect((await waitForStatus(b, run.id, (st) => st !== "queued" && st !== "running")).status, "a queued run acknowledged by A is run by the worker").toBe(
        "success",
      );

    const account = await accountRuns(db.url, calls);
    expect(account.lost).toEqual([]);
    expect(account.duplicated).toEqual([]);
    expect((await (await call(b, "/api/audit/verify")).json()).ok).toBe(true);
  } finally {
    await proxy.close();
  }
});
