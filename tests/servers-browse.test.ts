// Browsing an MCP server's resources, templates and prompts: the example server (stdio, with the
// conformance fixtures) started by the test, a real audit chain on PostgreSQL. No mocks.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AuditLog } from "@/lib/audit";
import { McpDirectory } from "@/lib/mcp/directory";
import { McpManager } from "@/lib/mcp/source";
import { getServerPrompt, listServerPrompts, listServerResources, liveConnection, toPromptMessages } from "@/lib/servers/browse";
import { readServerResource } from "@/lib/servers/resources";
import { httpFailure } from "@/tests/helpers/http-error";
import { EXAMPLE_SERVER, everythingServerPath } from "@/tests/helpers/mcp";
import { createTestDatabase, type TestDatabase } from "./helpers/db";

let db: TestDatabase;
let audit: AuditLog;
const mcp = new McpManager({ backoff: { initialMs: 60_000, maxMs: 60_000 } });
const who = { actor: "ana@example.com", userId: "u-ana", from: "local" };

const failure = httpFailure;

beforeAll(async () => {
  db = await createTestDatabase();
  audit = new AuditLog(db.prisma);
  await mcp.sync([
    { name: "conf", transport: "stdio", command: process.execPath, args: [EXAMPLE_SERVER, "--conformance"], env: {}, enabled: true },
    { name: "plain", transport: "stdio", command: process.execPath, args: [EXAMPLE_SERVER], env: {}, enabled: true },
    { name: "broken", transport: "stdio", command: process.execPath, args: ["-e", "process.exit(3)"], env: {}, enabled: true },
    { name: "off", transport: "stdio", command: process.execPath, args: [EXAMPLE_SERVER], env: {}, enabled: false },
    { name: "everything", transport: "stdio", command: process.execPath, args: [everythingServerPath(), "stdio"], env: {}, enabled: true },
  ]);
  await mcp.connection("everything")!.waitFor((s) => s.state === "connected", 30_000);
  await mcp.connection("conf")!.waitFor((s) => s.state === "connected", 20_000);
  await mcp.connection("plain")!.waitFor((s) => s.state === "connected", 20_000);
  await mcp.connection("broken")!.waitFor((s) => s.state === "failed", 20_000);
}, 60_000);
afterAll(async () => {
  await mcp.close();
  await db?.drop();
});

describe("listServerResources", () => {
  it("lists resources and templates, shape-checked", async () => {
    const r = await listServerResources(mcp, "conf");
    expect(r.resources).toContainEqual({ uri: "test://static-text", name: "static-text", mimeType: "text/plain" });
    expect(r.resources).toContainEqual({ uri: "example://images/tiny.png", name: "tiny.png", mimeType: "image/png" });
    expect(r.templates).toEqual([{ uriTemplate: "test://template/{id}/data", name: "template-data", description: "Data of the item {id}.", mimeType: "application/json" }]);
    expect(r).toMatchObject({ truncated: false, dropped: 0 });
  });

  it("a server without resources/templates/list has no templates", async () => {
    const r = await listServerResources(mcp, "plain");
    expect(r.resources.map((x) => x.uri)).toEqual(["example://notes/changelog.md", "example://images/tiny.png"]);
    expect(r.templates).toEqual([]);
  });

  it("answers 404 for an unknown server, 503 with the reason for one that is down or disabled", async () => {
    expect(await failure(listServerResources(mcp, "nope"))).toMatchObject({ status: 404, message: 'No MCP server named "nope".' });
    expect(await failure(listServerResources(mcp, "broken"))).toMatchObject({ status: 503, kind: "unavailable", message: expect.stringContaining('MCP server "broken" is failed: ') });
    expect(await failure(listServerResources(mcp, "off"))).toMatchObject({ status: 503, message: expect.stringContaining("disabled") });
    expect(await failure(() => liveConnection(mcp, "broken"))).toMatchObject({ status: 503 });
  });

  it("answers 409 on an instance that leaves connections to the workers", async () => {
    const directory = new McpDirectory(db.prisma, { servers: () => [{ name: "conf", transport: "stdio", command: "node", args: [], env: {}, enabled: true }], notifier: null });
    expect(await failure(listServerPrompts(directory, "conf"))).toMatchObject({ status: 409, message: expect.stringContaining("leaves MCP connections to the workers") });
  });
});

