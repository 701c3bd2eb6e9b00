import http from "node:http";
import type { AddressInfo } from "node:net";
import zlib from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { nodeFetch } from "./http-fetch";

// A real server on a loopback port; each path is one behaviour nodeFetch must keep from fetch.
let server: http.Server;
let base: string;
const seen: { method?: string; headers: http.IncomingHttpHeaders; body: string }[] = [];
let releaseStream: (() => void) | undefined;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      seen.push({ method: req.method, headers: req.headers, body });
      switch (req.url) {
        case "/json":
          res.writeHead(200, { "content-type": "application/json", "set-cookie": ["a=1", "b=2"] });
          res.write(`{"echo":${JSON.stringify(body)},`);
          res.end(`"method":"${req.method}"}`);
          return;
        case "/gzip":
          res.writeHead(200, { "content-type": "application/json", "content-encoding": "gzip" });
          res.end(zlib.gzipSync(JSON.stringify({ unpacked: true })));
          return;
        case "/empty":
          res.writeHead(204).end();
          return;
        case "/moved":
          res.writeHead(307, { location: "/json" }).end();
          return;
        case "/stream":
          res.writeHead(200, { "content-type": "text/event-stream" });
          res.write("event: message\ndata: first\n\n");
          releaseStream = () => res.end("event: message\ndata: last\n\n");
          return;
        case "/hang":
          res.writeHead(200, { "content-type": "application/json" });
          res.write("{");
          return;
        case "/drop":
          res.writeHead(200, { "content-type": "application/json", "content-length": "100" });
          res.write('{"partial":');
          setTimeout(() => res.socket?.destroy(), 20);
          return;
        default:
          res.writeHead(404).end();
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((r) => server.close(() => r()));
});

const f = nodeFetch();

describe("nodeFetch", () => {
  it("sends a string body with its headers and hands back status, headers and the whole body", async () => {
    const res = await f(`${base}/json`, { method: "POST", headers: { "content-type": "application/json", "mcp-method": "tools/call" }, body: '{"é":"ü"}' });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/json");
    expect(res.headers.getSetCookie()).toEqual(["a=1", "b=2"]);
    expect(await res.json()).toEqual({ echo: '{"é":"ü"}', method: "POST" });
    const got = seen.at(-1)!;
    expect(got.headers["mcp-method"]).toBe("tools/call");
    expect(got.headers["content-length"]).toBe(String(Buffer.byteLength('{"é":"ü"}')));
  });

  it("takes a URL object and Headers, and GETs without a body", async () => {
    const res = await f(new URL(`${base}/json`), { headers: new Headers({ accept: "application/json" }) });
    expect(await res.json()).toEqual({ echo: "", method: "GET" });
    expect(seen.at(-1)!.headers.accept).toBe("application/json");
  });

  it("decodes a compressed body the server sent though none was asked for", async () => {
    const res = await f(`${base}/gzip`, { method: "POST", body: "{}" });
    expect(await res.json()).toEqual({ unpacked: true });
    expect(seen.at(-1)!.headers["accept-encoding"]).toBeUndefined();
  });

  it("answers 204 with a null body", async () => {
    const res = await f(`${base}/empty`, { method: "DELETE" });
    expect(res.status).toBe(204);
    expect(res.body).toBeNull();
  });

  it("follows a redirect through fetch, sending the same body again", async () => {
    const res = await f(`${base}/moved`, { method: "POST", headers: { "content-type": "application/json" }, body: '{"again":1}' });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ echo: '{"again":1}', method: "POST" });
  });

  it("leaves bodies it does not send itself (a form) to fetch", async () => {
    const res = await f(`${base}/json`, { method: "POST", body: new URLSearchParams({ grant_type: "refresh_token" }) });
    expect(await res.json()).toEqual({ echo: "grant_type=refresh_token", method: "POST" });
    expect(seen.at(-1)!.headers["content-type"]).toContain("application/x-www-form-urlencoded");
  });

  it("streams an event stream as it comes, before the server ends it", async () => {
    const res = await f(`${base}/stream`, { method: "POST", body: "{}" });
    expect(res.headers.get("content-type")).toBe("text/event-stream");
    const reader = res.body!.getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toContain("data: first");
    releaseStream!();
    let rest = "";
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      rest += new TextDecoder().decode(value);
    }
    expect(rest).toContain("data: last");
  });

  it("fails with the signal's reason when aborted before, while waiting, or while a stream is read", async () => {
    const before = new AbortController();
    before.abort(new Error("not wanted"));
    await expect(f(`${base}/json`, { method: "POST", body: "{}", signal: before.signal })).rejects.toThrow("not wanted");

    const waiting = new AbortController();
    const pending = f(`${base}/hang`, { method: "POST", body: "{}", signal: waiting.signal });
    setTimeout(() => waiting.abort(), 30);
    await expect(pending).rejects.toMatchObject({ name: "AbortError" });

    const streaming = new AbortController();
    const res = await f(`${base}/stream`, { method: "POST", body: "{}", signal: streaming.signal });
    const reader = res.body!.getReader();
    await reader.read();
    streaming.abort();
    await expect(reader.read()).rejects.toMatchObject({ name: "AbortError" });
  });

  it("fails when the connection drops before the body is whole, and when nothing listens", async () => {
    await expect(f(`${base}/drop`, { method: "POST", body: "{}" })).rejects.toThrow();
    const closed = http.createServer();
    await new Promise<void>((r) => closed.listen(0, "127.0.0.1", r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    await expect(f(`http://127.0.0.1:${port}/json`, { method: "POST", body: "{}" })).rejects.toMatchObject({ code: "ECONNREFUSED" });
  });

  it("keeps the connection for the next request", async () => {
    const sockets = new Set<unknown>();
    const onConnection = (s: unknown) => sockets.add(s);
    server.on("connection", onConnection);
    try {
      for (let i = 0; i < 5; i++) await (await f(`${base}/json`, { method: "POST", body: String(i) })).text();
    } finally {
      server.off("connection", onConnection);
    }
    expect(sockets.size).toBeLessThanOrEqual(1);
  });
});
