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
  const { user, before, changes } = await studio.users.update(params.id, patch);
  const from = requestOrigin(req);
  if (changes.includes("role")) {
    await studio.audit.append({
      actor: principal.actor,
      action: "user.role",
      target: user.email,
      detail: { userId: user.id, from: before.role, to: user.role },
      from,
    });
  }
  const other = changes.filter((c) => c !== "role");
  if (other.length) {
    await studio.audit.append({
      actor: principal.actor,
      action: "user.update",
      target: user.email,
      detail: { userId: user.id, changed: other, ...(changes.includes("email") ? { previousEmail: before.email } : {}) },
      from,
    });
  }
  // A new password or a lower role takes effect now: the person's other browsers sign in again.
  if (changes.includes("password") || changes.includes("role")) {
    if (principal.userId !== user.id) await studio.users.revokeSessions(user.id);
  }
  return Response.json({ user });
});

export const DELETE = guarded<{ id: string }>("/api/users/[id]", "DELETE", async (req, { params, principal }) => {
  const studio = await getStudio();
  const user = await studio.users.remove(params.id);
  // Their sessions and tokens go with them (cascade): say how many tokens stopped working.
  await studio.audit.append({
    actor: principal.actor,
    action: "user.delete",
    target: user.email,
    detail: { userId: user.id, role: user.role, tokensRemoved: user.activeTokens },
    from: requestOrigin(req),
  });
  return Response.json({ user });
});
