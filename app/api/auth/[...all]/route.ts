import { guarded } from "@/lib/studio/guarded";
import { getStudio } from "@/lib/studio/studio";

// Sign-in (password and SSO), sign-out, the SSO callback: better-auth's own endpoints.
export const dynamic = "force-dynamic";

const handle = async (req: Request) => (await getStudio()).identity.handle(req);

export const GET = guarded("/api/auth/[...all]", "GET", handle);
export const POST = guarded("/api/auth/[...all]", "POST", handle);
