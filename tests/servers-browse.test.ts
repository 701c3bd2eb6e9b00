// Browsing an MCP server's resources, templates and prompts: the example server (stdio, with the
// conformance fixtures) started by the test, a real audit chain on PostgreSQL. No mocks.
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AuditLog } from "@/lib/audit";
import { McpDirectory } from "@/lib/mcp/directory";
import { McpManager } from "@/lib/mcp/source";
import { completeServerArgument, getServerPrompt, listServerPrompts, listServerResources, liveConnection, toPromptMessages } from "@/lib/servers/browse";
import { ResourceFollows, type ResourceUpdate } from "@/lib/servers/follow";
import { readServerResource } from "@/lib/servers/resources";
import { httpFailure } from "@/tests/helpers/http-error";
import { EXAMPLE_SERVER, eventually, everythingServerPath, REPO_ROOT } from "@/tests/helpers/mcp";
import { createTestDatabase, type TestDatabase } from "./helpers/db";

let db: TestDatabase;
let audit: AuditLog;
const MALFORMED_SERVER = path.join(REPO_ROOT, "tests/fixtures/malformed-lists-server.mjs");
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
    { name: "malformed", transport: "stdio", command: process.execPath, args: [MALFORMED_SERVER], env: {}, enabled: true },
    { name: "off", transport: "stdio", command: process.execPath, args: [EXAMPLE_SERVER], env: {}, enabled: false },
    { name: "everything", transport: "stdio", command: process.execPath, args: [everythingServerPath(), "stdio"], env: {}, enabled: true },
  ]);
  await mcp.connection("everything")!.waitFor((s) => s.state === "connected", 30_000);
  await mcp.connection("conf")!.waitFor((s) => s.state === "connected", 20_000);
  await mcp.connection("plain")!.waitFor((s) => s.state === "connected", 20_000);
  await mcp.connection("broken")!.waitFor((s) => s.state === "failed", 20_000);
  await mcp.connection("malformed")!.waitFor((s) => s.state === "connected", 20_000);
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
    expect(r.templates).toEqual([
      { uriTemplate: "test://template/{id}/data", name: "template-data", description: "Data of the item {id}.", mimeType: "application/json" },
    ]);
    expect(r).toMatchObject({ truncated: false, dropped: 0 });
  });

  it("a server without resources/templates/list has no templates", async () => {
    const r = await listServerResources(mcp, "plain");
    expect(r.resources.map((x) => x.uri)).toEqual(["example://notes/changelog.md", "example://images/tiny.png"]);
    expect(r.templates).toEqual([]);
  });

  it("answers 404 for an unknown server, 503 with the reason for one that is down or disabled", async () => {
    expect(await failure(listServerResources(mcp, "nope"))).toMatchObject({ status: 404, message: 'No MCP server named "nope".' });
    expect(await failure(listServerResources(mcp, "broken"))).toMatchObject({
      status: 503,
      kind: "unavailable",
      message: expect.stringContaining('MCP server "broken" is failed: '),
    });
    expect(await failure(listServerResources(mcp, "off"))).toMatchObject({ status: 503, message: expect.stringContaining("disabled") });
    expect(await failure(() => liveConnection(mcp, "broken"))).toMatchObject({ status: 503 });
  });

  it("answers 503 on an instance that leaves connections to the workers", async () => {
    const directory = new McpDirectory(db.prisma, {
      servers: () => [{ name: "conf", transport: "stdio", command: "node", args: [], env: {}, enabled: true }],
      notifier: null,
    });
    expect(await failure(listServerPrompts(directory, "conf"))).toMatchObject({
      status: 503,
      message: expect.stringContaining("leaves MCP connections to the workers"),
    });
  });
});

