import { expect, test } from "@playwright/test";
import http from "node:http";
import { gunzipSync } from "node:zlib";

// The HTTP API exactly as documented in the README.

test("GET /api/tools and /api/tools/{name}", async ({ request }) => {
  const list = await (await request.get("/api/tools")).json();
  expect(list.tools.map((t: { name: string }) => t.name)).toEqual(
    expect.arrayContaining(["add", "json_query", "chart_png", "fail", "slow_count", "create_event"]),
  );
  const add = await request.get("/api/tools/add");
  expect(add.status()).toBe(200);
  const { tool } = await add.json();
  expect(tool).toMatchObject({ name: "add", source: { kind: "builtin" }, outputSchema: { type: "object" } });
  const missing = await request.get("/api/tools/nope");
  expect(missing.status()).toBe(404);
  expect((await missing.json()).error.kind).toBe("not_found");
});

test("GET /api/tools: summaries by default, full specs with view=full, an entity tag per view, pages with limit and cursor, and no raw definitions", async ({
  request,
}) => {
  const first = await request.get("/api/tools");
  const etag = first.headers()["etag"]!;
  expect(etag).toMatch(/^"[\w-]+"$/);
  const all: { name: string; raw?: unknown; inputSchema?: unknown }[] = (await first.json()).tools;
  expect(all.some((t) => "raw" in t || "inputSchema" in t)).toBe(false);
  expect(all.find((t) => t.name === "add")).toMatchObject({
    title: expect.any(String),
    description: expect.any(String),
    source: { id: "builtin" },
    params: 2,
    outputSchema: true,
  });
  expect((await request.get("/api/tools", { headers: { "if-none-match": etag } })).status()).toBe(304);

  const full = await request.get("/api/tools?view=full");
  const fullTag = full.headers()["etag"]!;
  expect(fullTag).not.toBe(etag);
  const specs: { name: string; raw?: unknown }[] = (await full.json()).tools;
  expect(specs.map((t) => t.name)).toEqual(all.map((t) => t.name));
  expect(specs.some((t) => "raw" in t)).toBe(false);
  expect(specs.find((t) => t.name === "add")).toMatchObject({ inputSchema: { type: "object" }, outputSchema: { type: "object" }, source: { kind: "builtin" } });
  expect((await request.get("/api/tools?view=full", { headers: { "if-none-match": fullTag } })).status()).toBe(304);
  expect((await request.get("/api/tools?view=full", { headers: { "if-none-match": etag } })).status()).toBe(200);
  const fullPage = await (await request.get("/api/tools?limit=2&view=full")).json();
  expect(fullPage.tools[0]).toHaveProperty("inputSchema");

  const paged: string[] = [];
  let cursor: string | undefined;
  for (let i = 0; i < 100; i++) {
    const page = await (await request.get(`/api/tools?limit=5${cursor ? `&cursor=${cursor}` : ""}`)).json();
    expect(page.tools.length).toBeLessThanOrEqual(5);
    paged.push(...page.tools.map((t: { name: string }) => t.name));
    cursor = page.nextCursor;
    if (!cursor) break;
  }
  expect(paged).toEqual(all.map((t) => t.name));

  for (const [query, path] of [
    ["limit=5&cursor=bogus", "/cursor"],
    ["limit=0", "/limit"],
    ["cursor=x", "/cursor"],
    ["page=2", ""],
    ["view=raw", "/view"],
  ] as const) {
    const bad = await request.get(`/api/tools?${query}`);
    expect(bad.status(), query).toBe(400);
    const { error } = await bad.json();
    expect(error.kind).toBe("bad_request");
    expect(error.details?.[0]?.path ?? "", query).toBe(path);
  }
});

