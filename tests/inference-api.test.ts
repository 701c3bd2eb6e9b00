import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { InferredShapes } from "@/lib/inference/store";
import { validate } from "@/lib/schema/validate";
import type { Studio } from "@/lib/studio/studio";
import { createTestDatabase, type TestDatabase } from "./helpers/db";
import { setEnv } from "./helpers/env";

// The whole path as the app wires it: getStudio() (the "inference" observer in executeTool's
// deps), GET /api/tools/{name}/inferred-schema, and the InferredShape component on its answer.

let db: TestDatabase;
let dir: string;
let studio: Studio;
type Handler = (req: Request, ctx: { params: Promise<{ name: string }> }) => Promise<Response>;
let GET: Handler;
let DOWNLOAD: Handler;
let ADOPT: Handler;
// A runtime tool whose output holds a map (its `h` argument), to download and adopt.
const CONFIG = `{
  // a comment that the adopt edit keeps
  "tools": [
    {
      "name": "echo_headers",
      "description": "returns a status and the headers it was given",
      "inputSchema": { "type": "object", "properties": { "h": { "type": "object" } }, "required": ["h"] },
      "expression": "{ 'status': 200, 'headers': h }"
    }
  ]
}
`;
let restoreEnv: (() => void) | undefined;
// Through the door, as scripts do: the admin token in the Authorization header.
const ADMIN_TOKEN = "inference-api-test-admin-token";

beforeAll(async () => {
  db = await createTestDatabase();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "inference-api-"));
  fs.writeFileSync(path.join(dir, "studio.jsonc"), CONFIG);
  restoreEnv = setEnv({ DATABASE_URL: db.url, STUDIO_CONFIG: path.join(dir, "studio.jsonc"), STUDIO_ADMIN_TOKEN: ADMIN_TOKEN });
  studio = await (await import("@/lib/studio/studio")).getStudio();
  ({ GET } = await import("@/app/api/tools/[name]/inferred-schema/route"));
  ({ GET: DOWNLOAD } = await import("@/app/api/tools/[name]/inferred-schema/download/route"));
  ({ POST: ADOPT } = await import("@/app/api/tools/[name]/inferred-schema/adopt/route"));
});

