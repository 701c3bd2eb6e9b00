// GET /api/tools/{name}/definition and GET /api/tools/definitions (issue 31 item 1) as the app
// wires them: getStudio() with the built-in tools and the fixture as a runtime tool (its
// 100-character dotted name is a valid config name), through the door with the admin token.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BuiltDefinition } from "@/lib/model-view";
import { createTestDatabase, type TestDatabase } from "./helpers/db";
import { setEnv } from "./helpers/env";
import { FIXTURE, FIXTURE_SCHEMA } from "./fixtures/model-view-tool";

let db: TestDatabase;
let dir: string;
let restoreEnv: (() => void) | undefined;
type Handler = (req: Request, ctx: { params: Promise<{ name: string }> }) => Promise<Response>;
let ONE: Handler;
let ALL: (req: Request) => Promise<Response>;
let BUDGET: (req: Request) => Promise<Response>;
let RUN_VIEW: (req: Request, ctx: { params: Promise<{ id: string }> }) => Promise<Response>;
let studio: Awaited<ReturnType<typeof import("@/lib/studio/studio").getStudio>>;
const ADMIN_TOKEN = "model-view-api-test-admin-token";

beforeAll(async () => {
  db = await createTestDatabase();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "model-view-api-"));
  const config = { tools: [{ name: FIXTURE.name, description: FIXTURE.description, inputSchema: FIXTURE_SCHEMA, expression: "query" }] };
  fs.writeFileSync(path.join(dir, "studio.jsonc"), JSON.stringify(config));
  restoreEnv = setEnv({ DATABASE_URL: db.url, STUDIO_CONFIG: path.join(dir, "studio.jsonc"), STUDIO_ADMIN_TOKEN: ADMIN_TOKEN });
  studio = await (await import("@/lib/studio/studio")).getStudio();
  ({ GET: ONE } = await import("@/app/api/tools/[name]/definition/route"));
  ({ GET: ALL } = await import("@/app/api/tools/definitions/route"));
  ({ GET: BUDGET } = await import("@/app/api/tools/budget/route"));
  ({ GET: RUN_VIEW } = await import("@/app/api/runs/[id]/model-view/route"));
});