test('POST /api/tools/{name}/run with "mode": "async": 202 with the queued run, run in-process on the embedded database, cancel while queued', async ({
  request,
}) => {
  const res = await request.post("/api/tools/add/run", { data: { arguments: { a: 20, b: 22 }, mode: "async", priority: 7 } });
  expect(res.status()).toBe(202);
  const { run } = await res.json();
  expect(run).toMatchObject({ tool: "add", status: "queued", priority: 7, output: null });
  expect(res.headers()["location"]).toBe(`/api/runs/${run.id}`);
  let now = run;
  for (let i = 0; i < 100 && (now.status === "queued" || now.status === "running"); i++) {
    await new Promise((r) => setTimeout(r, 100));
    now = (await (await request.get(res.headers()["location"]!)).json()).run;
  }
  expect(now).toMatchObject({ id: run.id, status: "success", queuedAt: run.queuedAt, output: { structuredContent: { sum: 42 } } });

  // The in-process worker takes 4 at a time: of 6 slow runs, the last ones wait, and are cancelled where they wait.
  const slow = await Promise.all(
    Array.from({ length: 6 }, () =>
      request.post("/api/tools/slow_count/run", { data: { arguments: { steps: 50, delayMs: 100 }, mode: "async" } }).then((r) => r.json()),
    ),
  );
  const ids: string[] = slow.map((b) => b.run.id);
  // Last queued first: those still wait behind the four that run.
  for (const id of [...ids].reverse()) {
    const cancel = await request.post(`/api/runs/${id}/cancel`);
    expect([200, 409]).toContain(cancel.status());
  }
  const ended = await Promise.all(ids.map(async (id) => (await (await request.get(`/api/runs/${id}`)).json()).run));
  for (const r of ended) expect(r.status).toBe("cancelled");
  expect(
    ended.some((r) => r.error?.message === "Cancelled by the caller before it started."),
    "one was cancelled while it waited",
  ).toBe(true);

  // The same checks as a synchronous run, answered at once.
  const invalid = await request.post("/api/tools/add/run", { data: { arguments: { a: "x" }, mode: "async" } });
  expect(invalid.status()).toBe(400);
  expect((await invalid.json()).run.status).toBe("rejected");
  const priorityAlone = await request.post("/api/tools/add/run", { data: { arguments: { a: 1, b: 1 }, priority: 3 } });
  expect(priorityAlone.status()).toBe(400);
  expect((await priorityAlone.json()).error.details).toEqual([{ path: "/priority", message: 'applies to queued runs only: send "mode": "async" with it' }]);
});

test("POST /api/tools/{name}/run: success, tool error, invalid arguments, unknown tool, bad body", async ({ request }) => {
  const ok = await request.post("/api/tools/add/run", { data: { arguments: { a: 2, b: 40 } } });
  expect(ok.status()).toBe(200);
  const { run } = await ok.json();
  expect(run).toMatchObject({ tool: "add", status: "success", origin: "api", error: null, replayOf: null, output: { structuredContent: { sum: 42 } } });
  for (const k of ["id", "arguments", "durationMs", "startedAt", "finishedAt", "actor"]) expect(run).toHaveProperty(k);

  const failed = await request.post("/api/tools/fail/run", { data: { arguments: { kind: "permission_denied", message: "no" } } });
  expect(failed.status()).toBe(200);
  expect((await failed.json()).run).toMatchObject({ status: "error", error: { kind: "permission_denied", message: "no" } });

  const invalid = await request.post("/api/tools/add/run", { data: { arguments: { a: "x" } } });
  expect(invalid.status()).toBe(400);
  const body = await invalid.json();
  expect(body.error.kind).toBe("invalid_args");
  expect(body.error.details).toEqual(
    expect.arrayContaining([
      { path: "/a", message: "must be integer" },
      { path: "/b", message: "is required" },
    ]),
  );
  // still captured, as rejected
  const captured = await (await request.get(`/api/runs/${body.run.id}`)).json();
  expect(captured.run.status).toBe("rejected");

  expect((await request.post("/api/tools/nope/run", { data: { arguments: {} } })).status()).toBe(404);
  const notJson = await request.post("/api/tools/add/run", { data: Buffer.from("{oops"), headers: { "content-type": "application/json" } });
  expect(notJson.status()).toBe(400);
  expect((await notJson.json()).error.message).toMatch(/not valid JSON/);
  const tooBig = await request.post("/api/tools/add/run", { data: { arguments: { a: 1, b: 2, pad: "x".repeat(2 * 1024 * 1024) } } });
  expect(tooBig.status()).toBe(413);
});

