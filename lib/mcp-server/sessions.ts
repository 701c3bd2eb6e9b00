import { randomUUID } from "node:crypto";
import { WebStandardStreamableHTTPServerTransport, type AuthInfo, type LegacyHttpHandler, type Server } from "@modelcontextprotocol/server";
import type { Principal } from "../auth/principal";
import { SessionEventStore } from "./event-store";
import { authInfoOf } from "./caller";

/**
 * Sessions for 2025-era clients (the `initialize` handshake, `Mcp-Session-Id`). The 2026-07-28
 * revision needs none; for older clients a session is what ties `initialize` (the client's name)
 * and `notifications/cancelled` (sent as a separate POST) to the calls they concern.
 *
 * Kept in memory: a session idle for `idleMs` is closed (the client then gets 404 and starts a
 * new one, as the spec says), and beyond `maxSessions` the least recently used one is closed.
 *
 * Streams are resumable (2025-11-25): every SSE event has an id, each stream opens with a priming
 * event carrying `retry` (RESUME_RETRY_MS), and a client that lost a stream gets what it missed
 * by a GET with `Last-Event-ID` (a call's result included: a dropped stream does not end the call).
 *
 * A session belongs to the caller that opened it (sessionOwner): a session id is no credential,
 * so any other caller using it (POST, the GET stream, a Last-Event-ID replay, DELETE) is answered
 * 404 as if it did not exist, and learns nothing of it.
 */

export const DEFAULT_SESSION_IDLE_MS = 30 * 60_000;
export const DEFAULT_MAX_SESSIONS = 500;
/** The `retry` (ms) a client is told to wait before resuming a lost stream. */
export const RESUME_RETRY_MS = 1_000;

export interface LegacySessionOptions {
  idleMs?: number;
  maxSessions?: number;
  maxRequestBodySize?: number;
  onerror?: (error: Error) => void;
  now?: () => number;
}

interface Session {
  id: string;
  /** sessionOwner() of the caller that opened it. */
  owner: string;
  server: Server;
  lastSeen: number;
  transport: WebStandardStreamableHTTPServerTransport;
}

export class LegacySessions {
  private readonly sessions = new Map<string, Session>();
  private sweeper?: ReturnType<typeof setInterval>;
  private readonly idleMs: number;
  private readonly maxSessions: number;
  private readonly now: () => number;

  constructor(
    private readonly factory: () => Server,
    private readonly opts: LegacySessionOptions = {},
  ) {
    this.idleMs = opts.idleMs ?? DEFAULT_SESSION_IDLE_MS;
    this.maxSessions = opts.maxSessions ?? DEFAULT_MAX_SESSIONS;
    this.now = opts.now ?? Date.now;
  }

  get size(): number {
    return this.sessions.size;
  }

  /**
   * Serves one 2025-era request of `caller` (the door's principal; none in tests that build the
   * server directly): in its session, as a new session (initialize), or statelessly. The
   * caller goes to the handlers of this request (lib/mcp-server/caller.ts): a session serves each
   * request as its sender.
   */
  async handle(request: Request, stateless: LegacyHttpHandler, caller?: Principal, body?: { parsedBody: unknown }): Promise<Response> {
    const owner = sessionOwner(caller);
    const options = { ...body, ...(caller ? { authInfo: authInfoOf(caller) } : {}) };
    const id = request.headers.get("mcp-session-id");
    if (id) {
      const session = this.sessions.get(id);
      if (!session || session.owner !== owner) return sessionNotFound();
      session.lastSeen = this.now();
      return session.transport.handleRequest(request, options);
    }
    if (request.method === "POST" && isInitialize(body ? body.parsedBody : await parsedOrUndefined(request))) return this.open(request, owner, options);
    return stateless(request, options);
  }

