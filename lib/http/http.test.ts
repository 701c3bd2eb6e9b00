import { describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { ToolError } from "../tools/errors";
import { contentSecurityPolicy, newNonce } from "./csp";
import { DISCARD_BODY_BYTES, errorResponse, HttpError, MAX_BODY_BYTES, parseWith, readJson, readJsonChecked, requestOrigin, toErrorResponse } from "./http";

const post = (body: BodyInit, headers: Record<string, string> = {}) =>
  new Request("http://127.0.0.1/x", { method: "POST", body, headers, duplex: "half" } as RequestInit);

describe("readJson", () => {
  const Body = z.strictObject({ a: z.number() });
  it("parses a body with its schema, naming the field that is wrong", async () => {
    expect(await readJson(post('{"a": 1}'), Body)).toEqual({ a: 1 });
    await expect(readJson(post('{"a": "x"}'), Body)).rejects.toMatchObject({ status: 400, kind: "bad_request", details: [{ path: "/a" }] });
    await expect(readJson(post("{nope"), Body)).rejects.toThrow(/not valid JSON/);
  });
  it("refuses bodies over the limit, declared or streamed", async () => {
    await expect(readJson(post("{}", { "content-length": String(MAX_BODY_BYTES + 1) }), Body)).rejects.toMatchObject({ status: 413 });
    await expect(readJson(post(" ".repeat(MAX_BODY_BYTES + 1)), Body)).rejects.toMatchObject({ status: 413, kind: "payload_too_large" });
  });
  it("reads a body over the limit to its end before refusing it (so the client reads the 413), up to a bound", async () => {
    const streamOf = (chunks: number, size: number) => {
      let sent = 0;
      const stream = new ReadableStream<Uint8Array>({
        pull(c) {
          if (sent++ < chunks) c.enqueue(new Uint8Array(size));
          else c.close();
        },
      });
      return { stream, sent: () => sent };
    };
    for (const declared of [true, false]) {
      const s = streamOf(40, 256 * 1024); // 10 MiB
      const req = post(s.stream, declared ? { "content-length": String(40 * 256 * 1024) } : {});
      await expect(readJsonChecked(req)).rejects.toMatchObject({ status: 413 });
      expect(s.sent(), declared ? "declared" : "streamed").toBe(41); // every chunk, then the end
    }
    // Past DISCARD_BODY_BYTES the rest is not waited for.
    const endless = new ReadableStream<Uint8Array>({ pull: (c) => c.enqueue(new Uint8Array(1024 * 1024)) });
    await expect(readJsonChecked(post(endless))).rejects.toMatchObject({ status: 413 });
    expect(DISCARD_BODY_BYTES).toBeGreaterThanOrEqual(4 * MAX_BODY_BYTES);
  });
  it("refuses what the database cannot store, naming the path; readJsonChecked hands the problems back instead", async () => {
    await expect(readJson(post('{"a": "x\\u0000"}'), z.object({ a: z.string() }))).rejects.toMatchObject({ status: 400, details: [{ path: "/a" }] });
    const { data, problems } = await readJsonChecked(post('{"arguments": {"k": "\\ud800"}}'));
    expect(data).toBeTruthy();
    expect(problems).toEqual([{ path: "/arguments/k", message: expect.stringMatching(/surrogate/) }]);
  });
  it("parseWith describes every issue", () => {
    expect(() => parseWith(z.strictObject({ n: z.number() }), { n: "1", extra: 1 }, "query")).toThrow(/Invalid query: /);
  });
});

describe("toErrorResponse", () => {
  it("maps our errors to their status and kind, and hides unexpected ones", async () => {
    const body = async (r: Response) => [r.status, (await r.json()).error];
    expect(await body(toErrorResponse(new HttpError("conflict", "changed")))).toEqual([409, { kind: "conflict", message: "changed" }]);
    expect(await body(toErrorResponse(new ToolError("not_found", "no such tool")))).toEqual([404, { kind: "not_found", message: "no such tool" }]);
    // Another bundle's copy of a class is recognised (lib/errors/errors.ts), a look-alike is not.
    vi.resetModules();
    const { ServerEditError } = await import("../servers/apply");
    expect(await body(toErrorResponse(new ServerEditError("conflict", "refused")))).toEqual([409, { kind: "conflict", message: "refused" }]);
    const lookalike = Object.assign(new Error("refused"), { name: "ServerEditError", status: 409, kind: "conflict" });
    vi.spyOn(console, "error").mockImplementationOnce(() => {});
    expect((await body(toErrorResponse(lookalike)))[0]).toBe(500);
    const hidden = await body(toErrorResponse(new Error("password=hunter2 in a stack")));
    expect(hidden[0]).toBe(500);
    expect(JSON.stringify(hidden)).not.toContain("hunter2");
  });
  it("errorResponse adds details only when given", async () => {
    expect(await errorResponse("bad_request", "x").json()).toEqual({ error: { kind: "bad_request", message: "x" } });
  });
});

describe("requestOrigin", () => {
  it("names the forwarding chain and the user agent, for the audit log", () => {
    const r = new Request("http://127.0.0.1/", { headers: { "x-forwarded-for": "10.0.0.1", "user-agent": "curl/8" } });
    expect(requestOrigin(r)).toBe("forwarded 10.0.0.1; ua curl/8");
    expect(requestOrigin(new Request("http://127.0.0.1/"))).toBe("local");
    // The address is the server's (the socket peer scripts/server.mjs writes), the chain only a claim.
    const peer = new Request("http://127.0.0.1/", { headers: { "x-studio-peer": "::ffff:192.0.2.7", "x-forwarded-for": "10.0.0.1" } });
    expect(requestOrigin(peer)).toBe("addr 192.0.2.7; forwarded 10.0.0.1");
  });
});

describe("the pages' Content-Security-Policy", () => {
  it("gets a fresh nonce per response", () => {
    expect(newNonce()).not.toBe(newNonce());
    expect(newNonce()).toMatch(/^[A-Za-z0-9+/]{22}==$/);
  });
  it("allows scripts only from here with the nonce, forbids framing and plugins", () => {
    const csp = contentSecurityPolicy("abc123");
    expect(csp).toContain("script-src 'self' 'nonce-abc123' 'strict-dynamic'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).not.toContain("unsafe-eval");
    expect(contentSecurityPolicy("n", { dev: true })).toContain("'unsafe-eval'");
  });
});