afterAll(async () => {
  await (await import("@/lib/db/client")).closeDb();
  restoreEnv?.();
  await db?.drop();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

const req = (p: string, token: string | null = ADMIN_TOKEN) =>
  new Request(`http://127.0.0.1${p}`, { headers: { host: "127.0.0.1:3000", ...(token ? { authorization: `Bearer ${token}` } : {}) } });
async function one(name: string, qs: string, token?: string | null) {
  const res = await ONE(req(`/api/tools/${encodeURIComponent(name)}/definition?${qs}`, token), { params: Promise.resolve({ name }) });
  return { status: res.status, body: await res.json() };
}
async function all(qs: string) {
  const res = await ALL(req(`/api/tools/definitions?${qs}`));
  return { status: res.status, body: await res.json() };
}

describe("GET /api/tools/{name}/definition", () => {
  it("answers { for, name, definition, strict, lint, tokens } for a built-in tool", async () => {
    const { status, body } = await one("add", "for=openai-chat&strict=true");
    expect(status).toBe(200);
    expect(Object.keys(body).sort()).toEqual(["definition", "for", "lint", "name", "strict", "tokens"]);
    expect(body).toMatchObject({ for: "openai-chat", name: "add", strict: true, tokens: { tokenizer: "o200k_base", approximate: false } });
    expect(body.definition).toMatchObject({
      type: "function",
      function: { name: "add", strict: true, parameters: { type: "object", additionalProperties: false } },
    });
  });

  it("maps the fixture's dotted name and says why strict mode is off", async () => {
    const { status, body } = (await one(FIXTURE.name, "for=openai-responses&strict=true")) as { status: number; body: BuiltDefinition };
    expect(status).toBe(200);
    expect(body.strict).toBe(false);
    expect(body.strictReason).toContain("/properties/labels");
    expect(body.nameMapping?.name).toBe(FIXTURE.name);
    expect(body.definition.name).toBe(body.nameMapping?.providerName);
    expect(body.lint[0]).toMatchObject({ severity: "rejected", pointer: "#name", keyword: "name" });
  });

  it("refuses a bad `for` with 400 naming the field and the accepted values", async () => {
    const { status, body } = await one("add", "for=gpt-4");
    expect(status).toBe(400);
    expect(body.error.kind).toBe("bad_request");
    expect(body.error.details).toEqual([{ path: "/for", message: 'must be one of mcp, openai-chat, openai-responses, anthropic, gemini, rig (got "gpt-4")' }]);
    expect((await one("add", "")).status).toBe(400);
  });

  it("answers 404 for an unknown tool and 401 without credentials", async () => {
    const { status, body } = await one("no_such_tool", "for=gemini");
    expect(status).toBe(404);
    expect(body.error).toEqual({ kind: "not_found", message: 'No tool named "no_such_tool" is registered.' });
    expect((await one("add", "for=gemini", null)).status).toBe(401);
  });
});

describe("GET /api/tools/definitions", () => {
  it("answers every tool for the target, with a total", async () => {
    const { status, body } = await all("for=anthropic");
    expect(status).toBe(200);
    expect(body.for).toBe("anthropic");
    expect(body.total).toBe(body.items.length);
    const names = body.items.map((d: BuiltDefinition) => d.name);
    expect(names).toContain("add");
    expect(names).toContain(FIXTURE.name);
    for (const d of body.items as BuiltDefinition[]) expect(d.definition.name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
    const fixture = (body.items as BuiltDefinition[]).find((d) => d.name === FIXTURE.name)!;
    expect(body.nameMappings).toEqual([{ name: FIXTURE.name, providerName: fixture.definition.name }]);
  });

  it("narrows by source and by text", async () => {
    const runtime = await all("for=gemini&source=runtime");
    expect(runtime.body.items.map((d: BuiltDefinition) => d.name)).toEqual([FIXTURE.name]);
    const q = await all("for=rig&q=adds%20two");
    expect(q.body.items.map((d: BuiltDefinition) => d.name)).toEqual(["add"]);
    expect(q.body.total).toBe(1);
  });

  it("refuses a bad `for` or an unknown parameter", async () => {
    expect((await all("for=nope")).body.error.details[0].path).toBe("/for");
    expect((await all("for=mcp&limit=3")).body.error.details[0].path).toBe("/limit");
  });

  it("takes the tool list's annotation hints, and refuses one it does not have", async () => {
    const readOnly = await all("for=mcp&hint=read-only&hint=idempotent");
    const names = readOnly.body.items.map((d: BuiltDefinition) => d.name);
    expect(names.length).toBeGreaterThan(0);
    const specs = await studio.registry.specs();
    for (const n of names) expect(specs.find((s) => s.name === n)?.annotations).toMatchObject({ readOnlyHint: true });
    const bad = await all("for=mcp&hint=read-only&hint=harmless");
    expect(bad.status).toBe(400);
    expect(bad.body.error.details[0]).toMatchObject({ path: "/hint/1" });
    expect(bad.body.error.message).toContain("closed world");
  });
});

describe("GET /api/tools/definitions/export", () => {
  it("sends the chosen tools as the target's file, named for it, the same bytes each time", async () => {
    const { GET: EXPORT } = await import("@/app/api/tools/definitions/export/route");
    const res = await EXPORT(req("/api/tools/definitions/export?for=anthropic&strict=true&source=builtin"));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-disposition")).toBe('attachment; filename="anthropic.strict.json"');
    const text = await res.text();
    const file = JSON.parse(text);
    const listed = await all("for=anthropic&strict=true&source=builtin");
    expect(file).toMatchObject({ for: "anthropic", strict: true, filter: { source: "builtin" }, total: listed.body.total });
    expect(file.definitions.map((d: { name: string }) => d.name)).toEqual(listed.body.items.map((d: BuiltDefinition) => d.name).sort());
    expect(await (await EXPORT(req("/api/tools/definitions/export?for=anthropic&strict=true&source=builtin"))).text()).toBe(text);
    // Gemini has no strict mode: the file says so in its name and its flag.
    const gemini = await EXPORT(req("/api/tools/definitions/export?for=gemini&strict=true"));
    expect(gemini.headers.get("content-disposition")).toBe('attachment; filename="gemini.json"');
    expect((await gemini.json()).strict).toBe(false);
    const bad = await EXPORT(req("/api/tools/definitions/export?for=claude"));
    expect(bad.status).toBe(400);
    expect((await EXPORT(req("/api/tools/definitions/export?for=mcp", null))).status).toBe(401);
  });
});

describe("GET /api/tools/budget", () => {
  it("answers the registry's definition tokens per source and per tool, heaviest first, with the provider's limits", async () => {
    const res = await BUDGET(req("/api/tools/budget?for=openai-chat"));
    expect(res.status).toBe(200);
    const body = await res.json();
    const specs = await studio.registry.specs();
    expect(body).toMatchObject({ for: "openai-chat", tools: specs.length, tokenizer: "o200k_base", approximate: false });
    expect(body.byTool).toHaveLength(specs.length);
    const counts = body.byTool.map((t: { tokens: number }) => t.tokens);
    expect(counts).toEqual([...counts].sort((a, b) => b - a));
    expect(body.tokens).toBe(counts.reduce((n: number, c: number) => n + c, 0));
    expect(body.bySource.reduce((n: number, s: { tools: number }) => n + s.tools, 0)).toBe(specs.length);
    expect(body.limits.map((l: { kind: string; count: number }) => [l.kind, l.count])).toEqual([
      ["max", 128],
      ["advice", 20],
    ]);
  });

  it("narrows by source, and refuses a bad `for` naming the field", async () => {
    const body = await (await BUDGET(req("/api/tools/budget?for=gemini&source=builtin"))).json();
    expect(body.tools).toBeGreaterThan(0);
    expect(body.bySource.map((s: { source: string }) => s.source)).toEqual(["builtin"]);
    const bad = await BUDGET(req("/api/tools/budget?for=claude"));
    expect(bad.status).toBe(400);
    expect((await bad.json()).error.details).toEqual([{ path: "/for", message: expect.stringContaining("openai-chat") }]);
  });
});

describe("GET /api/runs/{id}/model-view", () => {
  const view = async (id: string, qs: string) => {
    const res = await RUN_VIEW(req(`/api/runs/${id}/model-view?${qs}`), { params: Promise.resolve({ id }) });
    return { status: res.status, body: await res.json() };
  };

  it("shows a captured run's image result as each provider carries it", async () => {
    const run = await studio.execute({ tool: "chart_png", arguments: { values: [1, 3, 2] }, origin: "api", actor: "test" });
    expect(run.status).toBe("success");
    const chat = await view(run.id, "for=openai-chat");
    expect(chat.status).toBe(200);
    expect(chat.body).toMatchObject({ for: "openai-chat", run: run.id, tool: "chart_png", status: "success", message: { role: "tool" } });
    expect(chat.body.carried.some((c: { what: string; how: string }) => c.what.startsWith("image") && c.how === "dropped")).toBe(true);
    const claude = await view(run.id, "for=anthropic");
    expect(claude.body.message.content.some((c: { type: string }) => c.type === "image")).toBe(true);
  });

  it("shows a failed run's model-visible error, never the operator-only detail", async () => {
    const run = await studio.execute({
      tool: "fail",
      arguments: { kind: "not_found", mode: "crash", message: "secret internals" },
      origin: "api",
      actor: "test",
    });
    expect(run.status).toBe("error");
    for (const target of ["openai-responses", "gemini", "rig"]) {
      const { status, body } = await view(run.id, `for=${target}`);
      expect(status).toBe(200);
      expect(body.modelError).toMatchObject({ kind: "other", operatorDetail: "never sent to a model" });
      expect(JSON.stringify(body)).not.toContain("secret internals");
    }
  });

  it("answers 404 for an unknown run and 400 for a bad `for`", async () => {
    expect((await view("00000000-0000-4000-8000-000000000000", "for=mcp")).status).toBe(404);
    const run = await studio.execute({ tool: "add", arguments: { a: 1, b: 2 }, origin: "api", actor: "test" });
    const bad = await view(run.id, "for=openai");
    expect(bad.status).toBe(400);
    expect(bad.body.error.details[0].path).toBe("/for");
  });
});
