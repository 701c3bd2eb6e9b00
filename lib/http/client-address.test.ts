import { describe, expect, it } from "vitest";
import { addressKey, clientAddress, parseTrustedProxies, PEER_HEADER } from "./client-address";

const h = (peer: string | null, xff?: string) => new Headers({ ...(peer ? { [PEER_HEADER]: peer } : {}), ...(xff ? { "x-forwarded-for": xff } : {}) });

describe("clientAddress", () => {
  const none = parseTrustedProxies(undefined);
  const proxies = parseTrustedProxies(" 10.0.0.0/8, ::1 ,192.0.2.1");

  it("is the socket peer when no proxy is trusted, whatever X-Forwarded-For claims", () => {
    expect(clientAddress(h("203.0.113.5", "198.51.100.1"), none)).toBe("203.0.113.5");
    expect(clientAddress(h("::ffff:127.0.0.1", "198.51.100.1"), none)).toBe("127.0.0.1");
    // From a peer that is not a trusted proxy the claim is ignored too.
    expect(clientAddress(h("203.0.113.5", "198.51.100.1"), proxies)).toBe("203.0.113.5");
  });

  it("behind trusted proxies, the first hop from the right that is not one of them", () => {
    expect(clientAddress(h("10.1.2.3", "198.51.100.1"), proxies)).toBe("198.51.100.1");
    // A client that prepends its own claim gets the address the proxy saw, not the claim.
    expect(clientAddress(h("::1", "6.6.6.6, 198.51.100.1, 10.9.9.9"), proxies)).toBe("198.51.100.1");
    // Only trusted hops: the leftmost one; no header: the proxy itself; garbage: stop at the proxy that passed it on.
    expect(clientAddress(h("10.1.2.3", "10.2.2.2, 192.0.2.1"), proxies)).toBe("10.2.2.2");
    expect(clientAddress(h("10.1.2.3"), proxies)).toBe("10.1.2.3");
    expect(clientAddress(h("10.1.2.3", "not-an-ip"), proxies)).toBe("10.1.2.3");
  });

  it("is unknown without the server's peer header (a client's claim is never taken for it)", () => {
    expect(clientAddress(h(null, "198.51.100.1"), proxies)).toBeNull();
    expect(clientAddress(h("nonsense", "198.51.100.1"), proxies)).toBeNull();
  });

  it("refuses a trusted-proxy entry that is no address or range, naming it", () => {
    expect(() => parseTrustedProxies("10.0.0.0/33")).toThrow(/"10\.0\.0\.0\/33" is not an IP address or CIDR range/);
    expect(() => parseTrustedProxies("proxy.example.com")).toThrow(/proxy\.example\.com/);
    expect(() => parseTrustedProxies("fd00::/129")).toThrow(/fd00::\/129/);
    expect(parseTrustedProxies("fd00::/8").has("fd12::1")).toBe(true);
  });

  it("counts an IPv6 client by its /64", () => {
    expect(addressKey("2001:db8:1:2:aaaa::1")).toBe("2001:0db8:0001:0002::/64");
    expect(addressKey("2001:db8:1:2:bbbb::9")).toBe("2001:0db8:0001:0002::/64");
    expect(addressKey("192.0.2.7")).toBe("192.0.2.7");
    expect(addressKey(null)).toBe("unknown");
  });
});
