import { describe, expect, it } from "vitest";
import { SIGN_IN_FAILED } from "../mcp/oauth/sign-in-needed";
import { HttpError } from "../http/http";
import { upstreamError } from "./browse";
import { serverStatesFor } from "./view";

describe("a server's state as a role may see it", () => {
  it("keeps why OAuth failed for admins and tells others only that sign-in failed", () => {
    const states = [
      { name: "secure", error: "authorization server answered 500 at https://as.example/token", authFailed: true },
      { name: "plain", error: "connection refused" },
    ];
    expect(serverStatesFor(states, "admin")).toEqual(states);
    expect(serverStatesFor(states, "runner")).toEqual([{ ...states[0], error: SIGN_IN_FAILED }, states[1]]);
  });
});

describe("upstreamError", () => {
  it("answers an upstream failure by what the server said: invalid params 400, not found 404, anything else 502", () => {
    const rpc = (code: number, message: string) => Object.assign(new Error(`MCP error ${code}: ${message}`), { code });
    expect(upstreamError(rpc(-32602, "bad uri"), "ex")).toMatchObject({ kind: "invalid_args", status: 400, message: 'MCP server "ex": bad uri' });
    expect(upstreamError(rpc(-32002, "no such resource"), "ex")).toMatchObject({
      kind: "not_found",
      status: 404,
      message: 'MCP server "ex": no such resource',
    });
    expect(upstreamError("socket hang up", "ex")).toMatchObject({ kind: "provider", status: 502, message: 'MCP server "ex" failed: socket hang up' });
    const own = new HttpError("unavailable", "not connected");
    expect(upstreamError(own, "ex")).toBe(own);
  });
});
