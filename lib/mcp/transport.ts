import { StreamableHTTPClientTransport, type Transport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import type { z } from "zod";
import type { McpServer } from "../config/schema";
import { resolveEnvRecord } from "../config/secrets";
import { StdioServerProcess } from "./process";

/** One `mcpServers` entry of the runtime config (defaults applied). */
export type McpServerConfig = z.output<typeof McpServer>;

export interface ServerTransport {
  transport: Transport;
  /** stdio: the server process (its pid while it runs, how it ended). */
  process?: StdioServerProcess;
}

export interface TransportHooks {
  /** stdio: every chunk the server writes to stderr. */
  onStderr?: (chunk: Buffer | string) => void;
}

/**
 * A fresh transport for one connection attempt to a configured server. `${env:NAME}` references
 * (HTTP headers, stdio env) are resolved on every call; an unset variable throws, so the attempt
 * fails with that message in the server's state (and is retried with backoff).
 */
export function createTransport(cfg: McpServerConfig, hooks: TransportHooks = {}): ServerTransport {
  const where = `/mcpServers/${cfg.name}`;
  if (cfg.transport === "http") {
    const headers = resolveEnvRecord(cfg.headers, `${where}/headers`);
    return { transport: new StreamableHTTPClientTransport(new URL(cfg.url), { requestInit: { headers } }) };
  }
  const env = resolveEnvRecord(cfg.env, `${where}/env`);
  // The Client gets this exact class, neither a subclass nor a wrapper: only for it does the SDK
  // probe the protocol era on a disposable sibling process (a 2025-era server that exits on a
  // pre-initialize request then still gets its own, fresh process for the initialize handshake).
  const transport = new StdioClientTransport({ command: cfg.command, args: cfg.args, env, cwd: cfg.cwd, stderr: "pipe" });
  const onStderr = hooks.onStderr;
  if (onStderr) transport.stderr?.on("data", (chunk: Buffer | string) => onStderr(chunk));
  return { transport, process: new StdioServerProcess(transport) };
}
