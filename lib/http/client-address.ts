import { BlockList, isIP } from "node:net";

/**
 * Who is on the other end, for per-address limits and the audit log. X-Forwarded-For is only a
 * claim: any client can send one. So the address is the socket's peer, which scripts/server.mjs
 * writes into PEER_HEADER on every request (replacing any the client sent); only when that peer
 * is one of STUDIO_TRUSTED_PROXIES is X-Forwarded-For read, from the right, skipping the trusted
 * hops, and the first other hop is the client.
 *
 * Without the header (`next dev`, handlers called directly) the address is unknown (null): a
 * client's own claims are never taken for it.
 */
export const PEER_HEADER = "x-studio-peer";

export interface TrustedProxies {
  has(address: string): boolean;
}

/** STUDIO_TRUSTED_PROXIES: addresses and CIDR ranges, comma-separated. Throws naming a bad entry. */
export function parseTrustedProxies(value: string | undefined): TrustedProxies {
  const list = new BlockList();
  for (const raw of (value ?? "").split(",")) {
    const entry = raw.trim();
    if (!entry) continue;
    const [addr, bits, extra] = entry.split("/");
    const ip = normalize(addr ?? "");
    const family = ip ? isIP(ip) : 0;
    const prefix = bits === undefined ? (family === 4 ? 32 : 128) : /^\d{1,3}$/.test(bits) ? Number(bits) : NaN;
    if (!ip || !family || extra !== undefined || !(prefix >= 0 && prefix <= (family === 4 ? 32 : 128))) {
      throw new Error(`STUDIO_TRUSTED_PROXIES: "${entry.slice(0, 100)}" is not an IP address or CIDR range (e.g. 10.0.0.0/8, ::1).`);
    }
    list.addSubnet(ip, prefix, family === 4 ? "ipv4" : "ipv6");
  }
  return { has: (address) => list.check(address, isIP(address) === 4 ? "ipv4" : "ipv6") };
}

let fromEnv: { value: string | undefined; proxies: TrustedProxies } | undefined;
export function trustedProxiesFromEnv(env: Record<string, string | undefined> = process.env): TrustedProxies {
  const value = env.STUDIO_TRUSTED_PROXIES;
  if (!fromEnv || fromEnv.value !== value) fromEnv = { value, proxies: parseTrustedProxies(value) };
  return fromEnv.proxies;
}

/** The client's address as the server established it, or null when it cannot know. */
export function clientAddress(headers: Headers, trusted: TrustedProxies = trustedProxiesFromEnv()): string | null {
  let address = normalize(headers.get(PEER_HEADER) ?? "");
  if (!address) return null;
  const hops = (headers.get("x-forwarded-for") ?? "")
    .split(",")
    .map((h) => h.trim())
    .filter(Boolean);
  while (trusted.has(address) && hops.length) {
    const next = normalize(hops.pop()!);
    // A hop that is no address ends the walk at the proxy that passed it on.
    if (!next) break;
    address = next;
  }
  return address;
}

/**
 * The part of an address a limit counts by: an IPv6 client usually holds a whole /64, so its
 * addresses count as one (as better-auth's own limiter does).
 */
export function addressKey(address: string | null): string {
  if (!address) return "unknown";
  if (isIP(address) !== 6) return address;
  return expandV6(address).slice(0, 4).join(":") + "::/64";
}

/** A plain IP address (IPv4-mapped IPv6 as IPv4, IPv6 zone and brackets dropped), or null. */
function normalize(value: string): string | null {
  let v = value.trim().toLowerCase();
  if (v.startsWith("[") && v.endsWith("]")) v = v.slice(1, -1);
  v = v.replace(/%.*$/, "");
  if (v.startsWith("::ffff:") && isIP(v.slice(7)) === 4) v = v.slice(7);
  return isIP(v) ? v : null;
}

function expandV6(address: string): string[] {
  const [left = "", right] = address.split("::");
  const head = left ? left.split(":") : [];
  const tail = right ? right.split(":") : [];
  const groups = right === undefined ? head : [...head, ...Array<string>(Math.max(0, 8 - head.length - tail.length)).fill("0"), ...tail];
  return groups.map((g) => (g.includes(".") ? g : g.padStart(4, "0")));
}
