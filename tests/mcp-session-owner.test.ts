import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Principal } from "@/lib/auth/principal";
import { closeMcpEndpoint, handleMcpRequest, type McpStudio } from "@/lib/mcp-server/server";
import { createTestDatabase, type TestDatabase } from "./helpers/db";
import { buildMcpStudio } from "./helpers/mcp-studio";

// A 2025-era session of /api/mcp belongs to the caller that opened it (issue 37, item 6): a leaked
// Mcp-Session-Id lets nobody else replay its events (a call's result and arguments, through
// Last-Event-ID), post into it, open its stream or end it. They get 404, as for no session.

const URL_ = "http://127.0.0.1:3000/api/mcp";
const V = "2025-11-25";

const person = (userId: string, role: Principal["role"] = "runner", tokenId: string | null = null): Principal => ({
  via: tokenId ? "token" : "session",
  role,
  userId,
  actor: `${userId}@example.com`,
  name: userId,
  tokenId,
  tokenName: tokenId ? "ci" : null,
});
const rita = person("rita");
const ritaToken = person("rita", "runner", "tok-rita");
const mallory = person("mallory", "admin");
const envToken: Principal = {
  via: "mcp-token",
  role: "runner",
  userId: null,
  actor: "token:STUDIO_MCP_TOKEN",
  name: "MCP token",
  tokenId: null,
  tokenName: "STUDIO_MCP_TOKEN",
};

let db: TestDatabase;
let studio: McpStudio;

beforeAll(async () => {
  db = await createTestDatabase();
  ({ studio } = buildMcpStudio(db));
});
afterAll(async () => {
  if (studio) await closeMcpEndpoint(studio);
  await db?.drop();
});

const headers = (session?: string, extra: Record<string, string> = {}) => ({
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
  "mcp-protocol-version": V,
  ...(session ? { "mcp-session-id": session } : {}),
  ...extra,
});
const post = (who: Principal, body: unknown, session?: string) =>
  handleMcpRequest(new Request(URL_, { method: "POST", headers: headers(session), body: JSON.stringify(body) }), { studio }, who);
const get = (who: Principal, session: string, lastEventId?: string) =>
  handleMcpRequest(new Request(URL_, { method: "GET", headers: headers(session, lastEventId ? { "last-event-id": lastEventId } : {}) }), { studio }, who);
const del = (who: Principal, session: string) => handleMcpRequest(new Request(URL_, { method: "DELETE", headers: headers(session) }), { studio }, who);

async function open(who: Principal): Promise<string> {
  const init = await post(who, {
    jsonrpc: "2.0",
    id: 0,
    method: "initialize",
    params: { protocolVersion: V, capabilities: {}, clientInfo: { name: "owner-test", version: "1" } },
  });
  const session = init.headers.get("mcp-session-id");
  expect(session).toBeTruthy();
  await init.body?.cancel();
  expect((await post(who, { jsonrpc: "2.0", method: "notifications/initialized" }, session!)).status).toBe(202);
  return session!;
}

/** The SSE events of a response, read to its end (a call's stream ends with its result). */
async function events(res: Response): Promise<{ id?: string; data?: { id?: number; result?: unknown } }[]> {
  const text = await res.text();
  return text
    .split("\n\n")
    .map((block) => {
      const e: { id?: string; data?: { id?: number; result?: unknown } } = {};
      for (const line of block.split("\n")) {
        if (line.startsWith("id: ")) e.id = line.slice(4);
        else if (line.startsWith("data: ") && line.length > 6) e.data = JSON.parse(line.slice(6));
      }
      return e;
    })
    .filter((e) => e.id !== undefined || e.data !== undefined);
}

/** The first events of a stream, then hang up (a GET stream stays open). */
async function firstEvent(res: Response): Promise<string> {
  const reader = res.body!.getReader();
  let text = "";
  while (!text.includes("\n\n")) {
    const { done, value } = await reader.read();
    if (done) break;
    text += new TextDecoder().decode(value);
  }
  await reader.cancel();
  return text;
}

