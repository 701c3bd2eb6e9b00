// The production server (`npm run studio` / `npm start` run it through scripts/studio.mjs): Next's
// own request handler on a plain node:http server, except for the hot routes of
// lib/http/fast-path.ts (every run, the tool list, /api/mcp), which this server's own router hands
// to their handlers before Next's (issue 12: Next's router costs each request more than a whole
// captured run's own work). Their gzip (the tool list, per ETag) and streams (a run's ndjson, an
// MCP event stream) are handled here.
//
// The handlers are the route files Next serves, bundled with our own code at build time
// (scripts/build-fast-routes.mjs, no framework internals); every process-wide value they use
// (the studio, its registry, the runs in flight) is in lib/process/slots.ts, so this bundle and
// Next's routes share one studio per process. Each handler is `guarded` (lib/studio/guarded.ts):
// the same door (URL checks, Host, cross-site writes, who and which role) runs inside them
// whichever way the request arrives. Everything else goes to Next unchanged; `next dev` serves all
// of it through Next.
/* global Headers, Request, AbortController -- Node 20 has them; the lint config knows only node:* globals in .mjs scripts */
import http from "node:http";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createRequire } from "node:module";
import { promisify } from "node:util";
import zlib from "node:zlib";

// A log reader that went away (a supervisor that died, a test runner killed, `| head`) must not
// spin the server: Next logs every uncaught error to stderr, and a write to a closed pipe is one
// more, so an unheard EPIPE looped at a core's full speed. Logs that nobody can read are dropped.
for (const stream of [process.stdout, process.stderr]) {
  stream.on("error", (err) => {
    if (err.code !== "EPIPE") throw err;
  });
}

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const require = createRequire(path.join(root, "package.json"));
const hostname = process.env.STUDIO_HOST || "127.0.0.1";
const port = Number(process.env.PORT || 3000);
const gzip = promisify(zlib.gzip);

const next = require("next");
const app = next({ dev: false, dir: root, hostname, port });
const handle = app.getRequestHandler();
await app.prepare();

// Built by scripts/build-fast-routes.mjs with the rest of the build (scripts/studio.mjs).
const fast = await import(path.join(root, ".next", "studio", "fast-routes.mjs"));
for (const route of fast.FAST_ROUTES) {
  for (const method of route.methods)
    if (typeof fast.HANDLERS[route.pattern]?.[method] !== "function")
      throw new Error(`the fast-route bundle has no ${method} handler for ${route.pattern}: rebuild (npm run build)`);
}

// The headers next.config.mjs sets on every path are set here too. A rule for other paths would be
// skipped by the fast path without a word, so it stops the start instead.
const { default: nextConfig } = await import(path.join(root, "next.config.mjs"));
const configHeaders = [];
for (const rule of (await nextConfig.headers?.()) ?? []) {
  if (rule.source !== "/:path*" || rule.has || rule.missing)
    throw new Error(`scripts/server.mjs applies only header rules for "/:path*"; add support for ${JSON.stringify(rule.source)} here`);
  configHeaders.push(...rule.headers.map((h) => [h.key.toLowerCase(), h.value]));
}

/**
 * Bodies declared this small are read whole before the handler sees them: a web stream over the
 * socket (Readable.toWeb) costs a run more than reading a few hundred bytes. Larger or chunked
 * bodies are streamed, so the handler's own size limit still applies as they come.
 */
const READ_WHOLE_UP_TO = 64 * 1024;

function readWhole(req) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.once("end", () => resolve(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)));
    req.once("error", reject);
    // Closed before its end (after it, the promise is settled already).
    req.once("close", () => reject(new Error("the request closed before its body ended")));
  });
}

/** The request as the route handler sees it under Next: its URL from the Host header, aborted when the client goes away. */
async function webRequest(req, res) {
  let url;
  try {
    url = new URL(req.url, `http://${req.headers.host || `${hostname}:${port}`}`);
  } catch {
    return null;
  }
  const headers = new Headers();
  for (let i = 0; i < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i], req.rawHeaders[i + 1]);
  headers.set(PEER_HEADER, req.headers[PEER_HEADER]);
  const aborted = new AbortController();
  res.once("close", () => {
    if (!res.writableFinished) aborted.abort();
  });
  if (req.method === "GET" || req.method === "HEAD") return new Request(url, { method: req.method, headers, signal: aborted.signal });
  const declared = Number(req.headers["content-length"]);
  const body = declared <= READ_WHOLE_UP_TO && !req.headers["transfer-encoding"] ? await readWhole(req) : Readable.toWeb(req);
  return new Request(url, { method: req.method, headers, signal: aborted.signal, body, duplex: "half" });
}

/**
 * Large enough to be worth compressing. Next compresses from 1 KiB; a run's answer is mostly a
 * few KiB, where gzip saves nothing a person would notice and costs every run the time to do it.
 */
const COMPRESS_FROM = 8 * 1024;
/** gzip of cacheable bodies by path and ETag: the last few lists (one per registry change). */
const gzipped = new Map();

function acceptsGzip(req) {
  return /\bgzip\b/i.test(req.headers["accept-encoding"] ?? "");
}

