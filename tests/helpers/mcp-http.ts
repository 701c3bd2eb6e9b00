import http from "node:http";
import type { AddressInfo } from "node:net";
import { Readable } from "node:stream";

/**
 * A Fetch-style handler (handleMcpRequest) behind a real HTTP server and socket: a minimal
 * node:http adapter, not Next. Streamed SSE answers arrive as they are written, and a client that
 * hangs up cancels the response stream (the Request gets no AbortSignal).
 */
export interface FetchServer {
  url: URL;
  close(): Promise<void>;
}

export async function serveFetch(handler: (request: Request) => Promise<Response>, path = "/api/mcp"): Promise<FetchServer> {
  const server = http.createServer((req, res) => {
    pipe(handler, req, res).catch((err) => {
      console.error("[tool-studio] test server: a request failed", err);
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`),
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

async function pipe(handler: (request: Request) => Promise<Response>, req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  const hasBody = req.method !== "GET" && req.method !== "HEAD" && req.method !== "DELETE";
  const request = new Request(`http://${req.headers.host}${req.url}`, {
    method: req.method,
    headers: Object.entries(req.headers).flatMap(([k, v]) => (v === undefined ? [] : (Array.isArray(v) ? v : [v]).map((x) => [k, x] as [string, string]))),
    ...(hasBody ? { body: Readable.toWeb(req) as ReadableStream, duplex: "half" } : {}),
  } as RequestInit);
  const response = await handler(request);
  res.writeHead(response.status, Object.fromEntries(response.headers));
  if (!response.body) {
    res.end();
    return;
  }
  const reader = response.body.getReader();
  res.on("close", () => void reader.cancel().catch(() => {}));
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      res.write(value);
    }
  } catch {
    // cancelled
  }
  res.end();
}
