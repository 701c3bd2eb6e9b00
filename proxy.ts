import { NextResponse, type NextRequest } from "next/server";
import { checkRequest, guardConfigFromEnv } from "./lib/http/guard";

const config_ = guardConfigFromEnv();

/** Refuses cross-site writes and DNS-rebound host names before any route runs. */
export function proxy(request: NextRequest) {
  const refused = checkRequest(
    {
      method: request.method,
      host: request.headers.get("host"),
      origin: request.headers.get("origin"),
      secFetchSite: request.headers.get("sec-fetch-site"),
    },
    config_,
  );
  if (refused) return NextResponse.json({ error: { kind: "permission_denied", message: refused } }, { status: 403 });
  return NextResponse.next();
}

export const config = { matcher: ["/api/:path*"] };
