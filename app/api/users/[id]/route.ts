import { z } from "zod";
import { ROLES } from "@/lib/auth/roles";
import { readJson, requestOrigin } from "@/lib/http/http";
import { guarded } from "@/lib/studio/guarded";
import { getStudio } from "@/lib/studio/studio";

export const dynamic = "force-dynamic";

const PatchBody = z.strictObject({
  role: z.enum(ROLES).optional(),
  name: z.string().max(200).optional(),
  email: z.string().min(3).max(200).optional(),
  password: z.string().min(8, "must be at least 8 characters").max(256).optional(),
});

/** Changes a person's role, name, email or password (audited: role changes apart, never the password). */
export const PATCH = guarded<{ id: string }>("/api/users/[id]", "PATCH", async (req, { params, principal }) => {
  const patch = await readJson(req, PatchBody);
  const studio = await getStudio();
  const from = requestOrigin(req);
  // Its entries commit with the change: a role change apart, the other fields together, never the password itself.
  const { user, changes } = await studio.users.update(params.id, patch, {
    log: studio.audit,
    entries: ({ user, before, changes }) => [
      ...(changes.includes("role")
        ? [{ actor: principal.actor, action: "user.role" as const, target: user.email, detail: { userId: user.id, from: before.role, to: user.role }, from }]
        : []),
      ...(changes.some((c) => c !== "role")
        ? [
            {
              actor: principal.actor,
              action: "user.update" as const,
              target: user.email,
              detail: {
                userId: user.id,
                changed: changes.filter((c) => c !== "role"),
                ...(changes.includes("email") ? { previousEmail: before.email } : {}),
              },
              from,
            },
          ]
        : []),
    ],
  });
  // A new password or a lower role takes effect now: the person's other browsers sign in again.
  if (changes.includes("password") || changes.includes("role")) {
    if (principal.userId !== user.id) await studio.users.revokeSessions(user.id);
  }
  return Response.json({ user });
});

export const DELETE = guarded<{ id: string }>("/api/users/[id]", "DELETE", async (req, { params, principal }) => {
  const studio = await getStudio();
  const from = requestOrigin(req);
  // Their sessions and tokens go with them (cascade): the entry says how many tokens stopped working.
  const user = await studio.users.remove(params.id, {
    log: studio.audit,
    entries: (u) => ({
      actor: principal.actor,
      action: "user.delete",
      target: u.email,
      detail: { userId: u.id, role: u.role, tokensRemoved: u.activeTokens },
      from,
    }),
  });
  return Response.json({ user });
});