const notFound = async (res: Promise<Response>) => {
  const r = await res;
  expect(r.status).toBe(404);
  expect(await r.json()).toMatchObject({ error: { code: -32001, message: "Session not found" } });
};

describe("a 2025-era session belongs to who opened it", () => {
  it("another person holding the session id cannot replay a call's result, post, listen or delete; the owner still can", async () => {
    const session = await open(rita);
    const call = await post(rita, { jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "add", arguments: { a: 40, b: 2 } } }, session);
    expect(call.status).toBe(200);
    const sent = await events(call);
    expect(sent.at(-1)!.data).toMatchObject({ id: 7, result: { structuredContent: { sum: 42 } } });
    const priming = sent[0]!.id!;

    // The leak of issue 37: Last-Event-ID after the call's priming event replayed its result.
    await notFound(get(mallory, session, priming));
    await notFound(get(mallory, session));
    await notFound(post(mallory, { jsonrpc: "2.0", id: 8, method: "tools/call", params: { name: "add", arguments: { a: 1, b: 1 } } }, session));
    await notFound(post(mallory, { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 7 } }, session));
    await notFound(del(mallory, session));
    // An environment token is nobody's session either.
    await notFound(get(envToken, session, priming));

    // The session lives on for its owner, with the same person's token too: the replay works and DELETE ends it.
    const replay = await get(ritaToken, session, priming);
    expect(replay.status).toBe(200);
    expect(await firstEvent(replay)).toContain('"sum":42');
    const tools = await post(rita, { jsonrpc: "2.0", id: 9, method: "tools/list" }, session);
    expect(tools.status).toBe(200);
    await tools.body?.cancel();
    expect((await del(rita, session)).status).toBe(200);
    await notFound(post(rita, { jsonrpc: "2.0", id: 10, method: "tools/list" }, session));
  });

  it("each request in a session is served as the caller who sent it: the same person's viewer token cannot call a tool there", async () => {
    // The owner is the person, so their viewer token may use the session; its role is the token's,
    // per request, never the role of whoever opened the session.
    const ritaViewer = person("rita", "viewer", "tok-rita-view");
    const session = await open(rita);
    const refused = await events(
      await post(ritaViewer, { jsonrpc: "2.0", id: 11, method: "tools/call", params: { name: "add", arguments: { a: 1, b: 2 } } }, session),
    );
    // tools/call is decided by the run policy, as on REST: a rejected run, with the viewer's role named.
    expect(refused.at(-1)!.data).toMatchObject({
      id: 11,
      result: { isError: true, _meta: { "dev.toolstudio/runStatus": "rejected", "dev.toolstudio/errorKind": "permission_denied" } },
    });
    expect(JSON.stringify(refused.at(-1)!.data)).toContain("has the viewer role");
    const listed = await events(await post(ritaViewer, { jsonrpc: "2.0", id: 12, method: "tools/list" }, session));
    expect(listed.at(-1)!.data).toMatchObject({ id: 12, result: { tools: expect.any(Array) } });
    const ran = await events(await post(rita, { jsonrpc: "2.0", id: 13, method: "tools/call", params: { name: "add", arguments: { a: 1, b: 2 } } }, session));
    expect(ran.at(-1)!.data).toMatchObject({ id: 13, result: { structuredContent: { sum: 3 } } });
    expect((await del(rita, session)).status).toBe(200);
  });

  it("a session opened with an environment token is that token's: a person cannot use it", async () => {
    const session = await open(envToken);
    await notFound(get(rita, session));
    await notFound(del(rita, session));
    const tools = await post(envToken, { jsonrpc: "2.0", id: 1, method: "tools/list" }, session);
    expect(tools.status).toBe(200);
    await tools.body?.cancel();
    expect((await del(envToken, session)).status).toBe(200);
  });
});
