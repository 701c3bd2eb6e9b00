import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { Client, ProtocolError, StreamableHTTPClientTransport, type ClientCapabilities } from "@modelcontextprotocol/client";
import type { Principal } from "@/lib/auth/principal";
import { MCP_METHODS } from "@/lib/auth/routes";
import { FORBIDDEN_CODE, methodRefusal } from "@/lib/mcp-server/access";
import { closeMcpEndpoint, handleMcpRequest, type McpStudio } from "@/lib/mcp-server/server";
import { McpManager } from "@/lib/mcp/source";
import type { Role } from "@/lib/auth/roles";
import { createTestDatabase, type TestDatabase } from "./helpers/db";
import { everythingServerPath } from "./helpers/mcp";
import { buildMcpStudio } from "./helpers/mcp-studio";

// /api/mcp checks a role per JSON-RPC method (issue 37 item 1): a viewer lists, but reading a
// resource, getting a prompt, completing and subscribing contact the server on the caller's
// behalf and need runner, as the REST routes doing the same do. The real server-everything over
// stdio behind a real McpManager, real v2 clients of both protocol eras, the audit log on PostgreSQL.

const URL_ = new URL("http://127.0.0.1:3000/api/mcp");
let db: TestDatabase;
let manager: McpManager;
let studio: McpStudio;

const person = (role: Role): Principal => ({
  via: "token",
  role,
  userId: null,
  actor: `${role}@example.com`,
  name: role,
  tokenId: `tok-${role}`,
  tokenName: role,
});

beforeAll(async () => {
  db = await createTestDatabase();
  manager = new McpManager({ clientInfo: { name: "tool-studio", version: "0.1.0" } });
  await manager.sync([{ name: "ev", transport: "stdio", command: process.execPath, args: [everythingServerPath(), "stdio"], env: {}, enabled: true }]);
  await manager.settled(30_000);
  studio = buildMcpStudio(db, { sources: [manager.source()], mcp: manager }).studio;
}, 60_000);
afterEach(async () => {
  await closeMcpEndpoint(studio);
});
afterAll(async () => {
  await manager?.close();
  await db?.drop();
});

async function connect(era: "modern" | "legacy", who: Principal, capabilities?: ClientCapabilities): Promise<Client> {
  const client = new Client(
    { name: `access-${era}`, version: "1.0.0" },
    { ...(era === "modern" ? { versionNegotiation: { mode: { pin: "2026-07-28" } } } : {}), ...(capabilities ? { capabilities } : {}) },
  );
  const transport = new StreamableHTTPClientTransport(URL_, { fetch: (url, init) => handleMcpRequest(new Request(url, init), { studio }, who) });
  await client.connect(transport);
  return client;
}

/** The JSON-RPC error a call was refused with (fails the test when it was not refused). */
async function refusal(call: Promise<unknown>): Promise<ProtocolError> {
  const err = await call.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err, "the call was answered, not refused").toBeInstanceOf(ProtocolError);
  return err as ProtocolError;
}

describe.each(["modern", "legacy"] as const)("/api/mcp per method, %s era", (era) => {
  it("a viewer lists tools, prompts and resources, but reading a resource, getting a prompt and completing are refused naming the runner role, and audited", async () => {
    const viewer = await connect(era, person("viewer"));
    try {
      expect((await viewer.listTools()).tools.length).toBeGreaterThan(5);
      const { prompts } = await viewer.listPrompts();
      const { resources } = await viewer.listResources();
      expect(prompts.length).toBeGreaterThan(0);
      expect(resources.length).toBeGreaterThan(0);
      const uri = resources[0]!.uri;

      const read = await refusal(viewer.readResource({ uri }));
      expect(read.code).toBe(FORBIDDEN_CODE);
      expect(read.message).toContain("resources/read needs the runner role");
      expect(read.data).toMatchObject({ kind: "forbidden", method: "resources/read", need: "runner", role: "viewer" });

      const simple = prompts.find((p) => !p.arguments?.some((a) => a.required)) ?? prompts[0]!;
      expect((await refusal(viewer.getPrompt({ name: simple.name, arguments: {} }))).code).toBe(FORBIDDEN_CODE);
      const withArgs = prompts.find((p) => p.arguments?.length);
      if (withArgs) {
        const complete = viewer.complete({ ref: { type: "ref/prompt", name: withArgs.name }, argument: { name: withArgs.arguments![0]!.name, value: "" } });
        expect((await refusal(complete)).code).toBe(FORBIDDEN_CODE);
      }
      if (era === "legacy") expect((await refusal(viewer.subscribeResource({ uri }))).code).toBe(FORBIDDEN_CODE);

      const entries = await db.prisma.auditEntry.findMany({ where: { action: "mcp.refused", target: "resources/read" } });
      const mine = entries.filter((e) => JSON.stringify(e.detail).includes(uri) && e.actor === "viewer@example.com");
      expect(mine.length).toBeGreaterThan(0);
      expect(mine.at(-1)!.detail).toMatchObject({ need: "runner", role: "viewer", resource: uri, tokenId: "tok-viewer" });
    } finally {
      await viewer.close();
    }
  });

  it("a runner reads the same resource and gets the prompt", async () => {
    const runner = await connect(era, person("runner"));
    try {
      const { resources } = await runner.listResources();
      const read = await runner.readResource({ uri: resources[0]!.uri });
      expect(read.contents.length).toBeGreaterThan(0);
      const { prompts } = await runner.listPrompts();
      const simple = prompts.find((p) => !p.arguments?.some((a) => a.required))!;
      expect((await runner.getPrompt({ name: simple.name, arguments: {} })).messages.length).toBeGreaterThan(0);
    } finally {
      await runner.close();
    }
  });

  it("a viewer's tools/call is refused by the run policy and captured as a rejected run (permission_denied)", async () => {
    const viewer = await connect(era, person("viewer"));
    try {
      const echo = (await viewer.listTools()).tools.find((t) => t.name.endsWith("echo"))!.name;
      const result = await viewer.callTool({ name: echo, arguments: { message: "hi" } });
      expect(result.isError).toBe(true);
      expect(JSON.stringify(result.content)).toContain("needs the runner role");
      const run = await db.prisma.run.findFirst({ where: { toolName: echo, actor: "viewer@example.com" }, orderBy: { startedAt: "desc" } });
      expect(run).toMatchObject({ status: "rejected", errorKind: "permission_denied", origin: "mcp" });
    } finally {
      await viewer.close();
    }
  });
});

