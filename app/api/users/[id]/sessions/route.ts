import { HttpError, requestOrigin } from "@/lib/http/http";
import { guarded } from "@/lib/studio/guarded";
import { getStudio } from "@/lib/studio/studio";

export const dynamic = "force-dynamic";

/** Signs a person out of every browser (their API tokens are revoked separately). */
export const DELETE = guarded<{ id: string }>("/api/users/[id]/sessions", "DELETE", async (req, { params, principal }) => {
  const studio = await getStudio();
  const user = await studio.users.get(params.id);
  if (!user) throw new HttpError("not_found", `No user with id ${params.id}.`);
  const from = requestOrigin(req);
  const count = await studio.users.revokeSessions(user.id, {
    log: studio.audit,
    entries: (sessions) => ({ actor: principal.actor, action: "user.sign-out-everywhere", target: user.email, detail: { userId: user.id, sessions }, from }),
  });
  return Response.json({ revoked: count });
});
