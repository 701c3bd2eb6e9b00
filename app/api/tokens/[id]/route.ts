import { HttpError, requestOrigin } from "@/lib/http/http";
import { guarded } from "@/lib/studio/guarded";
import { getStudio } from "@/lib/studio/studio";

export const dynamic = "force-dynamic";

/** Revokes a token: your own, or anyone's for an admin. */
export const DELETE = guarded<{ id: string }>("/api/tokens/[id]", "DELETE", async (req, { params, principal }) => {
  const studio = await getStudio();
  const token = await studio.identity.tokens.get(params.id);
  // Someone else's token is "not found" to a non-admin: ids of others' tokens are not theirs to probe.
  if (!token || (token.userId !== principal.userId && principal.role !== "admin")) throw new HttpError("not_found", `No token with id ${params.id}.`);
  // A revocation and its "token.revoke" entry commit together; revoking a revoked token changes nothing and writes none.
  const from = requestOrigin(req);
  const revoked = await studio.identity.tokens.revoke(token.id, new Date(), {
    log: studio.audit,
    entry: () => ({
      actor: principal.actor,
      action: "token.revoke",
      target: token.name,
      detail: { tokenId: token.id, owner: token.userEmail ?? token.userId },
      from,
    }),
  });
  return Response.json({ token: revoked });
});
