import http from "node:http";
import https from "node:https";
import { Readable } from "node:stream";
import zlib from "node:zlib";
import type { FetchLike } from "@modelcontextprotocol/client";

/**
 * The `fetch` the Streamable HTTP transport uses: node:http with keep-alive agents for the
 * requests it sends (a JSON-RPC body as a string), global fetch for anything else.
 *
 * Why: per proxied call, undici's fetch (WHATWG Request/Response objects, web streams, its wasm
 * parser, an abort listener per request) cost the studio about 0.6 ms of CPU, more than the
 * upstream's own work on a small call (bench/run.ts, item 3). A JSON answer is read whole and
 * handed over as one buffer; an event stream stays a stream.
 *
 * What fetch does that this keeps: redirects (a 3xx is sent again through fetch, which follows
 * it; the server did not act on a request it redirected), compressed bodies (none is asked for;
 * one sent anyway is decoded), abort through `init.signal` (rejects with the signal's reason,
 * as fetch does), a null body for 204/205/304.
 */
export function nodeFetch(fallback: FetchLike = fetch): FetchLike {
  return (url, init) => {
    const target = typeof url === "string" ? new URL(url) : url;
    const body = init?.body;
    if ((target.protocol !== "http:" && target.protocol !== "https:") || (body !== undefined && body !== null && typeof body !== "string")) {
      return fallback(url, init);
    }
    return send(target, init ?? {}, body ?? undefined, fallback);
  };
}

const agents = {
  "http:": new http.Agent({ keepAlive: true }),
  "https:": new https.Agent({ keepAlive: true }),
};

const NULL_BODY = new Set([101, 204, 205, 304]);

function send(target: URL, init: RequestInit, body: string | undefined, fallback: FetchLike): Promise<Response> {
  const signal = init.signal ?? undefined;
  if (signal?.aborted) return Promise.reject(signal.reason);
  const headers: Record<string, string> = {};
  new Headers(init.headers).forEach((v, k) => (headers[k] = v));
  if (body !== undefined) headers["content-length"] = String(Buffer.byteLength(body));
  const secure = target.protocol === "https:";
  return new Promise<Response>((resolve, reject) => {
    let settled = false;
    const fail = (err: unknown) => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener("abort", onAbort);
      reject(err);
    };
    let response: Readable | undefined;
    // As fetch does: the promise, or a body still being read, fails with the signal's reason.
    const onAbort = () => {
      const reason: unknown = signal?.reason;
      if (response) response.destroy(reason instanceof Error ? reason : new Error(String(reason)));
      req.destroy();
      fail(reason);
    };
    const req = (secure ? https : http).request(target, { method: init.method ?? "GET", headers, agent: agents[secure ? "https:" : "http:"] }, (res) => {
      const status = res.statusCode ?? 0;
      // From the raw lines, as fetch does: res.headers would parse them into an object first.
      const responseHeaders = new Headers();
      for (let i = 0; i < res.rawHeaders.length; i += 2) responseHeaders.append(res.rawHeaders[i]!, res.rawHeaders[i + 1]!);
      const meta = { status, statusText: res.statusMessage ?? "", headers: responseHeaders };
      const redirected = status >= 300 && status < 400 && responseHeaders.has("location");
      if (redirected || NULL_BODY.has(status)) {
        res.resume();
        settled = true;
        signal?.removeEventListener("abort", onAbort);
        return resolve(redirected ? fallback(target, init) : new Response(null, meta));
      }
      const decoded = decode(res, responseHeaders.get("content-encoding"));
      response = decoded;
      if (responseHeaders.get("content-type")?.toLowerCase().includes("text/event-stream")) {
        // A stream for as long as the server keeps it open; the signal still ends it.
        settled = true;
        decoded.once("close", () => signal?.removeEventListener("abort", onAbort));
        return resolve(new Response(Readable.toWeb(decoded) as ReadableStream<Uint8Array>, meta));
      }
      const chunks: Buffer[] = [];
      decoded.on("data", (c: Buffer) => chunks.push(c));
      decoded.once("error", fail);
      // Closed without an end (the connection dropped mid-body): after "end" this does nothing.
      decoded.once("close", () => fail(Object.assign(new Error(`the response from ${target.origin} ended before its body did`), { code: "ECONNRESET" })));
      decoded.once("end", () => {
        if (settled) return;
        settled = true;
        signal?.removeEventListener("abort", onAbort);
        const all = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks);
        resolve(new Response(new Uint8Array(all.buffer as ArrayBuffer, all.byteOffset, all.byteLength), meta));
      });
    });
    req.once("error", fail);
    signal?.addEventListener("abort", onAbort, { once: true });
    req.end(body);
  });
}

/** The body as sent, decoded if the server compressed it though it was not asked to. */
function decode(res: http.IncomingMessage, contentEncoding: string | null): Readable {
  const encoding = contentEncoding?.trim().toLowerCase();
  const decoder =
    encoding === "gzip" || encoding === "x-gzip"
      ? zlib.createGunzip()
      : encoding === "deflate"
        ? zlib.createInflate()
        : encoding === "br"
          ? zlib.createBrotliDecompress()
          : undefined;
  if (!decoder) return res;
  res.once("error", (err) => decoder.destroy(err));
  return res.pipe(decoder);
}
