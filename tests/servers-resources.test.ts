// Reading a resource through the MCP server that owns it: the example server (stdio) started by
// the test, a real audit chain on PostgreSQL. No mocks.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AuditLog } from "@/lib/audit";
import { toResourceContents, MAX_RESOURCE_CHARS } from "@/lib/mcp/mapping";
import { McpDirectory } from "@/lib/mcp/directory";
import { McpManager } from "@/lib/mcp/source";
import { readServerResource } from "@/lib/servers/resources";
import { ToolError } from "@/lib/tools/errors";
import { httpFailure } from "@/tests/helpers/http-error";
import { EXAMPLE_SERVER } from "@/tests/helpers/mcp";
import { createTestDatabase, type TestDatabase } from "./helpers/db";

let db: TestDatabase;
let audit: AuditLog;
const mcp = new McpManager();
const who = { actor: "ana@example.com", userId: "u-ana", from: "local" };

const failure = httpFailure;

beforeAll(async () => {
  db = await createTestDatabase();
  audit = new AuditLog(db.prisma);
  await mcp.sync([{ name: "ex", transport: "stdio", command: process.execPath, args: [EXAMPLE_SERVER], env: {}, enabled: true }]);
  await mcp.connection("ex")!.waitFor((s) => s.state === "connected", 20_000);
});
afterAll(async () => {
  await mcp.close();
  await db?.drop();
});

describe("readServerResource", () => {
  it("reads through the owning server and audits who read what", async () => {
    const { contents } = await readServerResource({ mcp, audit }, "ex", "example://notes/changelog.md", who);
    expect(contents).toEqual([{ uri: "example://notes/changelog.md", mimeType: "text/markdown", text: expect.stringContaining("first release") }]);
    const [entry] = (await audit.list({ action: "resource.read", limit: 1 })).entries;
    expect(entry).toMatchObject({
      actor: who.actor,
      action: "resource.read",
      target: "ex example://notes/changelog.md",
      detail: { userId: "u-ana", outcome: "read", contents: 1 },
    });
  });

  it("answers 404 for a resource the server does not have, and audits the failed read", async () => {
    const e = await failure(readServerResource({ mcp, audit }, "ex", "example://nowhere", who));
    expect(e).toMatchObject({ status: 404, kind: "not_found", message: expect.stringContaining("Resource not found") });
    const [entry] = (await audit.list({ action: "resource.read", limit: 1 })).entries;
    expect(entry).toMatchObject({ target: "ex example://nowhere", detail: { outcome: "failed", kind: "not_found" } });
  });

  it("answers 404 for a server that is not connected, and reads nothing", async () => {
    const e = await failure(readServerResource({ mcp, audit }, "nope", "example://notes/changelog.md", who));
    expect(e).toMatchObject({ status: 404, kind: "not_found", message: 'No connected MCP server named "nope".' });
  });

  it("answers 503 on an instance that leaves connections to the workers, saying where to read", async () => {
    const directory = new McpDirectory(db.prisma, { servers: () => [], notifier: null });
    const e = await failure(readServerResource({ mcp: directory, audit }, "ex", "example://notes/changelog.md", who));
    expect(e).toMatchObject({ status: 503, kind: "unavailable", message: expect.stringContaining("leaves MCP connections to the workers") });
  });
});

describe("toResourceContents", () => {
  it("keeps uri, mimeType and text or blob; drops everything else", () => {
    expect(
      toResourceContents(
        {
          contents: [
            { uri: "a://1", text: "x", extra: 1 },
            { uri: "a://2", mimeType: "image/png", blob: "AA==", mimeType2: 3 },
          ],
        },
        "s",
      ),
    ).toEqual([
      { uri: "a://1", text: "x" },
      { uri: "a://2", mimeType: "image/png", blob: "AA==" },
    ]);
  });

  it("refuses malformed answers with a provider error that says what is wrong", () => {
    const bad = (v: unknown) => {
      try {
        toResourceContents(v, "s");
      } catch (err) {
        expect(err).toBeInstanceOf(ToolError);
        return (err as ToolError).message;
      }
      throw new Error("accepted");
    };
    expect(bad(null)).toMatch(/no contents array/);
    expect(bad({ contents: [{ text: "x" }] })).toMatch(/contents\[0\] has no uri/);
    expect(bad({ contents: [{ uri: "a://", mimeType: "text/plain" }] })).toMatch(/contents\[0\] has neither text nor blob/);
    expect(bad({ contents: [{ uri: "a://", blob: "A".repeat(MAX_RESOURCE_CHARS + 1) }] })).toMatch(/larger than 16 MB/);
  });
});

describe("McpManager.settled", () => {
  it("resolves once every server has connected or failed, so a fresh worker knows its MCP tools", async () => {
    const fresh = new McpManager();
    try {
      await fresh.sync([
        { name: "ex2", transport: "stdio", command: process.execPath, args: [EXAMPLE_SERVER], env: {}, enabled: true },
        { name: "broken", transport: "stdio", command: "/nonexistent/mcp-server", args: [], env: {}, enabled: true },
      ]);
      await fresh.settled(20_000);
      expect(fresh.state("ex2")?.state).toBe("connected");
      expect(fresh.state("broken")?.state).toBe("failed");
      expect(fresh.tools().some((t) => t.spec.name.startsWith("ex2"))).toBe(true);
    } finally {
      await fresh.close();
    }
  });
});
