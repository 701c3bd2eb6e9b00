import { expect, test } from "@playwright/test";

// The HTTP API exactly as documented in the README.

test("GET /api/tools and /api/tools/{name}", async ({ request }) => {
  const list = await (await request.get("/api/tools")).json();
  expect(list.tools.map((t: { name: string }) => t.name)).toEqual(expect.arrayContaining(["add", "json_query", "chart_png", "fail", "slow_count", "create_event"]));
  const add = await request.get("/api/tools/add");
  expect(add.status()).toBe(200);
  const { tool } = await add.json();
  expect(tool).toMatchObject({ name: "add", source: { kind: "builtin" }, outputSchema: { type: "object" } });
  const missing = await request.get("/api/tools/nope");
  expect(missing.status()).toBe(404);
  expect((await missing.json()).error.kind).toBe("not_found");
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
  expect(body.error.details).toEqual(expect.arrayContaining([{ path: "/a", message: "must be integer" }, { path: "/b", message: "is required" }]));
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
