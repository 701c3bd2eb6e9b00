// Issue 37, item 6: a stdio server that printed the secret env value the studio gave it showed
// it to everyone who may see its state (viewers included) in `stderrTail`. A real MCP server
// (written here with @modelcontextprotocol/server) prints every value it was given, whole, in
// pieces split across writes, and inside longer lines; the studio keeps none of them.
import { afterAll, describe, expect, it } from "vitest";
import { McpManager } from "@/lib/mcp/source";
import { McpConnection } from "@/lib/mcp/connection";
import { REDACTED, Redactor } from "@/lib/mcp/redact";
import { StderrTail } from "@/lib/mcp/stderr";
import { SECRET_PLACEHOLDER } from "@/lib/config/secrets";
import { serveFetch } from "@/tests/helpers/mcp-http";

const TOKEN = "tok_3f9a1c55d2e84b7a9e0c";
const PASSWORD = "hunter2-correct-horse";
const ARG_SECRET = "argsecret-77c1e0";

// Prints its env and args to stderr (the token in two writes, a split that lands inside it), then serves MCP.
const SERVER = `
import { Server } from "@modelcontextprotocol/server";
import { serveStdio } from "@modelcontextprotocol/server/stdio";
const t = process.env.API_TOKEN;
process.stderr.write("starting with token " + t.slice(0, 7));
setTimeout(() => {
  process.stderr.write(t.slice(7) + " and password=" + process.env.DB_PASSWORD + "\\n");
  process.stderr.write("args: " + process.argv.slice(1).join(" ") + "\\n");
  process.stderr.write("mode " + process.env.MODE + " level " + process.env.LEVEL + "\\n");
  process.stderr.write("unfinished line ends with " + t);
  serveStdio(() => {
    const s = new Server({ name: "leaky", version: "1.0.0" }, { capabilities: { tools: {} } });
    s.setRequestHandler("tools/list", () => ({ tools: [{ name: "noop", inputSchema: { type: "object" } }] }));
    return s;
  });
}, 50);
`;

describe("values the studio passes to a stdio server are redacted from its stderr tail and errors", () => {
  const prev = process.env.STUDIO_TEST_ARG_SECRET;
  process.env.STUDIO_TEST_ARG_SECRET = ARG_SECRET;
  const manager = new McpManager({ backoff: { initialMs: 200, maxMs: 1_000, jitter: 0 }, healthCheckMs: 0 });
  afterAll(async () => {
    await manager.close();
    if (prev === undefined) delete process.env.STUDIO_TEST_ARG_SECRET;
    else process.env.STUDIO_TEST_ARG_SECRET = prev;
  });

  it("env values and what ${env:...} args stood for never reach stderrTail, whatever the server prints", async () => {
    await manager.sync([
      {
        name: "leaky",
        transport: "stdio",
        command: process.execPath,
        args: ["--input-type=module", "-e", SERVER, "--", "--key=${env:STUDIO_TEST_ARG_SECRET}", "--verbose"],
        env: { API_TOKEN: TOKEN, DB_PASSWORD: PASSWORD, MODE: "production", LEVEL: "1" },
        enabled: true,
      },
    ]);
    const conn = manager.connection("leaky")!;
    await conn.connect();
    // The last write is the unfinished line: wait until it has arrived.
    const s = await conn.waitFor((st) => st.stderrTail.some((l) => l.startsWith("unfinished line")), 10_000);
    const tail = s.stderrTail.join("\n");
    expect(tail).toContain(`starting with token ${REDACTED} and password=${REDACTED}`);
    expect(tail).toContain(`--key=${REDACTED} --verbose`);
    expect(tail).toContain(`mode ${REDACTED} level 1`); // values under 4 characters are left: no secret is that short
    expect(tail).toContain(`unfinished line ends with ${REDACTED}`);
    for (const secret of [TOKEN, PASSWORD, ARG_SECRET, "production", TOKEN.slice(7)]) expect(tail).not.toContain(secret);
    // What the Servers page and GET /api/servers show is the manager's state.
    const shown = JSON.stringify(manager.states());
    for (const secret of [TOKEN, PASSWORD, ARG_SECRET]) expect(shown).not.toContain(secret);
  });

  it("a server that dies printing the value: its last words are redacted too", async () => {
    const conn = new McpConnection(
      {
        name: "dies",
        transport: "stdio",
        command: process.execPath,
        args: ["-e", "console.error('bad token ' + process.env.API_TOKEN); process.exit(3)"],
        env: { API_TOKEN: TOKEN },
        enabled: true,
      },
      { backoff: { initialMs: 60_000, maxMs: 60_000, jitter: 0 } },
    );
    afterAll(() => conn.close());
    await expect(conn.connect()).rejects.toThrow();
    const s = conn.status();
    expect(s.stderrTail).toContain(`bad token ${REDACTED}`);
    expect(JSON.stringify(s)).not.toContain(TOKEN);
  });
});

describe("header values the studio sends an HTTP server are redacted from its error", () => {
  it("a server that answers with the credential it was sent shows [redacted] in its state", async () => {
    const server = await serveFetch(async (req) => new Response(`refused: ${req.headers.get("authorization")}`, { status: 400 }), "/mcp");
    const conn = new McpConnection(
      { name: "echo", transport: "http", url: server.url.href, headers: { Authorization: `Bearer ${TOKEN}` }, enabled: true, oauth: false },
      { backoff: { initialMs: 60_000, maxMs: 60_000, jitter: 0 }, healthCheckMs: 0 },
    );
    try {
      await expect(conn.connect()).rejects.toThrow();
      const s = conn.status();
      expect(s.error).toContain(REDACTED);
      expect(JSON.stringify(s)).not.toContain(TOKEN);
    } finally {
      await conn.close();
      await server.close();
    }
  });
});

describe("Redactor and StderrTail", () => {
  it("hides the longest value first, each line of a multi-line value, and a value split across chunks", () => {
    const r = new Redactor();
    r.set(["abcd", "abcdefgh", "line-one\nline-two", "x", SECRET_PLACEHOLDER]);
    expect(r.apply("abcdefgh abcd line-one line-two x")).toBe(`${REDACTED} ${REDACTED} ${REDACTED} ${REDACTED} x`);
    const tail = new StderrTail(10, r);
    tail.write("key=abc");
    tail.write("defgh\nnext ");
    tail.write("abc");
    expect(tail.tail()).toEqual([`key=${REDACTED}`, "next abc"]);
    tail.write("d\n");
    expect(tail.tail()).toEqual([`key=${REDACTED}`, `next ${REDACTED}`]);
  });
});
