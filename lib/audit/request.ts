import { requestOrigin } from "../http/http";

/**
 * Where a request came from, for an audit entry's `from`: lib/http/http.ts requestOrigin (the
 * x-forwarded-for chain and the user agent), one format for every audited route. Informational
 * only: Next fills x-forwarded-for from the socket only when the client did not send one.
 */
export function requestFrom(req: Request): string {
  return requestOrigin(req);
}