describe.each(["modern", "legacy"] as const)("a destructive tool through /api/mcp, %s era (confirmed as on REST, through elicitation)", (era) => {
  // clear_outbox: a built-in marked destructiveHint; its runs are what the test inspects.
  const lastRun = () => db.prisma.run.findFirst({ where: { toolName: "clear_outbox", actor: "runner@example.com" }, orderBy: { startedAt: "desc" } });

  it("runs once the client's user confirms; the question names the tool and its arguments", async () => {
    const client = await connect(era, person("runner"), { elicitation: { form: {} } });
    const asked: { message?: string; requestedSchema?: unknown }[] = [];
    client.setRequestHandler("elicitation/create", async (request) => {
      asked.push(request.params as (typeof asked)[number]);
      return { action: "accept", content: { confirm: true } };
    });
    try {
      const result = await client.callTool({ name: "clear_outbox", arguments: {} });
      expect(result.isError ?? false).toBe(false);
      expect(asked).toHaveLength(1);
      expect(asked[0]!.message).toContain("Run clear_outbox? It is marked destructive");
      expect(asked[0]!.requestedSchema).toMatchObject({ required: ["confirm"] });
      expect(await lastRun()).toMatchObject({ status: "success", origin: "mcp" });
    } finally {
      await client.close();
    }
  });

  it("a decline, or an accept without confirm: true, refuses it as a captured rejected run with the reason", async () => {
    for (const answer of [{ action: "decline" as const }, { action: "accept" as const, content: {} }]) {
      const client = await connect(era, person("runner"), { elicitation: { form: {} } });
      client.setRequestHandler("elicitation/create", async () => answer);
      try {
        const result = await client.callTool({ name: "clear_outbox", arguments: {} });
        expect(result.isError, JSON.stringify(answer)).toBe(true);
        expect(JSON.stringify(result.content), JSON.stringify(result.content)).toContain("did not confirm it");
        expect(await lastRun()).toMatchObject({ status: "rejected", errorKind: "invalid_args" });
      } finally {
        await client.close();
      }
    }
  });

  it("a client without elicitation cannot confirm: refused, saying how to confirm", async () => {
    const client = await connect(era, person("runner"));
    try {
      const result = await client.callTool({ name: "clear_outbox", arguments: {} });
      expect(result.isError).toBe(true);
      expect(JSON.stringify(result.content)).toContain("declare the elicitation capability");
      expect(await lastRun()).toMatchObject({ status: "rejected", errorKind: "invalid_args" });
    } finally {
      await client.close();
    }
  });
});

describe.each(["modern", "legacy"] as const)("an idempotency key in tools/call's _meta, %s era", (era) => {
  it("a retried call with the same key gets the first run back (dev.toolstudio/idempotentReplay) and runs once; a bad key is refused", async () => {
    const client = await connect(era, person("runner"));
    const key = `mcp-key-${era}-${Date.now()}`;
    try {
      const call = () => client.callTool({ name: "add", arguments: { a: 20, b: 22 }, _meta: { "dev.toolstudio/idempotencyKey": key } });
      const first = await call();
      const again = await call();
      expect(first._meta?.["dev.toolstudio/runId"]).toBeDefined();
      expect(again._meta?.["dev.toolstudio/runId"]).toBe(first._meta?.["dev.toolstudio/runId"]);
      expect(again._meta?.["dev.toolstudio/idempotentReplay"]).toBe(true);
      expect(first._meta?.["dev.toolstudio/idempotentReplay"]).toBeUndefined();
      expect(await db.prisma.run.count({ where: { idempotencyKey: key } })).toBe(1);
      const bad = await refusal(client.callTool({ name: "add", arguments: { a: 1, b: 1 }, _meta: { "dev.toolstudio/idempotencyKey": "has space" } }));
      expect(bad.message).toContain("visible ASCII");
    } finally {
      await client.close();
    }
  });
});

describe("the method table", () => {
  it("refuses every declared method below its role, lets it through at or above, and refuses a method nobody declared", () => {
    for (const [method, need] of Object.entries(MCP_METHODS)) {
      for (const role of ["viewer", "runner", "admin"] as const) {
        const refused = methodRefusal(method, { role, actor: "x" });
        const allowed = method === "tools/call" || role === "admin" || role === need || need === "viewer";
        expect(refused === null, `${method} as ${role}`).toBe(allowed);
      }
    }
    const unknown = methodRefusal("acme/export", { role: "admin", actor: "x" });
    expect(unknown?.code).toBe(FORBIDDEN_CODE);
    expect(unknown?.data).toMatchObject({ need: null });
  });
});