afterAll(async () => {
  await (await import("@/lib/db/client")).closeDb();
  restoreEnv?.();
  await db?.drop();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function inferred(name: string): Promise<{ status: number; body: InferredShapes & { error?: unknown } }> {
  const req = new Request(`http://127.0.0.1/api/tools/${encodeURIComponent(name)}/inferred-schema`, {
    headers: { host: "127.0.0.1:3000", authorization: `Bearer ${ADMIN_TOKEN}` },
  });
  const res = await GET(req, { params: Promise.resolve({ name }) });
  return { status: res.status, body: await res.json() };
}

const base = { origin: "api" as const, actor: "tester" };

describe("the page shows maps, limits and the shape history", () => {
  it("renders a map, a truncation and revisions", async () => {
    const { shapesOf } = await import("@/lib/inference/queries");
    const { statsOf } = await import("@/lib/inference/stats");
    const name = (i: number) => "f" + i.toString(26).replace(/[0-9]/g, (d) => "qrstuvwxyz"[Number(d)]);
    const wide = Object.fromEntries(Array.from({ length: 520 }, (_, i) => [name(i), i]));
    const samples = Array.from({ length: 6 }, (_, i) => ({
      byId: { [`r${i}a`]: i, [`r${i}b`]: i, ...Object.fromEntries(Array.from({ length: 40 }, (_, j) => [`id${i}_${j}`, j])) },
      wide,
    }));
    const stats = statsOf(samples);
    const shapes: InferredShapes = {
      ...shapesOf([{ kind: "output", samples: stats.samples, stats, updatedAt: new Date() }], {}),
      revisions: [
        {
          toolName: "t",
          kind: "output",
          revision: 2,
          runId: "0b7e3f4c-1d2a-4b5c-8d9e-0f1a2b3c4d5e",
          samples: 6,
          createdAt: new Date().toISOString(),
          changes: [{ path: "/n", change: "type", from: ["integer"], to: ["string"] }],
        },
        { toolName: "t", kind: "output", revision: 1, runId: null, samples: 1, createdAt: new Date().toISOString(), changes: [] },
      ],
    };
    expect(shapes.output?.truncated).toEqual([expect.objectContaining({ path: "/wide", reason: "keys" })]);
    const html = renderToStaticMarkup(createElement((await import("@/components/inference/InferredShape")).InferredShape, { toolName: "t", shapes }));
    expect(html).toContain("{any other key}");
    expect(html).toContain(">map<");
    expect(html).toContain("/ object");
    expect(html).toContain("A limit was hit");
    expect(html).toContain("key limit");
    expect(html).toContain("revision 2");
    expect(html).toContain("/n type integer → string");
    expect(html).toContain("rebuilt from history");
  });
});

describe("GET /api/tools/{name}/inferred-schema", () => {
  it("404 for an unknown tool; nulls before the first run", async () => {
    expect((await inferred("no_such_tool")).status).toBe(404);
    const { status, body } = await inferred("describe_tool");
    expect(status).toBe(200);
    expect(body).toEqual({ output: null, arguments: null, revisions: [] });
  });

  it("infers a tool without outputSchema from runs made through the studio", async () => {
    const names = (await studio.registry.list()).map((t) => t.name).filter((n) => n !== "describe_tool");
    const runs = await Promise.all(
      Array.from({ length: 32 }, (_, i) => studio.execute({ ...base, tool: "describe_tool", arguments: { tool: names[i % names.length] } })),
    );
    expect(runs.every((r) => r.status === "success")).toBe(true);
    await studio.shapes.flush();

    const { body } = await inferred("describe_tool");
    expect(body.output?.samples).toBe(32);
    expect(body.arguments?.samples).toBe(32);
    expect(body.declared).toBeUndefined();
    expect(body.output?.schema).toMatchObject({
      $schema: "https://json-schema.org/draft/2020-12/schema",
      type: "object",
      required: expect.arrayContaining(["name", "inputSchema", "source"]),
    });
    for (const r of runs) expect(validate(body.output!.schema, r.output?.structuredContent).valid).toBe(true);
    expect(body.output?.fields.find((f) => f.path === "/name")).toMatchObject({ presence: 1, required: true, types: [{ type: "string", count: 32 }] });
    // the arguments are compared with the inputSchema
    expect(body.arguments?.differences).toEqual([]);
    expect(body.output?.truncated).toEqual([]);
    // the first shape is revision 1 (later ones if a batch changed it), each audited
    const revs = body.revisions ?? [];
    expect(revs.map((r) => r.revision)).toEqual(Array.from({ length: revs.length }, (_, i) => revs.length - i));
    const audited = await studio.audit.list({ action: "shape.change", target: "describe_tool" });
    expect(audited.entries.map((e) => (e.detail as { revision: number }).revision).sort()).toEqual(revs.map((r) => r.revision).sort());

    const html = renderToStaticMarkup(
      createElement((await import("@/components/inference/InferredShape")).InferredShape, { toolName: "describe_tool", shapes: body }),
    );
    expect(html).toContain("Observed in 32 runs");
    expect(html).toContain("Inferred JSON Schema");
    expect(html).toContain("inputSchema");
  });

  it("compares a tool with an outputSchema and lists violating runs", async () => {
    await Promise.all(Array.from({ length: 32 }, (_, i) => studio.execute({ ...base, tool: "add", arguments: { a: i, b: 1 } })));
    await studio.execute({ ...base, tool: "add", arguments: { a: "x" } }); // rejected: not sampled
    await studio.shapes.flush();
    const { body } = await inferred("add");
    expect(body.output?.samples).toBe(32);
    expect(body.arguments?.samples).toBe(32);
    const spec = (await studio.registry.get("add"))!.spec;
    expect(body.declared).toEqual(spec.outputSchema);
    expect(body.differences).toEqual([]);
    expect(body.violations).toEqual([]);

    // a violation as a misbehaving tool would leave it: the run is listed with its errors
    const run = await studio.execute({ ...base, tool: "add", arguments: { a: 2, b: 2 } });
    await db.prisma.run.update({ where: { id: run.id }, data: { outputValid: false, outputErrors: [{ path: "/sum", message: "<b>must be integer</b>" }] } });
    const again = (await inferred("add")).body;
    expect(again.violations).toEqual([{ id: run.id, startedAt: run.startedAt, outputErrors: [{ path: "/sum", message: "<b>must be integer</b>" }] }]);

    const { InferredShape } = await import("@/components/inference/InferredShape");
    const html = renderToStaticMarkup(createElement(InferredShape, { toolName: "add", shapes: again }));
    expect(html).toContain(`href="/runs/${run.id}"`);
    expect(html).toContain("&lt;b&gt;must be integer&lt;/b&gt;"); // escaped, never markup
    expect(html).not.toContain("<b>must");
    expect(html).toContain("matches the declared outputSchema");
  });
});

describe("using the shape: downloads and adopt", () => {
  const call = (handler: Handler, name: string, query = "", method = "GET") =>
    handler(
      new Request(`http://127.0.0.1/api/tools/${encodeURIComponent(name)}/inferred-schema/${handler === ADOPT ? "adopt" : "download"}${query}`, {
        method,
        headers: { host: "127.0.0.1:3000", origin: "http://127.0.0.1:3000", authorization: `Bearer ${ADMIN_TOKEN}` },
      }),
      { params: Promise.resolve({ name }) },
    );

  it("downloads JSON Schema, TypeScript and zod; adopts the shape of a runtime tool as its outputSchema", async () => {
    expect((await call(DOWNLOAD, "echo_headers", "?format=json")).status).toBe(404); // nothing observed yet
    const runs = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        studio.execute({ ...base, tool: "echo_headers", arguments: { h: { "content-type": "text/plain", [`req-${i}`]: `v${i}`, [`trace-${i * 7}`]: "t" } } }),
      ),
    );
    expect(runs.every((r) => r.status === "success")).toBe(true);
    await studio.shapes.flush();

    const json = await call(DOWNLOAD, "echo_headers", "?format=json");
    expect(json.headers.get("content-disposition")).toBe('attachment; filename="echo_headers.output.schema.json"');
    const schema = await json.json();
    expect(schema).toMatchObject({
      title: "EchoHeadersOutput",
      properties: { headers: { properties: { "content-type": { type: "string" } }, additionalProperties: { type: "string" } } },
    });

    const ts = await call(DOWNLOAD, "echo_headers", "?format=typescript");
    expect(ts.headers.get("content-disposition")).toContain("echo_headers.output.d.ts");
    const tsText = await ts.text();
    expect(tsText).toContain("export interface EchoHeadersOutput");
    expect(tsText).toMatch(/\[k: string\]: string/);

    const zod = await (await call(DOWNLOAD, "echo_headers", "?format=zod")).text();
    expect(zod).toContain("export const echoHeadersOutput = z.object(");
    expect(zod).toContain(".catchall(z.string())");

    const args = await (await call(DOWNLOAD, "echo_headers", "?format=json&part=arguments")).json();
    expect(args.title).toBe("EchoHeadersArguments");
    expect((await call(DOWNLOAD, "echo_headers", "?format=yaml")).status).toBe(400);
    expect((await call(DOWNLOAD, "echo_headers", "?part=nope")).status).toBe(400);
    expect((await call(DOWNLOAD, "no_such_tool")).status).toBe(404);

    // adopt: a config change, audited, after which the tool declares the observed shape
    expect((await call(ADOPT, "describe_tool", "", "POST")).status).toBe(409); // built-in: not in the config
    expect((await call(ADOPT, "no_such_tool", "", "POST")).status).toBe(404);
    const adopted = await call(ADOPT, "echo_headers", "", "POST");
    expect(adopted.status).toBe(200);
    const text = fs.readFileSync(process.env.STUDIO_CONFIG!, "utf8");
    expect(text).toContain("// a comment that the adopt edit keeps");
    expect(text).toContain('"outputSchema"');
    const tool = await studio.registry.get("echo_headers");
    expect(tool?.spec.outputSchema).toMatchObject({ type: "object", properties: { headers: { additionalProperties: { type: "string" } } } });
    const entries = (await studio.audit.list({ target: "echo_headers" })).entries.map((e) => e.action);
    expect(entries).toContain("tool.adopt-output-schema");
    expect((await studio.audit.list({ action: "config.change" })).entries.length).toBeGreaterThan(0);
    // now compared with its declaration: nothing differs, and new runs validate against it
    const { body } = await inferred("echo_headers");
    expect(body.differences).toEqual([]);
    const next = await studio.execute({ ...base, tool: "echo_headers", arguments: { h: { "content-type": "text/plain", "req-999": "new" } } });
    expect(next.status).toBe("success");
    expect(next.outputValid).not.toBe(false);
    await studio.shapes.flush(); // written before the database goes away
  });
});