describe("listServerPrompts and getServerPrompt", () => {
  it("lists prompts with their declared arguments", async () => {
    const { prompts } = await listServerPrompts(mcp, "conf");
    expect(prompts.map((p) => p.name)).toEqual([
      "test_simple_prompt",
      "test_prompt_with_arguments",
      "test_prompt_with_embedded_resource",
      "test_prompt_with_image",
    ]);
    expect(prompts[1]).toEqual({
      name: "test_prompt_with_arguments",
      description: "A prompt with two arguments.",
      arguments: [
        { name: "arg1", description: "First test argument", required: true },
        { name: "arg2", description: "Second test argument", required: true },
      ],
    });
  });

  it("keeps a server's well-formed list entries and counts the rest as dropped, and refuses a malformed completion", async () => {
    const r = await listServerResources(mcp, "malformed");
    expect(r).toMatchObject({ resources: [{ uri: "good://one", name: "one" }], templates: [{ uriTemplate: "good://{id}", name: "by id" }], dropped: 5 });
    expect(await listServerPrompts(mcp, "malformed")).toMatchObject({ prompts: [{ name: "fine" }], dropped: 2 });
    expect(
      await failure(completeServerArgument(mcp, "malformed", { ref: { type: "ref/prompt" as const, name: "fine" }, argument: { name: "a", value: "" } })),
    ).toMatchObject({
      status: 502,
      message: 'MCP server "malformed" returned a malformed completion/complete result (no completion.values array).',
    });
  });

  it("answers 404 with a message for a server that declares no prompts", async () => {
    expect(await failure(listServerPrompts(mcp, "plain"))).toMatchObject({
      status: 404,
      message: expect.stringContaining("did not declare the prompts capability"),
    });
    expect(await failure(getServerPrompt({ mcp, audit }, "plain", "x", {}, who))).toMatchObject({
      status: 404,
      message: 'MCP server "plain" offers no prompts (it did not declare the prompts capability).',
    });
  });

  it("gets a prompt with arguments and audits who got which prompt, without the values", async () => {
    const r = await getServerPrompt({ mcp, audit }, "conf", "test_prompt_with_arguments", { arg1: "paris", arg2: "red" }, who);
    expect(r.messages).toEqual([{ role: "user", content: { type: "text", text: "Prompt with arguments: arg1='paris', arg2='red'" } }]);
    const [entry] = (await audit.list({ action: "prompt.get", limit: 1 })).entries;
    expect(entry).toMatchObject({
      actor: who.actor,
      target: "conf test_prompt_with_arguments",
      detail: { userId: "u-ana", outcome: "got", arguments: ["arg1", "arg2"], messages: 1 },
    });
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
    const out = toPromptMessages(
      {
        messages: [
          { role: "system", content: { type: "text", text: "x" } },
          { role: "user", content: { type: "video" } },
          { role: "assistant", content: { type: "text", text: "ok" } },
          7,
        ],
      },
      "s",
    );
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
    expect(prompts.find((p) => p.name === "args-prompt")).toMatchObject({
      title: "Arguments Prompt",
      arguments: [{ name: "city", required: true }, { name: "state" }],
    });
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

describe("completeServerArgument (completion/complete)", () => {
  const prompt = (name: string) => ({ type: "ref/prompt" as const, name });

  it("the example server (2026-07-28) completes a prompt argument by prefix", async () => {
    expect(await completeServerArgument(mcp, "conf", { ref: prompt("test_prompt_with_arguments"), argument: { name: "arg1", value: "par" } })).toEqual({
      server: "conf",
      values: ["paris", "park", "party"],
      total: 3,
      hasMore: false,
    });
    expect(
      (await completeServerArgument(mcp, "conf", { ref: prompt("test_prompt_with_arguments"), argument: { name: "arg1", value: "park" } })).values,
    ).toEqual(["park"]);
  });

  it("server-everything: a prompt argument narrowed by the arguments already filled in (context.arguments)", async () => {
    const ref = prompt("completable-prompt");
    expect((await completeServerArgument(mcp, "everything", { ref, argument: { name: "department", value: "S" } })).values).toEqual(["Sales", "Support"]);
    expect((await completeServerArgument(mcp, "everything", { ref, argument: { name: "name", value: "" } })).values).toEqual([]);
    expect(
      (await completeServerArgument(mcp, "everything", { ref, argument: { name: "name", value: "" }, context: { department: "Engineering" } })).values,
    ).toEqual(["Alice", "Bob", "Charlie"]);
    expect((await completeServerArgument(mcp, "everything", { ref, argument: { name: "name", value: "E" }, context: { department: "Sales" } })).values).toEqual(
      ["Eve"],
    );
  });

  it("server-everything: a resource template's variable", async () => {
    const ref = { type: "ref/resource" as const, uri: "demo://resource/dynamic/text/{resourceId}" };
    expect((await completeServerArgument(mcp, "everything", { ref, argument: { name: "resourceId", value: "7" } })).values).toEqual(["7"]);
    expect((await completeServerArgument(mcp, "everything", { ref, argument: { name: "resourceId", value: "x" } })).values).toEqual([]);
  });

  it("404 for a server without completions or unknown, 503 when down, the server's refusal passed on", async () => {
    expect(await failure(completeServerArgument(mcp, "plain", { ref: prompt("x"), argument: { name: "a", value: "" } }))).toMatchObject({
      status: 404,
      message: 'MCP server "plain" offers no completions (it did not declare the completions capability).',
    });
    expect(await failure(completeServerArgument(mcp, "nope", { ref: prompt("x"), argument: { name: "a", value: "" } }))).toMatchObject({ status: 404 });
    expect(await failure(completeServerArgument(mcp, "broken", { ref: prompt("x"), argument: { name: "a", value: "" } }))).toMatchObject({ status: 503 });
    const unknown = await failure(completeServerArgument(mcp, "everything", { ref: prompt("no-such-prompt"), argument: { name: "a", value: "" } }));
    expect(unknown).toMatchObject({ status: 400, message: expect.stringContaining("no-such-prompt") });
  });
});

describe("following a resource (resources/subscribe, notifications/resources/updated)", () => {
  it("server-everything: one upstream subscription however many follow; each follower hears the updates; unsubscribed when the last leaves", async () => {
    const follows = new ResourceFollows(3);
    const { resources } = await listServerResources(mcp, "everything");
    const uri = resources[0].uri;
    const heardA: ResourceUpdate[] = [];
    const heardB: ResourceUpdate[] = [];
    const stopA = await follows.follow(mcp, "everything", uri, (u) => heardA.push(u));
    const stopB = await follows.follow(mcp, "everything", uri, (u) => heardB.push(u));
    expect(follows.subscriptions).toBe(1);
    // server-everything sends updates for its subscribed resources once this tool is on (at once, then every 5 s).
    const toggle = mcp
      .connection("everything")!
      .tools()
      .find((t) => t.spec.name === "everything__toggle-subscriber-updates")!;
    const ctx = { signal: new AbortController().signal, progress: () => {}, runId: "r", actor: "test" };
    expect(JSON.stringify(await toggle.invoke({}, ctx))).toContain("Started simulated resource updated notifications");
    try {
      await eventually(() => heardA.length > 0 && heardB.length > 0, 10_000);
      expect(heardA[0]).toEqual({ server: "everything", uri, at: expect.any(String) });
      stopA();
      stopA(); // twice is once
      const before = heardA.length;
      await eventually(() => heardB.length > 1, 10_000);
      expect(heardA.length).toBe(before);
      expect(follows.subscriptions).toBe(1);
      stopB();
      expect(follows.subscriptions).toBe(0);
    } finally {
      await toggle.invoke({}, ctx);
    }
  }, 30_000);

  it("a 2026-07-28 server (the example server): followed through a subscriptions/listen stream filtered to the URI", async () => {
    const follows = new ResourceFollows();
    const stop = await follows.follow(mcp, "conf", "test://static-text", () => {});
    expect(follows.subscriptions).toBe(1);
    stop();
    expect(follows.subscriptions).toBe(0);
  });

  it("bounded, and refused with the reason: no subscriptions, unknown server, down", async () => {
    const follows = new ResourceFollows(1);
    const stop = await follows.follow(mcp, "everything", "demo://x", () => {});
    expect(await failure(follows.follow(mcp, "everything", "demo://y", () => {}))).toMatchObject({
      status: 503,
      message: expect.stringContaining("at most 1 resources"),
    });
    stop();
    expect(await failure(follows.follow(mcp, "plain", "example://notes/changelog.md", () => {}))).toMatchObject({
      status: 404,
      message: 'MCP server "plain" offers no resource subscriptions (it did not declare resources.subscribe).',
    });
    expect(await failure(follows.follow(mcp, "nope", "x://y", () => {}))).toMatchObject({ status: 404 });
    expect(await failure(follows.follow(mcp, "broken", "x://y", () => {}))).toMatchObject({ status: 503 });
    expect(follows.subscriptions).toBe(0);
  });
});

describe("following across a server's life: other URIs, a reconnect, a replaced entry", () => {
  // A manager of its own that reconnects at once, so the test can kill its server.
  const own = new McpManager({ backoff: { initialMs: 50, maxMs: 200 } });
  const entry = (args: string[] = []) => ({
    name: "ev",
    transport: "stdio" as const,
    command: process.execPath,
    args: [everythingServerPath(), "stdio", ...args],
    env: {},
    enabled: true,
  });
  const ctx = { signal: new AbortController().signal, progress: () => {}, runId: "r", actor: "test" };
  const toggleUpdates = () =>
    own
      .connection("ev")!
      .tools()
      .find((t) => t.spec.name === "ev__toggle-subscriber-updates")!
      .invoke({}, ctx);
  afterAll(() => own.close());

  it("a follower hears only its URI; after the server restarts the studio subscribes again; a replaced entry starts over on its new connection", async () => {
    await own.sync([entry()]);
    await own.connection("ev")!.waitFor((s) => s.state === "connected", 30_000);
    const { resources } = await listServerResources(own, "ev");
    const [uriA, uriB] = [resources[0]!.uri, resources[1]!.uri];
    const logged: string[] = [];
    const follows = new ResourceFollows(5, (m) => logged.push(m));
    const heardA: string[] = [];
    const heardB: string[] = [];
    const stopA = await follows.follow(own, "ev", uriA, (u) => heardA.push(u.uri));
    const stopB = await follows.follow(own, "ev", uriB, (u) => heardB.push(u.uri));
    expect(follows.subscriptions).toBe(2);
    await toggleUpdates();
    await eventually(() => heardA.length > 0 && heardB.length > 0, 10_000);
    expect(new Set(heardA)).toEqual(new Set([uriA]));
    expect(new Set(heardB)).toEqual(new Set([uriB]));

    // The server process dies and comes back: it has forgotten the subscriptions, the studio asks again.
    const connection = own.connection("ev")!;
    process.kill(connection.status().pid!);
    await connection.waitFor((s) => s.state !== "connected", 10_000);
    await connection.waitFor((s) => s.state === "connected", 30_000);
    heardA.length = 0;
    await toggleUpdates(); // a new process: updates are off again
    await eventually(() => heardA.length > 0, 10_000);
    expect(new Set(heardA)).toEqual(new Set([uriA]));

    // The entry changes (a config edit): the same URI followed again starts over on the new connection.
    await own.sync([entry(["--no-such-flag-is-read"])]);
    await own.connection("ev")!.waitFor((s) => s.state === "connected", 30_000);
    expect(own.connection("ev")).not.toBe(connection);
    const stopA2 = await follows.follow(own, "ev", uriA, () => {});
    expect(follows.subscriptions).toBe(2); // uriA on the new connection, uriB still on the old one's entry
    stopA();
    stopA2();
    stopB();
    expect(follows.subscriptions).toBe(0);
    expect(logged.filter((m) => !m.includes("ending the subscription"))).toEqual([]);

    // The server dies while the subscription is being taken: the follow fails with the reason and leaves nothing behind.
    // Stopped first, so it cannot answer before it dies (on a busy machine it sometimes did).
    const dying = own.connection("ev")!;
    process.kill(dying.status().pid!, "SIGSTOP");
    const pending = follows.follow(own, "ev", uriA, () => {});
    await new Promise((r) => setTimeout(r, 100));
    process.kill(dying.status().pid!, "SIGKILL");
    const err = await failure(pending);
    expect(err.status).toBeGreaterThanOrEqual(500);
    expect(follows.subscriptions).toBe(0);
  }, 90_000);
});
