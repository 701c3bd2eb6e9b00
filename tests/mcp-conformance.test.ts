import { statusOf } from "@/lib/errors/errors";
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { passDoor } from "@/lib/auth/door";
import { authSecret, Identity } from "@/lib/auth/identity";
import { guardConfigFromEnv } from "@/lib/http/guard";
import { McpManager } from "@/lib/mcp/source";
import { closeMcpEndpoint, handleMcpRequest, type McpStudio } from "@/lib/mcp-server/server";
import { createTestDatabase, type TestDatabase } from "./helpers/db";
import { EXAMPLE_SERVER, REPO_ROOT } from "./helpers/mcp";
import { serveFetch, type FetchServer } from "./helpers/mcp-http";
import { buildMcpStudio } from "./helpers/mcp-studio";

// The official MCP conformance suite (@modelcontextprotocol/conformance, its server scenarios)
// against the studio's MCP endpoint: a studio (built-in tools plus the repo's example server as a
// configured MCP server) behind the one door (Host and cross-site checks, the caller's token) and
// handleMcpRequest, as app/api/mcp/route.ts serves it, over HTTP. The suite is run by Node 22
// from the `node` package in tools/node22 (it needs fs.globSync; the machine's Node is 20). It cannot send a
// token, so the test's HTTP server adds STUDIO_MCP_TOKEN to each request, as a client would.

const NODE22 = path.join(REPO_ROOT, "tools/node22/node_modules/node/bin/node");
const SUITE = path.join(REPO_ROOT, "node_modules/@modelcontextprotocol/conformance/dist/index.js");
const MCP_TOKEN = "conformance-mcp-token";

/**
 * The scenarios of the capabilities the endpoint declares (tools, logging, prompts, resources,
 * completions) and of the transport: every one the suite runs must pass. The elicitation and
 * sampling scenarios pass through the relay (the example server's fixture tools ask the studio,
 * which relays to the suite's client: lib/mcp-server/server.ts, relayTo), the logging one through
 * the forwarding of a server's log messages to the client that made the call (logsTo).
 */
const MUST_PASS = [
  "server-initialize",
  "ping",
  "logging-set-level",
  "tools-list",
  "tools-call-simple-text",
  "tools-call-image",
  "tools-call-audio",
  "tools-call-embedded-resource",
  "tools-call-mixed-content",
  "tools-call-error",
  "tools-call-with-progress",
  "tools-call-with-logging",
  "tools-call-elicitation",
  "tools-call-sampling",
  "elicitation-sep1034-defaults",
  "elicitation-sep1330-enums",
  "json-schema-2020-12",
  "prompts-list",
  "prompts-get-simple",
  "prompts-get-with-args",
  "prompts-get-embedded-resource",
  "prompts-get-with-image",
  "completion-complete",
  "resources-list",
  "resources-read-text",
  "resources-read-binary",
  "resources-templates-read",
  "resources-subscribe",
  "resources-unsubscribe",
  "server-sse-multiple-streams",
  "server-sse-polling",
  "dns-rebinding-protection",
];

let db: TestDatabase;
let studio: McpStudio;
let manager: McpManager;
let server: FetchServer;

beforeAll(async () => {
  db = await createTestDatabase();
  manager = new McpManager({ clientInfo: { name: "tool-studio", version: "0.1.0" } });
  // The suite calls its fixture tools by their own names: the example server offers them
  // (--conformance) and its entry asks for them un-prefixed.
  await manager.sync([
    { name: "example", transport: "stdio", command: process.execPath, args: [EXAMPLE_SERVER, "--conformance"], env: {}, enabled: true, namespace: false },
  ]);
  studio = buildMcpStudio(db, { sources: [manager.source()], mcp: manager }).studio;
  const identity = new Identity({
    prisma: db.prisma,
    env: { mcpToken: MCP_TOKEN },
    secret: await authSecret(db.prisma, {}),
    baseURL: "http://127.0.0.1",
    trustedOrigins: [],
    oidc: () => null,
  });
  const guard = guardConfigFromEnv({});
  server = await serveFetch(async (request) => {
    const headers = new Headers(request.headers);
    headers.set("authorization", `Bearer ${MCP_TOKEN}`);
    const answer = await passDoor(
      { method: request.method, pathname: new URL(request.url).pathname, headers },
      { guard, identify: (h, c) => identity.identify(h, c) },
    );
    if (!answer.admit) return Response.json({ error: answer.kind, message: answer.message }, { status: statusOf(answer.kind) });
    return handleMcpRequest(request, { studio }, answer.principal ?? undefined);
  });
}, 60_000);

afterAll(async () => {
  if (studio) await closeMcpEndpoint(studio);
  await server?.close();
  await manager?.close();
  await db?.drop();
});

interface Check {
  id: string;
  status: "SUCCESS" | "FAILURE" | "WARNING" | "INFO" | "SKIPPED";
  errorMessage?: string;
}

/** Runs the suite's server scenarios; each scenario's checks, by scenario name. */
async function runSuite(url: URL): Promise<Map<string, Check[]>> {
  const out = mkdtempSync(path.join(os.tmpdir(), "mcp-conformance-"));
  try {
    await new Promise<void>((resolve) => {
      // The suite exits non-zero when a scenario fails: the checks below say which and why.
      execFile(
        NODE22,
        [SUITE, "server", "--url", url.href, "--suite", "all", "-o", out],
        { cwd: REPO_ROOT, timeout: 240_000, maxBuffer: 16 * 1024 * 1024 },
        () => resolve(),
      );
    });
    const results = new Map<string, Check[]>();
    for (const dir of readdirSync(out, { recursive: true, withFileTypes: true })) {
      if (!dir.isFile() || dir.name !== "checks.json") continue;
      const file = path.join(dir.parentPath, dir.name);
      const scenario = path
        .basename(dir.parentPath)
        .replace(/^server-?/, "")
        .replace(/-\d{4}-\d{2}-\d{2}T.*$/, "");
      results.set(scenario, JSON.parse(readFileSync(file, "utf8")) as Check[]);
    }
    return results;
  } finally {
    if (existsSync(out)) rmSync(out, { recursive: true, force: true });
  }
}

it("passes the conformance suite's server scenarios for every capability it declares", async () => {
  expect(existsSync(NODE22), "tools/node22 (Node 22 from npm) is missing: run `npm run test:node22` (npm test does it)").toBe(true);
  await manager.settled(15_000);
  const results = await runSuite(server.url);
  const failures = new Map(
    [...results].map(([name, checks]) => [name, checks.filter((c) => c.status === "FAILURE").map((c) => `${c.id}: ${c.errorMessage ?? ""}`.slice(0, 300))]),
  );
  const passed = [...failures].filter(([, f]) => !f.length).map(([name]) => name);
  console.log(
    `conformance: ${passed.length} of ${results.size} server scenarios pass\n${[...failures].map(([n, f]) => `${f.length ? "FAIL" : "pass"} ${n}${f.length ? `: ${f.join(" | ")}` : ""}`).join("\n")}`,
  );
  expect(results.size).toBeGreaterThanOrEqual(MUST_PASS.length);
  for (const name of MUST_PASS) expect(failures.get(name), `scenario ${name}`).toEqual([]);
}, 300_000);