const STREAMED = /ndjson|text\/event-stream/;

async function send(req, res, response, { cacheKey } = {}) {
  const headers = {};
  for (const [k, v] of configHeaders) headers[k] = v;
  response.headers.forEach((v, k) => {
    if (k !== "set-cookie") headers[k] = v;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length) headers["set-cookie"] = cookies;
  const body = response.body;
  // A stream (the ndjson of a run, an MCP event stream) is passed on as it comes, never held back to be compressed.
  if (!body || STREAMED.test(headers["content-type"] ?? "")) {
    res.writeHead(response.status, headers);
    if (!body) return void res.end();
    // A client that goes away mid-stream is no failure: its run was cancelled through the request's signal.
    return pipeline(Readable.fromWeb(body), res).catch((err) => {
      if (err?.code !== "ERR_STREAM_PREMATURE_CLOSE") throw err;
    });
  }
  let bytes = Buffer.from(await response.arrayBuffer());
  if (bytes.length >= COMPRESS_FROM && acceptsGzip(req) && !headers["content-encoding"]) {
    const etag = headers.etag;
    const key = cacheKey && etag ? `${cacheKey} ${etag}` : null;
    let zipped = key ? gzipped.get(key) : undefined;
    if (!zipped) {
      zipped = await gzip(bytes);
      if (key) {
        gzipped.set(key, zipped);
        if (gzipped.size > 4) gzipped.delete(gzipped.keys().next().value);
      }
    }
    bytes = zipped;
    headers["content-encoding"] = "gzip";
    headers.vary = headers.vary ? `${headers.vary}, Accept-Encoding` : "Accept-Encoding";
  }
  headers["content-length"] = String(bytes.length);
  res.writeHead(response.status, headers);
  res.end(bytes);
}

async function direct(req, res, fn, params, opts) {
  let request;
  try {
    request = await webRequest(req, res);
  } catch {
    // The client went away while sending its body: no one is left to answer.
    return void res.destroy();
  }
  if (!request) return void handle(req, res); // a Host Next can make sense of, or refuse, in its own words
  const response = await fn(request, { params: Promise.resolve(params) });
  // Answered before its body ended (a refused caller): the rest is read first, since a client that
  // asked for `Connection: close` has its socket closed once the answer is out.
  if (!req.complete) await discardRest(req);
  await send(req, res, response, opts);
}

/** The most of a body a handler left unread (a refused caller, a body over the limit) that is read and dropped: as lib/http/http.ts DISCARD_BODY_BYTES. */
const DISCARD_UP_TO = Math.max(64 * 1024 * 1024, 4 * (Number(process.env.STUDIO_MAX_BODY_BYTES) || 1024 * 1024));

/**
 * A client still sending when its answer went out must be able to read that answer: closing (or
 * leaving paused) a connection it is writing to ends in EPIPE, or a reset that discards the
 * answer. Node drains a body nobody touched by itself; one behind a web stream (Readable.toWeb)
 * stays paused, so the rest is read here and dropped, up to a bound, as a lingering close does.
 */
function discardRest(req) {
  return new Promise((resolve) => {
    let left = DISCARD_UP_TO;
    req.removeAllListeners("data");
    req.on("data", (chunk) => {
      left -= chunk.length;
      if (left < 0) req.destroy();
    });
    req.once("end", resolve);
    req.once("close", resolve);
    req.resume();
  });
}

function fail(res, err) {
  console.error("[tool-studio] server: a request failed outside its handler", err);
  if (res.headersSent) return void res.destroy();
  res.writeHead(500, { "content-type": "application/json", "cache-control": "no-store" });
  // "other" is lib/errors/errors.ts's kind for a failure of the studio itself (500).
  res.end(JSON.stringify({ error: { kind: "other", message: "The request failed." } }));
}

/**
 * The socket's peer, for lib/http/client-address.ts (per-address sign-in limits, the audit log):
 * written on every request, replacing any header of that name a client sent, so it cannot be forged.
 */
const PEER_HEADER = "x-studio-peer";

const server = http.createServer((req, res) => {
  req.headers[PEER_HEADER] = req.socket.remoteAddress ?? "";
  const hot = fast.matchFastRoute(req.method, req.url ?? "/");
  const work = hot
    ? direct(req, res, fast.HANDLERS[hot.route.pattern][req.method], hot.params, { cacheKey: hot.route.gzipByEtag ? hot.route.pattern : undefined })
    : handle(req, res);
  Promise.resolve(work).catch((err) => fail(res, err));
});
// Longer than the clients' pools keep an idle socket (undici's 4 s, Chromium's 5 min is capped by
// this): the server closing a socket at the moment a client reuses it is a reset that client sees.
server.keepAliveTimeout = 65_000;
server.headersTimeout = 66_000;
server.listen(port, hostname, () => console.log(`[tool-studio] listening on http://${hostname}:${port}`));
// As `next start` ends: at once, with the signal's exit code (runs in flight end `interrupted`, see lib/runs/leases.ts).
process.title = "tool-studio-server";
process.once("SIGINT", () => process.exit(130));
process.once("SIGTERM", () => process.exit(143));