describe("listServerPrompts and getServerPrompt", () => {
  it("lists prompts with their declared arguments", async () => {
    const { prompts } = await listServerPrompts(mcp, "conf");
    expect(prompts.map((p) => p.name)).toEqual(["test_simple_prompt", "test_prompt_with_arguments", "test_prompt_with_embedded_resource", "test_prompt_with_image"]);
    expect(prompts[1]).toEqual({
      name: "test_prompt_with_arguments",
      description: "A prompt with two arguments.",
      arguments: [
        { name: "arg1", description: "First test argument", required: true },
        { name: "arg2", description: "Second test argument", required: true },
      ],
    });
  });

  it("answers 404 with a message for a server that declares no prompts", async () => {
    expect(await failure(listServerPrompts(mcp, "plain"))).toMatchObject({ status: 404, message: expect.stringContaining("did not declare the prompts capability") });
  });

  it("gets a prompt with arguments and audits who got which prompt, without the values", async () => {
    const r = await getServerPrompt({ mcp, audit }, "conf", "test_prompt_with_arguments", { arg1: "paris", arg2: "red" }, who);
    expect(r.messages).toEqual([{ role: "user", content: { type: "text", text: "Prompt with arguments: arg1='paris', arg2='red'" } }]);
    const [entry] = (await audit.list({ action: "prompt.get", limit: 1 })).entries;
    expect(entry).toMatchObject({ actor: who.actor, target: "conf test_prompt_with_arguments", detail: { userId: "u-ana", outcome: "got", arguments: ["arg1", "arg2"], messages: 1 } });
    expect(JSON.stringify(entry)).not.toContain("paris");
  });

  it("passes images and embedded resources on", async () => {
    const img = await getServerPrompt({ mcp, audit }, "conf", "test_prompt_with_image", {}, who);
    expect(img.messages[0]!.content).toMatchObject({ type: "image", mimeType: "image/png" });
    const emb = await getServerPrompt({ mcp, audit }, "conf", "test_prompt_with_embedded_resource", { resourceUri: "test://x" }, who);
    expect(emb.messages[0]!.content).toMatchObject({ type: "resource", resource: { uri: "test://x", text: "Embedded resource content for testing." } });
  });

  it("passes the server's error on (400 for an unknown prompt) and audits the failure", async () => {
    const e = await failure(getServerPrompt({ mcp, audit }, "conf", "no_such_prompt", {}, who));
    expect(e).toMatchObject({ status: 400, message: expect.stringContaining("Unknown prompt: no_such_prompt") });
    const [entry] = (await audit.list({ action: "prompt.get", limit: 1 })).entries;
    expect(entry).toMatchObject({ target: "conf no_such_prompt", detail: { outcome: "failed", kind: "invalid_args" } });
  });

  it("leaves out messages of unknown roles or content kinds", () => {
    const out = toPromptMessages({ messages: [{ role: "system", content: { type: "text", text: "x" } }, { role: "user", content: { type: "video" } }, { role: "assistant", content: { type: "text", text: "ok" } }, 7] }, "s");
    expect(out).toEqual({ messages: [{ role: "assistant", content: { type: "text", text: "ok" } }], dropped: 3 });
    expect(() => toPromptMessages({}, "s")).toThrow(/no messages array/);
  });
});

describe("reading through a template", () => {
  it("reads an expanded template URI and audits the read", async () => {
    const { contents } = await readServerResource({ mcp, audit }, "conf", "test://template/42/data", who);
    expect(JSON.parse((contents[0] as { text: string }).text)).toMatchObject({ id: "42", templateTest: true });
    const [entry] = (await audit.list({ action: "resource.read", limit: 1 })).entries;
    expect(entry).toMatchObject({ target: "conf test://template/42/data", detail: { outcome: "read" } });
  });
});

describe("server-everything (SDK v1, protocol 2025-11-25)", () => {
  it("lists its resources, templates and prompts with optional arguments", async () => {
    const r = await listServerResources(mcp, "everything");
    expect(r.resources.length).toBeGreaterThanOrEqual(5);
    expect(r.templates.map((t) => t.uriTemplate)).toEqual(["demo://resource/dynamic/text/{resourceId}", "demo://resource/dynamic/blob/{resourceId}"]);
    const { prompts } = await listServerPrompts(mcp, "everything");
    expect(prompts.find((p) => p.name === "args-prompt")).toMatchObject({ title: "Arguments Prompt", arguments: [{ name: "city", required: true }, { name: "state" }] });
  });

  it("reads a template's blob and gets prompts without their optional arguments and with an embedded resource", async () => {
    const { contents } = await readServerResource({ mcp, audit }, "everything", "demo://resource/dynamic/blob/3", who);
    expect(contents[0]).toMatchObject({ uri: "demo://resource/dynamic/blob/3", blob: expect.any(String) });
    const city = await getServerPrompt({ mcp, audit }, "everything", "args-prompt", { city: "Lyon" }, who);
    expect(JSON.stringify(city.messages)).toContain("Lyon");
    const res = await getServerPrompt({ mcp, audit }, "everything", "resource-prompt", { resourceType: "Text", resourceId: "2" }, who);
    expect(res.messages.some((m) => m.content.type === "resource")).toBe(true);
  });
});
