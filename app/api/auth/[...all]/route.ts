import { errorResponse } from "@/lib/http/http";
import { guarded } from "@/lib/studio/guarded";
import { getStudio } from "@/lib/studio/studio";

// Sign-in (password and SSO), sign-out, the SSO callback: better-auth's own endpoints.
export const dynamic = "force-dynamic";

/**
 * No better-auth endpoint has a longer path. Its rate limit stores a row keyed by address and
 * path (a unique index, which PostgreSQL refuses past 2,704 bytes): a longer path is refused here.
 */
const MAX_AUTH_PATH = 300;

const handle = async (req: Request) => {
  const { pathname } = new URL(req.url);
  if (pathname.length > MAX_AUTH_PATH)
    return errorResponse("not_found", `No sign-in endpoint has a path longer than ${MAX_AUTH_PATH} characters (this one has ${pathname.length}).`);
  return (await getStudio()).identity.handle(req);
};

export const GET = guarded("/api/auth/[...all]", "GET", handle);
export const POST = guarded("/api/auth/[...all]", "POST", handle);
