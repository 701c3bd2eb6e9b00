/**
 * Test helpers: paths of the MCP servers the tests start (all from this repo or node_modules,
 * run with this Node binary: nothing is downloaded at run time), a free port on 127.0.0.1, and a
 * child process that serves Streamable HTTP until stopped.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createRequire } from "node:module";
import net from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
export const REPO_ROOT = path.resolve(here, "../..");
/** examples/mcp-server/server.mjs: stdio by default, `--http <port>` for Streamable HTTP. */
export const EXAMPLE_SERVER = path.join(REPO_ROOT, "examples/mcp-server/server.mjs");

/** The entry of @modelcontextprotocol/server-everything (its `bin`), resolved in node_modules. */
export function everythingServerPath(): string {
  return packageBinPath("@modelcontextprotocol/server-everything");
}

/** The entry (first `bin`) of an npm package installed in node_modules, e.g. an MCP server. */
export function packageBinPath(name: string): string {
  const require = createRequire(path.join(REPO_ROOT, "package.json"));
  const pkgJson = require.resolve(`${name}/package.json`);
  const pkg = require(pkgJson) as { bin: string | Record<string, string> };
  const bin = typeof pkg.bin === "string" ? pkg.bin : Object.values(pkg.bin)[0];
  return path.join(path.dirname(pkgJson), bin);
}

/** A port that was free on 127.0.0.1 a moment ago. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

export interface ServerProcess {
  child: ChildProcess;
  port: number;
  url: string;
  output(): string;
  stop(): Promise<void>;
}

/**
 * Starts `node <args>` and waits until its output matches `ready` (the first group, if any, is
 * the port). Output is kept for failure messages.
 */
export async function startNodeServer(
  args: string[],
  opts: { env?: Record<string, string>; ready: RegExp; port?: number; timeoutMs?: number },
): Promise<ServerProcess> {
  const child = spawn(process.execPath, args, {
    cwd: REPO_ROOT,
    env: { ...process.env, ...opts.env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`server did not start in time: ${args.join(" ")}\n${out}`));
    }, opts.timeoutMs ?? 15_000);
    const onData = (d: Buffer) => {
      out += d.toString();
      const m = opts.ready.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1] ? Number(m[1]) : (opts.port ?? 0));
      }
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", onData);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with code ${code} before it was ready\n${out}`));
    });
  });
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((r) => child.once("exit", () => r()));
    child.kill("SIGTERM");
    const t = setTimeout(() => child.kill("SIGKILL"), 2_000);
    await exited;
    clearTimeout(t);
  };
  return { child, port, url: `http://127.0.0.1:${port}/mcp`, output: () => out, stop };
}

/** The example server over Streamable HTTP (on `port`, or any free one). */
export function startExampleHttpServer(port = 0, extraArgs: string[] = []): Promise<ServerProcess> {
  return startNodeServer([EXAMPLE_SERVER, "--http", String(port), ...extraArgs], { ready: /listening on http:\/\/127\.0\.0\.1:(\d+)\/mcp/ });
}

/** server-everything over Streamable HTTP on `port` (default: a free one) of 127.0.0.1 (its PORT variable). */
export async function startEverythingHttpServer(port?: number): Promise<ServerProcess> {
  port ??= await freePort();
  return startNodeServer([everythingServerPath(), "streamableHttp"], {
    env: { PORT: String(port) },
    port,
    ready: /listening on port \d+/,
  });
}

/** Polls `check` until it returns a truthy value. */
export async function eventually<T>(check: () => T | Promise<T>, timeoutMs = 10_000, everyMs = 50): Promise<NonNullable<T>> {
  const until = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const v = await check();
      if (v) return v as NonNullable<T>;
    } catch (err) {
      last = err;
    }
    if (Date.now() > until) throw new Error(`condition not met within ${timeoutMs} ms${last ? `: ${String(last)}` : ""}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** A raw JSON-RPC POST, as a 2026-07-28 client sends it (headers and `_meta` envelope). */
export function modernRequest(url: URL, method: string, params: Record<string, unknown> = {}, headers: Record<string, string> = {}): Request {
  const body = {
    jsonrpc: "2.0",
    id: 1,
    method,
    params: {
      ...params,
      _meta: {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {},
        "io.modelcontextprotocol/clientInfo": { name: "raw-client", version: "0" },
      },
    },
  };
  return new Request(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": method,
      ...(typeof params.name === "string" ? { "mcp-name": params.name } : {}),
      ...headers,
    },
    body: JSON.stringify(body),
  });
}
