import http from "node:http";
import { expect, test } from "@playwright/test";

// Input the studio cannot take as sent gets a clear 400 naming where, never a 5xx; arguments that
// cannot be stored still make a captured (rejected) run, stored escaped.
const BASE = `http://127.0.0.1:${process.env.E2E_PORT ?? 3123}`;
const AUTH = { authorization: `Bearer ${process.env.E2E_ADMIN_TOKEN}` };

/** A raw request: the path is sent exactly as written (fetch would normalise it). */
function raw(method: string, path: string, body?: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${BASE}/`, { method, path, headers: { ...AUTH, "content-type": "application/json" } }, (res) => {
      let text = "";
      res.on("data", (d) => (text += d));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

test("arguments PostgreSQL cannot store are refused with their path, and the run is still captured", async () => {
  for (const [args, path] of [
    ['{"a": 1, "b": "x\\u0000"}', "/b"],
    ['{"a": "\\ud800", "b": 2}', "/a"],
    ['{"a": 1, "b": 2, "__proto__": {"polluted": true}}', "/__proto__"],
  ] as const) {
    const res = await raw("POST", "/api/tools/add/run", `{"arguments": ${args}}`);
    expect(res.status, args).toBe(400);
    const body = JSON.parse(res.body);
    expect(body.error.kind).toBe("invalid_args");
    expect(body.error.details.map((d: { path: string }) => d.path)).toContain(path);
    expect(body.run).toMatchObject({ tool: "add", status: "rejected" });
    const stored = JSON.parse((await raw("GET", `/api/runs/${body.run.id}`)).body).run;
    expect(stored.error.message).toMatch(/altered for storage/);
  }
  const deep = `{"arguments": {"a": ${"[".repeat(10_000)}${"]".repeat(10_000)}}}`;
  const res = await raw("POST", "/api/tools/add/run", deep);
  expect(res.status).toBe(400);
  expect(JSON.parse(res.body).error.message).toMatch(/nests deeper than 64 levels/);
});

test("URLs, ids, cursors and dates that do not make sense are a 400, on the API and on pages", async () => {
  const cases: [string, string, number][] = [
    ["GET", "/api/tools/%ff%fe", 400],
    ["GET", "/api/tools/add%00", 400],
    ["GET", "/api/runs?tool=a%00b", 400],
    ["GET", "/api/runs?since=-271821-04-20", 400],
    ["GET", "/api/runs?cursor=zzz", 400],
    ["GET", "/api/runs/------------------------------------", 404],
    ["GET", "/api/audit?cursor=zzz", 400],
    ["DELETE", `/api/servers/${"a".repeat(900)}`, 400],
    ["GET", "/runs?cursor=abc", 200],
    ["GET", "/audit?cursor=zzz", 200],
    ["GET", "/tools/%ff", 400],
  ];
  for (const [method, path, status] of cases) {
    const res = await raw(method, path);
    expect(res.status, `${method} ${path}`).toBe(status);
    if (path.startsWith("/api/") && status >= 400) expect(JSON.parse(res.body).error.kind, path).toMatch(/^[a-z_]+$/);
  }
  // still answering
  expect((await raw("GET", "/api/tools")).status).toBe(200);
});

test("an export is only served to the studio's own pages or to scripts, never to another site", async ({ request }) => {
  const exports = async () => ((await (await request.get("/api/audit?action=export&limit=100")).json()) as { entries: unknown[] }).entries.length;
  const before = await exports();
  // Another site's page (a link or an <img> there): the browser says cross-site, the door refuses.
  const cross = await request.get("/api/runs/export?format=csv", { headers: { "sec-fetch-site": "cross-site", "sec-fetch-mode": "navigate" } });
  expect(cross.status()).toBe(403);
  expect((await cross.json()).error.kind).toBe("forbidden");
  expect(await exports(), "a refused export writes no audit entry").toBe(before);
  // The studio's own history page, and a script with a token (no Sec-Fetch-Site at all).
  const same = await request.get("/api/runs/export?format=csv", { headers: { "sec-fetch-site": "same-origin" } });
  expect(same.status()).toBe(200);
  expect((await request.get("/api/runs/export?format=ndjson")).status()).toBe(200);
  expect(await exports()).toBe(before + 2);
});

// Issue 37, item 6: a 900,000-character server name was written into the config and its process
// started while the client got a 500 (no server.add entry); javascript: and file: URLs were taken.
test("a server entry past its limits is a 400 naming the field and the limit, and leaves no trace", async () => {
  const json = async (method: string, path: string, body?: unknown) => {
    const res = await raw(method, path, body === undefined ? undefined : JSON.stringify(body));
    return {
      status: res.status,
      body: JSON.parse(res.body) as { error?: { kind: string; message: string; details?: { path: string }[] } } & Record<string, unknown>,
    };
  };
  const trace = async () => ({
    version: (await json("GET", "/api/config")).body.version,
    adds: ((await json("GET", "/api/audit?action=server.add&limit=200")).body.entries as unknown[]).length,
    servers: ((await json("GET", "/api/servers")).body.servers as { name: string }[]).map((s) => s.name),
  });
  const before = await trace();
  const huge = "a".repeat(900_000);
  for (const [body, field, limit] of [
    [{ name: huge, transport: "stdio", command: "node" }, "/name", /at most 64 characters/],
    [{ name: "ok", transport: "stdio", command: "node", args: [huge] }, "/args/0", /at most 8192 characters/],
    [{ name: "ok", transport: "http", url: "javascript:alert(1)" }, "/url", /http:\/\/ or https:\/\//],
    [{ name: "ok", transport: "http", url: "file:///etc/passwd" }, "/url", /http:\/\/ or https:\/\//],
  ] as const) {
    const res = await json("POST", "/api/servers", body);
    expect(res.status, field).toBe(400);
    expect(res.body.error?.kind).toBe("bad_request");
    expect(res.body.error?.details?.map((d) => d.path)).toEqual([field]);
    expect(res.body.error?.message).toMatch(limit);
  }
  const patch = await json("PATCH", `/api/servers/${"b".repeat(100)}`, { enabled: false });
  expect(patch.status).toBe(400);
  expect(patch.body.error?.message).toMatch(/at most 64 characters/);
  expect(await trace()).toEqual(before);
});