  /** Tells every session's client that a list changed (delivered on its GET stream, if it has one open). */
  listChanged(kind: "tools" | "prompts" | "resources"): void {
    for (const s of this.sessions.values()) {
      const sent =
        kind === "tools" ? s.server.sendToolListChanged() : kind === "prompts" ? s.server.sendPromptListChanged() : s.server.sendResourceListChanged();
      sent.catch((err: Error) => this.opts.onerror?.(err));
    }
  }

  /** Closes sessions idle for longer than `idleMs`; returns how many. */
  async sweep(): Promise<number> {
    const cutoff = this.now() - this.idleMs;
    const idle = [...this.sessions.values()].filter((s) => s.lastSeen < cutoff);
    await Promise.all(idle.map((s) => this.close(s)));
    return idle.length;
  }

  async closeAll(): Promise<void> {
    await Promise.all([...this.sessions.values()].map((s) => this.close(s)));
    this.stopSweeper();
  }

  private async open(request: Request, owner: string, options: { parsedBody?: unknown; authInfo?: AuthInfo }): Promise<Response> {
    if (this.sessions.size >= this.maxSessions) {
      const oldest = [...this.sessions.values()].sort((a, b) => a.lastSeen - b.lastSeen)[0];
      if (oldest) await this.close(oldest);
    }
    const server = this.factory();
    const transport: WebStandardStreamableHTTPServerTransport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        this.sessions.set(id, { id, owner, server, transport, lastSeen: this.now() });
        this.startSweeper();
      },
      onsessionclosed: (id) => void this.forget(id),
      maxRequestBodySize: this.opts.maxRequestBodySize,
      eventStore: new SessionEventStore(),
      retryInterval: RESUME_RETRY_MS,
    });
    const closed = server.onclose;
    server.onclose = () => {
      closed?.();
      if (transport.sessionId) this.forget(transport.sessionId);
    };
    if (this.opts.onerror) server.onerror = this.opts.onerror;
    await server.connect(transport);
    const response = await transport.handleRequest(request, options);
    // A refused initialize opens no session: nothing to keep.
    if (!transport.sessionId || !this.sessions.has(transport.sessionId)) await server.close().catch(() => {});
    return response;
  }

  private forget(id: string): void {
    this.sessions.delete(id);
    if (!this.sessions.size) this.stopSweeper();
  }

  private async close(session: Session): Promise<void> {
    this.forget(session.id);
    await session.server.close().catch((err: Error) => this.opts.onerror?.(err));
  }

  private startSweeper(): void {
    if (this.sweeper) return;
    this.sweeper = setInterval(
      () => {
        // close errors go to onerror already (see close): this is a last resort
        this.sweep().catch((err) => console.error("[tool-studio] MCP endpoint: sweeping idle sessions failed", err));
      },
      Math.max(1_000, Math.min(60_000, this.idleMs / 2)),
    );
    this.sweeper.unref?.();
  }

  private stopSweeper(): void {
    if (this.sweeper) clearInterval(this.sweeper);
    this.sweeper = undefined;
  }
}

/**
 * Who a session belongs to: the person (their user id, whichever token or cookie they use), else
 * the API token, else the environment token; one owner for callers without a principal.
 */
export function sessionOwner(caller: Principal | undefined): string {
  if (!caller) return "none";
  if (caller.userId) return `user:${caller.userId}`;
  if (caller.tokenId) return `token:${caller.tokenId}`;
  return `env:${caller.via}`;
}

/** The request's body parsed as JSON, read from a clone (the transport reads the request itself); undefined if it is not JSON. */
async function parsedOrUndefined(request: Request): Promise<unknown> {
  try {
    return JSON.parse(await request.clone().text());
  } catch {
    return undefined;
  }
}

/** Whether a POST body is (or, in a batch, contains) an `initialize` request. */
function isInitialize(body: unknown): boolean {
  const messages = Array.isArray(body) ? body : [body];
  return messages.some((m) => typeof m === "object" && m !== null && (m as { method?: unknown }).method === "initialize");
}

function sessionNotFound(): Response {
  return Response.json({ jsonrpc: "2.0", id: null, error: { code: -32001, message: "Session not found" } }, { status: 404 });
}
