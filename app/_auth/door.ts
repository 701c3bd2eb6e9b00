import { headers } from "next/headers";
import { forbidden, notFound, unauthorized } from "next/navigation";
import { cache } from "react";
import type { Identification, Principal } from "@/lib/auth/principal";
import { admit } from "@/lib/studio/guarded";
import { getStudio } from "@/lib/studio/studio";

/**
 * The door for pages (the same one as routes: lib/auth/door.ts through lib/studio/guarded.ts).
 * Each page calls `pageDoor("<its route pattern>")` first: anonymous people get 401 with the
 * sign-in form (app/unauthorized.tsx), a role too low gets 403 (app/forbidden.tsx).
 */
export async function pageDoor(pattern: string): Promise<Principal> {
  const answer = await admit({ method: "GET", pathname: pattern, headers: await headers() }, identifyOnce);
  if (answer.admit && answer.principal) return answer.principal;
  if (!answer.admit && answer.kind === "unauthenticated") unauthorized();
  if (!answer.admit && answer.kind === "forbidden") forbidden();
  notFound();
}

/**
 * Identifies the request once however many parts of the page ask (the door, the user menu).
 * The headers first: while `next build` prerenders a page, that call is where rendering stops,
 * so the build never starts the studio (and never opens or migrates its database).
 */
const identifyOnce = cache(async (): Promise<Identification> => {
  const h = await headers();
  return (await getStudio()).identity.identify(h);
});

/** Who is looking at this page; null when nobody is signed in. */
export async function currentPrincipal(): Promise<Principal | null> {
  return (await identifyOnce().catch(() => ({ principal: null }))).principal;
}

/** The CSP nonce proxy.ts put on this request, for inline scripts. */
export const cspNonce = cache(async (): Promise<string | undefined> => (await headers()).get("x-nonce") ?? undefined);
