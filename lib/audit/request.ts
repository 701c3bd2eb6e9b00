/**
 * Where a request came from, for an audit entry's `from`: the client address (as the server in
 * front of the route reports it in x-forwarded-for / x-real-ip; informational, a client talking
 * to the studio directly can set those headers) and the user agent.
 */
export function requestFrom(req: Request): string {
  const h = req.headers;
  const addr = h.get("x-forwarded-for")?.split(",")[0]?.trim() || h.get("x-real-ip")?.trim() || "unknown";
  const ua = h.get("user-agent")?.trim() || "unknown";
  const s = `${addr} | ${ua}`;
  return s.length > 500 ? s.slice(0, 499) + "…" : s;
}
