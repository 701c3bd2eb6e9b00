import { ChildProcess } from "node:child_process";
import { subscribe } from "node:diagnostics_channel";
import type { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { guardStdout } from "./stdio-guard";

/**
 * The process of a stdio MCP server: its pid while it runs and how it ended, learned through
 * public APIs only. The SDK's StdioClientTransport offers `pid` (while it runs) and `stderr`, but
 * not how the process ended; so:
 *  - Node's built-in "child_process" diagnostics channel announces every ChildProcess as it is
 *    created (documented in node:diagnostics_channel, Node >= 16.18);
 *  - the transport pipes the child's stderr into the `stderr` stream it hands out (stderr: "pipe"),
 *    and that stream emits Node's "pipe" event with the child's stderr as its source — at once,
 *    still inside `start()`, when `transport.pid` is known too;
 *  - the announced child whose stderr is that source (or whose pid is the transport's) is ours, and
 *    its "exit" event says how it ended.
 * The SDK instance is neither patched nor read beyond its public surface. Should either step stop
 * matching (another Node runtime, another SDK), `pid` falls back to `transport.pid` and `exit` stays
 * unknown: messages then say "the connection was closed" without the exit code.
 *
 * Once adopted, the child's stdout is guarded (stdio-guard.ts): a message over the result limit
 * fails its own call instead of closing the connection.
 */

export interface ProcessExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** "exited with code 1" / "was killed by SIGTERM". */
export const describeExit = (exit: ProcessExit): string => (exit.signal ? `was killed by ${exit.signal}` : `exited with code ${exit.code}`);

/** Child processes created in this turn of the event loop (none are kept longer, and none are listened to). */
const justCreated = new Set<ChildProcess>();
let listening = false;

function listenForChildren(): void {
  if (listening) return;
  listening = true;
  subscribe("child_process", (message: unknown) => {
    const child = typeof message === "object" && message !== null && "process" in message ? message.process : undefined;
    if (!(child instanceof ChildProcess)) return;
    justCreated.add(child);
    setImmediate(() => justCreated.delete(child));
  });
}

/** Watches the process a StdioClientTransport starts; create it before the transport is started. */
export class StdioServerProcess {
  private readonly transport: StdioClientTransport;
  private child?: ChildProcess;
  private ended?: ProcessExit;

  constructor(
    transport: StdioClientTransport,
    private readonly guard?: { maxMessageBytes: number; onDropped?: (info: { id: string | number | null; bytes: number }) => void },
  ) {
    this.transport = transport;
    listenForChildren();
    transport.stderr?.once("pipe", (source: unknown) => this.adopt(source));
  }

  /** The server's pid while it runs. */
  get pid(): number | undefined {
    if (this.child) return this.ended ? undefined : this.child.pid;
    return this.transport.pid ?? undefined;
  }

  /** How the process ended, once it has (and if that could be learned). */
  get exit(): ProcessExit | undefined {
    return this.ended;
  }

  /** "exited with code 1" / "was killed by SIGTERM", once the process ended. */
  get exitDescription(): string | undefined {
    return this.ended ? describeExit(this.ended) : undefined;
  }

  private adopt(source: unknown): void {
    const pid = this.transport.pid;
    let child: ChildProcess | undefined;
    for (const c of justCreated) if (c.stderr === source) child = c;
    if (!child && pid !== null) for (const c of justCreated) if (c.pid === pid) child = c;
    if (!child) return;
    this.child = child;
    if (this.guard && child.stdout) guardStdout(child.stdout, this.guard.maxMessageBytes, this.guard.onDropped);
    if (child.exitCode !== null || child.signalCode !== null) this.ended = { code: child.exitCode, signal: child.signalCode };
    else child.once("exit", (code, signal) => (this.ended = { code, signal }));
  }
}
