import { it } from "vitest";
import { McpConnection } from "@/lib/mcp/connection";
import { startExampleHttpServer } from "@/lib/mcp/test-helpers";
it("debug", async () => {
  const http = await startExampleHttpServer(0);
  const conn = new McpConnection({ name: "ex", transport: "http", url: http.url, headers: {}, enabled: true }, { backoff: { initialMs: 100, maxMs: 1000, jitter: 0 }, healthCheckMs: 300, log: (m) => console.log(Date.now() % 100000, m) });
  await conn.connect();
  console.log("sub", !!(conn as any).client.autoOpenedSubscription);
  const t0 = Date.now();
  await http.stop();
  console.log("stopped in", Date.now() - t0);
  await new Promise((r) => setTimeout(r, 3000));
  console.log(conn.status().state, conn.status().error);
  await conn.close();
}, 20000);
