import type { Readable } from "node:stream";

/**
 * The largest message the studio takes from an MCP server (STUDIO_MCP_MAX_RESULT_BYTES, default
 * 8 MiB): a result over it is refused with `result_too_large`, and the connection lives on.
 */
export function maxResultBytes(env: Record<string, string | undefined> = process.env): number {
  const v = Number(env.STUDIO_MCP_MAX_RESULT_BYTES);
  return Number.isInteger(v) && v >= 1024 ? v : 8 * 1024 * 1024;
}

/** What an oversized message is answered with, in place of the server's (lib/mcp/errors.ts reads it). */
export const TOO_LARGE_MARK = "studio.result_too_large";

/**
 * Keeps oversized lines of a stdio server's stdout from the SDK. Its reader holds a line until the
 * newline, and past its buffer size (10 MiB) it closes the transport, so one big result killed the
 * connection and every call in flight on it. Here a line over `limit` bytes is not passed on:
 * what the SDK already holds of it is ended with a newline (a line that is no JSON, which its
 * reader skips), the rest is dropped as it comes, and when the line ends the request it answered
 * (its id, read from the line's first or last bytes) gets a JSON-RPC error instead, so that call
 * fails alone with `result_too_large`.
 *
 * It sits between the child's stdout and the SDK's own `data` listeners (taken off the stream
 * and called from here, in order). Should the SDK read stdout another way, there are no listeners
 * to take: nothing is changed and the SDK's own limit applies. Returns whether it is in place.
 */
export function guardStdout(stdout: Readable, limit: number, onDropped?: (info: { id: string | number | null; bytes: number }) => void): boolean {
  const listeners = stdout.listeners("data") as ((chunk: Buffer) => void)[];
  if (!listeners.length) return false;
  stdout.removeAllListeners("data");
  const forward = (chunk: Buffer) => {
    for (const l of listeners) l.call(stdout, chunk);
  };
  const lines = new LineGuard(limit, forward, onDropped);
  stdout.on("data", (chunk: Buffer | string) => lines.push(typeof chunk === "string" ? Buffer.from(chunk) : chunk));
  return true;
}

const EDGE = 512;
const NEWLINE = Buffer.from("\n");

/** The line splitting of guardStdout, apart from the stream (tested on its own). */
export class LineGuard {
  /** Bytes of the current line so far. */
  private size = 0;
  private dropping = false;
  /** The first and (while dropping) the last bytes of the current line, where its id is. */
  private head = Buffer.alloc(0);
  private tail = Buffer.alloc(0);

  constructor(
    private readonly limit: number,
    private readonly forward: (chunk: Buffer) => void,
    private readonly onDropped?: (info: { id: string | number | null; bytes: number }) => void,
  ) {}

  push(chunk: Buffer): void {
    // The common case in one piece: nothing dropped, no line over the limit.
    const last = chunk.lastIndexOf(10);
    if (this.fits(chunk, last)) {
      this.note(chunk, last);
      this.forward(chunk);
      return;
    }
    let start = 0;
    while (start < chunk.length) {
      const nl = chunk.indexOf(10, start);
      const end = nl === -1 ? chunk.length : nl;
      const part = chunk.subarray(start, end);
      if (!this.dropping && this.size + part.length > this.limit) {
        this.dropping = true;
        // Ends what the SDK holds of the line; the line itself never reaches it.
        if (this.size > 0) this.forward(NEWLINE);
      }
      this.keepEdges(part);
      this.size += part.length;
      if (!this.dropping) this.forward(nl === -1 ? part : chunk.subarray(start, end + 1));
      if (nl === -1) break;
      if (this.dropping) this.dropped();
      this.size = 0;
      this.head = Buffer.alloc(0);
      this.tail = Buffer.alloc(0);
      start = nl + 1;
    }
  }

  private fits(chunk: Buffer, last: number): boolean {
    if (this.dropping) return false;
    if (last === -1) return this.size + chunk.length <= this.limit;
    return this.size + chunk.indexOf(10) <= this.limit && chunk.length - last - 1 <= this.limit && !this.spansLong(chunk);
  }

  /** Whether a chunk with several newlines holds a whole line over the limit between them (rare: checked only for huge chunks). */
  private spansLong(chunk: Buffer): boolean {
    if (chunk.length <= this.limit) return false;
    let prev = chunk.indexOf(10);
    for (let nl = chunk.indexOf(10, prev + 1); nl !== -1; nl = chunk.indexOf(10, prev + 1)) {
      if (nl - prev - 1 > this.limit) return true;
      prev = nl;
    }
    return false;
  }

  /** The fast path's bookkeeping: the size and head of the line the chunk leaves open. */
  private note(chunk: Buffer, last: number): void {
    if (last === -1) {
      this.keepEdges(chunk);
      this.size += chunk.length;
      return;
    }
    const rest = chunk.subarray(last + 1);
    this.size = rest.length;
    this.head = Buffer.from(rest.subarray(0, EDGE));
  }

  private keepEdges(part: Buffer): void {
    if (this.head.length < EDGE) this.head = Buffer.concat([this.head, part.subarray(0, EDGE - this.head.length)]);
    if (this.dropping) this.tail = Buffer.concat([this.tail, part.subarray(Math.max(0, part.length - EDGE))]).subarray(-EDGE);
  }

  private dropped(): void {
    this.dropping = false;
    const bytes = this.size;
    const id = messageId(this.head.toString("utf8"), this.tail.toString("utf8"));
    this.onDropped?.({ id, bytes });
    if (id === null) return;
    const error = {
      code: -32603,
      message: `The server's answer is ${bytes} bytes, over the studio's limit of ${this.limit} (STUDIO_MCP_MAX_RESULT_BYTES).`,
      data: { [TOO_LARGE_MARK]: { bytes, limit: this.limit } },
    };
    this.forward(Buffer.from(`${JSON.stringify({ jsonrpc: "2.0", id, error })}\n`));
  }
}

const ID = String.raw`"id"\s*:\s*(-?\d{1,16}|"(?:[^"\\]|\\.){0,200}")`;
/** `{"jsonrpc":"2.0","id":3,…` or `{"id":3,…` at the start, `…,"id":3}` at the very end (a nested id would end in `}}`). */
const HEAD_ID = new RegExp(String.raw`^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?${ID}`);
const TAIL_ID = new RegExp(String.raw`,\s*${ID}\s*\}\s*$`);

/** The id of a JSON-RPC message from its first and last bytes, or null. */
export function messageId(head: string, tail: string): string | number | null {
  const m = HEAD_ID.exec(head) ?? TAIL_ID.exec(tail.replace(/\r$/, ""));
  if (!m) return null;
  try {
    return JSON.parse(m[1]!) as string | number;
  } catch {
    return null;
  }
}
