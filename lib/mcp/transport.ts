import { StreamableHTTPClientTransport, type FetchLike, type OAuthClientProvider, type Transport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import type { z } from "zod";
import type { McpServer } from "../config/schema";
import { referencedValues, resolveEnvRecord, resolveEnvRefs } from "../config/secrets";
import { nodeFetch } from "./http-fetch";
import { OAuthFetchGuard } from "./oauth/fetch-guard";
import { StdioServerProcess } from "./process";
import { maxResultBytes } from "./stdio-guard";

/** One `mcpServers` entry of the runtime config (defaults applied). */
export type McpServerConfig = z.output<typeof McpServer>;

export interface ServerTransport {
  transport: Transport;
  /** stdio: the server process (its pid while it runs, how it ended). */
  process?: StdioServerProcess;
  /**
   * The values given to the server that must not be shown back (its stderr, its errors): env
   * and header values as resolved, and what `${env:NAME}` references in its args stood for.
   */
  passed: string[];
  /** Streamable HTTP with OAuth: what the attempt's OAuth fetched and refused (lib/mcp/oauth/fetch-guard.ts). */
  oauth?: OAuthFetchGuard;
}

export interface TransportHooks {
  /** stdio: every chunk the server writes to stderr. */
  onStderr?: (chunk: Buffer | string) => void;
  /**
   * Streamable HTTP: a response stream (a call's, or the server's event stream) broke before it
   * ended (the server died, the network dropped). The SDK only logs this and leaves the call
   * waiting for an answer that cannot come; the connection treats it as the server going away.
   */
  onStreamBroken?: (err: unknown) => void;
  /** stdio: a message over the result limit was dropped (its call fails with result_too_large). */
  onDropped?: (info: { id: string | number | null; bytes: number }) => void;
  /** Streamable HTTP: presents the server's OAuth tokens and refreshes them on a 401 (lib/mcp/oauth). */
  authProvider?: OAuthClientProvider;
}

/**
 * A fresh transport for one connection attempt to a configured server. `${env:NAME}` references
 * (HTTP headers, stdio env and args) are resolved on every call; an unset variable throws, so the
 * attempt fails with that message in the server's state (and is retried with backoff).
 */
export function createTransport(cfg: McpServerConfig, hooks: TransportHooks = {}): ServerTransport {
  const where = `/mcpServers/${cfg.name}`;
  if (cfg.transport === "http") {
    const headers = resolveEnvRecord(cfg.headers, `${where}/headers`);
    const onBroken = hooks.onStreamBroken;
    const authProvider = hooks.authProvider;
    // With OAuth, the server's 401 names what the SDK fetches next: only what the guard allows.
    const oauth = authProvider ? new OAuthFetchGuard(cfg.url, nodeFetch(), { serverHeaders: Object.keys(headers) }) : undefined;
    const base = oauth?.fetch ?? nodeFetch();
    return {
      transport: new StreamableHTTPClientTransport(new URL(cfg.url), {
        requestInit: { headers },
        fetch: onBroken ? watchedFetch(onBroken, base) : base,
        ...(authProvider ? { authProvider } : {}),
      }),
      passed: Object.values(headers),
      oauth,
    };
  }
  const env = resolveEnvRecord(cfg.env, `${where}/env`);
  const args = cfg.args.map((a, i) => resolveEnvRefs(a, process.env, `${where}/args/${i}`));
  // The Client gets this exact class, neither a subclass nor a wrapper: only for it does the SDK
  // probe the protocol era on a disposable sibling process (a 2025-era server that exits on a
  // pre-initialize request then still gets its own, fresh process for the initialize handshake).
  // Its read buffer closes the connection past maxBufferSize: above the studio's own limit, which the guard enforces first.
  const limit = maxResultBytes();
  const transport = new StdioClientTransport({ command: cfg.command, args, env, cwd: cfg.cwd, stderr: "pipe", maxBufferSize: limit + 1024 * 1024 });
  const onStderr = hooks.onStderr;
  if (onStderr) transport.stderr?.on("data", (chunk: Buffer | string) => onStderr(chunk));
  return {
    transport,
    process: new StdioServerProcess(transport, { maxMessageBytes: limit, onDropped: hooks.onDropped }),
    passed: [...Object.values(env), ...cfg.args.flatMap((a) => referencedValues(a))],
  };
}

/**
 * `fetch` whose event-stream response bodies are watched: an error while reading one that the
 * request's own signal did not cause (the client closing, a call cancelled) is reported to
 * `onBroken`, then passed on to the reader as it was.
 */
export function watchedFetch(onBroken: (err: unknown) => void, base: FetchLike = fetch): FetchLike {
  return async (url, init) => {
    const res = await base(url, init);
    if (!res.body || !res.headers.get("content-type")?.toLowerCase().includes("text/event-stream")) return res;
    const reader = res.body.getReader();
    const signal = init?.signal;
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        let chunk: ReadableStreamReadResult<Uint8Array>;
        try {
          chunk = await reader.read();
        } catch (err) {
          if (!signal?.aborted) onBroken(err);
          controller.error(err);
          return;
        }
        if (chunk.done) controller.close();
        else controller.enqueue(chunk.value);
      },
      cancel: (reason) => reader.cancel(reason),
    });
    return new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers });
  };
}