test("GET /api/runs pages newest first with a cursor and filters; GET /api/runs/{id}", async ({ request }) => {
  for (let i = 0; i < 5; i++) await request.post("/api/tools/add/run", { data: { arguments: { a: i, b: 1 } } });
  const first = await (await request.get("/api/runs?tool=add&status=success&limit=2")).json();
  expect(first.runs).toHaveLength(2);
  expect(first.nextCursor).toBeTruthy();
  expect(first.runs.every((r: { tool: string; status: string }) => r.tool === "add" && r.status === "success")).toBe(true);
  const second = await (await request.get(`/api/runs?tool=add&status=success&limit=2&cursor=${first.nextCursor}`)).json();
  expect(second.runs[0].startedAt <= first.runs[1].startedAt).toBe(true);
  expect(second.runs.map((r: { id: string }) => r.id)).not.toContain(first.runs[1].id);

  const one = await (await request.get(`/api/runs/${first.runs[0].id}`)).json();
  expect(one.run.id).toBe(first.runs[0].id);
  expect((await request.get("/api/runs/00000000-0000-0000-0000-000000000000")).status()).toBe(404);
  expect((await request.get("/api/runs?status=nope")).status()).toBe(400);
  expect((await request.get("/api/runs?cursor=garbage")).status()).toBe(400);
  expect((await request.get("/api/runs?limit=0")).status()).toBe(400);
});

test("replayOf links a run to the one it replays", async ({ request }) => {
  const { run } = await (await request.post("/api/tools/add/run", { data: { arguments: { a: 1, b: 1 } } })).json();
  const again = await (await request.post("/api/tools/add/run", { data: { arguments: run.arguments, replayOf: run.id } })).json();
  expect(again.run.replayOf).toBe(run.id);
});

// scripts/server.mjs hands these two routes to their handlers before Next's router: what Next
// gave every response must still be there.
test("the hot routes (POST /api/tools/{name}/run, GET /api/tools) served outside Next's router: the config's headers, the list gzipped, a streamed run cancelled when its caller goes away", async ({
  request,
  baseURL,
}) => {
  const AUTH = { authorization: `Bearer ${process.env.E2E_ADMIN_TOKEN}` };
  for (const res of [await request.post("/api/tools/add/run", { data: { arguments: { a: 1, b: 2 } } }), await request.get("/api/tools")]) {
    expect(res.status()).toBe(200);
    expect(res.headers()).toMatchObject({ "x-content-type-options": "nosniff", "x-frame-options": "DENY", "referrer-policy": "same-origin" });
  }

  // The list (full specs: large enough to be compressed), as a client that takes gzip gets it: compressed, and the same JSON once inflated.
  const raw = await new Promise<{ encoding?: string; body: Buffer }>((resolve, reject) => {
    http
      .get(`${baseURL}/api/tools?view=full`, { headers: { ...AUTH, "accept-encoding": "gzip" } }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => resolve({ encoding: res.headers["content-encoding"], body: Buffer.concat(chunks) }));
      })
      .on("error", reject);
  });
  expect(raw.encoding).toBe("gzip");
  const listed = await (await request.get("/api/tools?view=full")).json();
  expect(JSON.parse(gunzipSync(raw.body).toString("utf8"))).toEqual(listed);

  // A streamed run whose caller goes away after it started is cancelled, as under Next.
  const aborted = new AbortController();
  const res = await fetch(`${baseURL}/api/tools/slow_count/run`, {
    method: "POST",
    headers: { ...AUTH, "content-type": "application/json", accept: "application/x-ndjson" },
    body: JSON.stringify({ arguments: { steps: 50, delayMs: 200 } }),
    signal: aborted.signal,
  });
  const reader = res.body!.getReader();
  const first = JSON.parse(new TextDecoder().decode((await reader.read()).value).split("\n")[0]!) as { type: string; runId: string };
  expect(first.type).toBe("started");
  aborted.abort();
  await expect.poll(async () => (await (await request.get(`/api/runs/${first.runId}`)).json()).run.status, { timeout: 15_000 }).toBe("cancelled");
});
