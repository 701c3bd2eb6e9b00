import { describe, expect, it } from "vitest";
import { cachedJson, etagMatches } from "./cached-json";

const req = (headers: Record<string, string> = {}) => new Request("http://studio.test/api/tools", { headers });

describe("cachedJson", () => {
  it("makes the body once per key and answers a matching If-None-Match with 304", async () => {
    const key = {};
    let made = 0;
    const make = () => (made++, { tools: [{ name: "a" }] });
    const first = cachedJson(req(), key, make);
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ tools: [{ name: "a" }] });
    const etag = first.headers.get("etag")!;
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect(first.headers.get("cache-control")).toBe("private, no-cache");

    const again = cachedJson(req({ "if-none-match": `W/"other", ${etag}` }), key, make);
    expect(again.status).toBe(304);
    expect(again.headers.get("etag")).toBe(etag);
    // The stored bytes serve every response (a body does not take them over).
    const second = cachedJson(req(), key, make);
    expect(await second.json()).toEqual({ tools: [{ name: "a" }] });
    expect(made).toBe(1);

    // Another key (the registry changed) is another body and another tag.
    const other = cachedJson(req({ "if-none-match": etag }), {}, () => ({ tools: [] }));
    expect(other.status).toBe(200);
    expect(other.headers.get("etag")).not.toBe(etag);

    // A variant of the same key is made once too, with its own tag; the first is kept.
    const full = cachedJson(req({ "if-none-match": etag }), key, () => (made++, { tools: [{ name: "a", inputSchema: {} }] }), "full");
    expect(full.status).toBe(200);
    expect(await full.json()).toEqual({ tools: [{ name: "a", inputSchema: {} }] });
    expect(full.headers.get("etag")).not.toBe(etag);
    expect(cachedJson(req({ "if-none-match": full.headers.get("etag")! }), key, make, "full").status).toBe(304);
    expect(cachedJson(req({ "if-none-match": etag }), key, make).status).toBe(304);
    expect(made).toBe(2);
  });
});

describe("header parsing", () => {
  it("matches entity tags, weak ones and *", () => {
    expect(etagMatches(null, '"a"')).toBe(false);
    expect(etagMatches('"a"', '"a"')).toBe(true);
    expect(etagMatches('W/"a"', '"a"')).toBe(true);
    expect(etagMatches('"b", "a"', '"a"')).toBe(true);
    expect(etagMatches("*", '"a"')).toBe(true);
    expect(etagMatches('"b"', '"a"')).toBe(false);
  });
});
