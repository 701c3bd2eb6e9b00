import { guarded } from "@/lib/studio/guarded";

export const dynamic = "force-dynamic";

/** Who the caller is, as the server sees them, and what the sign-in page offers. */
export const GET = guarded("/api/me", "GET", async (_req, { principal }) => {
  const { via, role, userId, actor, name, tokenId, tokenName } = principal;
  return Response.json({ principal: { via, role, userId, actor, name, tokenId, tokenName } }, { headers: { "cache-control": "no-store" } });
});
