import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
class T extends StdioClientTransport {}
const passthrough = { "~standard": { version: 1, vendor: "x", validate: (v) => ({ value: v }) } };
const mode = process.argv[2];
const which = process.argv[3] ?? "example";
let transport;
const t0 = Date.now();
if (mode === "stdio") {
  const args = which === "example" ? ["../mcp-server/server.mjs"] : ["../../node_modules/@modelcontextprotocol/server-everything/dist/index.js", "stdio"];
  transport = new (process.argv[4] === "base" ? StdioClientTransport : T)({ command: process.execPath, args, stderr: "pipe" });
  transport.stderr.on("data", (d) => process.stdout.write("STDERR " + d));
} else {
  transport = new StreamableHTTPClientTransport(new URL(process.argv[4]));
}
const client = new Client({ name: "scratch", version: "0" }, { versionNegotiation: { mode: "auto" }, listChanged: { tools: { autoRefresh: false, debounceMs: 0, onChanged: () => console.log("LIST CHANGED") } } });
client.onclose = () => console.log("ONCLOSE");
client.onerror = (e) => console.log("ONERROR", e.message);
await client.connect(transport);
console.log("connected in", Date.now() - t0, client.getNegotiatedProtocolVersion(), client.getProtocolEra(), JSON.stringify(client.getServerVersion()), JSON.stringify(client.getServerCapabilities()));
let cursor; let pages = 0; const all = [];
do {
  const page = await client.request({ method: "tools/list", params: cursor ? { cursor } : {} }, passthrough);
  pages++; all.push(...page.tools); cursor = page.nextCursor;
} while (cursor);
console.log("pages", pages, all.map((t) => t.name).join(","));
console.log(JSON.stringify(all.find((t) => t.name === "fancy" || t.name==="get-sum")));
const r = await client.request({ method: "tools/call", params: { name: which === "example" ? "primes" : "echo", arguments: which === "example" ? { below: 10 } : { message: "hi" } } }, passthrough);
console.log(JSON.stringify(r));
if (which === "example") {
  const p = await client.request({ method: "tools/call", params: { name: "slow_count", arguments: { to: 3, delayMs: 50 } } }, passthrough, { onprogress: (p) => console.log("progress", JSON.stringify(p)) });
  console.log(JSON.stringify(p));
  const h = await client.request({ method: "tools/call", params: { name: "header_echo", arguments: { region: "eu", dryRun: true, count: 3 } } }, passthrough, { headers: { "Mcp-Param-Region": "eu", "Mcp-Param-Dry-Run": "true", "Mcp-Param-Count": "3" } });
  console.log(JSON.stringify(h));
  const ac = new AbortController();
  setTimeout(() => ac.abort(new Error("user cancel")), 150);
  try { await client.request({ method: "tools/call", params: { name: "slow_count", arguments: { to: 10, delayMs: 100 } } }, passthrough, { signal: ac.signal }); } catch (e) { console.log("cancel err", e === ac.signal.reason, e?.constructor?.name, e.message); }
  await new Promise((r) => setTimeout(r, 200));
  const s = await client.request({ method: "tools/call", params: { name: "server_stats", arguments: {} } }, passthrough);
  console.log(JSON.stringify(s.structuredContent));
  try { await client.request({ method: "tools/call", params: { name: "nope", arguments: {} } }, passthrough); } catch (e) { console.log("nf err", e?.constructor?.name, e.code, e.message); }
  try { await client.request({ method: "tools/call", params: { name: "add", arguments: {a: "x"} } }, passthrough); } catch (e) { console.log("ia err", e?.constructor?.name, e.code, e.message); }
  await client.request({ method: "tools/call", params: { name: "add_tool", arguments: { name: "newbie" } } }, passthrough);
  await new Promise((r) => setTimeout(r, 300));
}
await client.close();
console.log("closed");
