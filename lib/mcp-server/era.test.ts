import { classifyInboundRequest } from "@modelcontextprotocol/server";
import { describe, expect, it } from "vitest";
import { surelyModern } from "./era";

// surelyModern lets a request skip the SDK's legacy check: it must never say "modern" for a
// request the SDK would route to the 2025-era side. Checked against the SDK's own classifier over
// every combination of these parts, so a change of the SDK's rules shows here.
const envelope = (version: unknown) => ({
  "io.modelcontextprotocol/protocolVersion": version,
  "io.modelcontextprotocol/clientCapabilities": {},
  "io.modelcontextprotocol/clientInfo": { name: "c", version: "0" },
});
const bodies: unknown[] = [];
for (const method of ["tools/call", "tools/list", "initialize", "notifications/cancelled", "subscriptions/listen", 7]) {
  for (const meta of [undefined, envelope("2026-07-28"), envelope("2025-11-25"), envelope(42), { progressToken: 1 }]) {
    const params = { name: "add", arguments: { a: 1 }, ...(meta ? { _meta: meta } : {}) };
    bodies.push({ jsonrpc: "2.0", id: 1, method, params }, { jsonrpc: "2.0", method, params }, { jsonrpc: "1.0", id: 1, method, params });
    bodies.push({ jsonrpc: "2.0", id: 1, method, params, result: {} }, [{ jsonrpc: "2.0", id: 1, method, params }]);
  }
}
bodies.push({ jsonrpc: "2.0", id: 1, result: {} }, { jsonrpc: "2.0", id: 1, error: { code: 1, message: "x" } }, [], null, "text", 3, {});
const headers = [undefined, "2026-07-28", " 2026-07-28 ", "2027-01-01", "2025-11-25", "2025-06-18", "garbage", "9999", "2026-07-28x", ""];

function sdkSaysLegacy(httpMethod: string, header: string | undefined, body: unknown): boolean {
  const outcome = classifyInboundRequest({ httpMethod, ...(header !== undefined ? { protocolVersionHeader: header } : {}), body } as Parameters<
    typeof classifyInboundRequest
  >[0]);
  return outcome.kind === "legacy";
}

describe("surelyModern", () => {
  it("never calls modern a request the SDK routes to the 2025-era side", () => {
    let modern = 0;
    let checked = 0;
    for (const httpMethod of ["POST", "GET", "DELETE"])
      for (const header of headers)
        for (const body of bodies) {
          const request = new Request("http://studio.test/api/mcp", {
            method: httpMethod,
            headers: header !== undefined ? { "mcp-protocol-version": header } : {},
          });
          checked++;
          if (!surelyModern(request, body)) continue;
          modern++;
          expect(sdkSaysLegacy(httpMethod, header, body), `${httpMethod} ${JSON.stringify(header)} ${JSON.stringify(body)}`).toBe(false);
        }
    expect(checked).toBeGreaterThan(3000);
    // Not vacuous: the agent calls of the 2026-07-28 era are the ones it answers.
    expect(modern).toBeGreaterThan(50);
  });

  it("answers a 2026-07-28 client's tools/call and leaves 2025-era and odd requests to the SDK", () => {
    const post = (header?: string) => new Request("http://studio.test/api/mcp", { method: "POST", headers: header ? { "mcp-protocol-version": header } : {} });
    const call = { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "add", _meta: envelope("2026-07-28") } };
    expect(surelyModern(post("2026-07-28"), call)).toBe(true);
    expect(surelyModern(post(), call)).toBe(false);
    expect(surelyModern(post("2025-11-25"), { jsonrpc: "2.0", id: 1, method: "tools/call", params: {} })).toBe(false);
    expect(surelyModern(post("2026-07-28"), [call])).toBe(false);
    expect(surelyModern(new Request("http://studio.test/api/mcp"), call)).toBe(false);
  });
});
