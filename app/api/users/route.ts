import { z } from "zod";
import { ROLES } from "@/lib/auth/roles";
import { readJson, requestOrigin } from "@/lib/http/http";
import { guarded } from "@/lib/studio/guarded";
import { getStudio } from "@/lib/studio/studio";

export const dynamic = "force-dynamic";

const CreateBody = z.strictObject({
  email: z.string().min(3).max(200),
  name: z.string().max(200).optional(),
  password: z.string().min(8, "must be at least 8 characters").max(256),
  role: z.enum(ROLES),
});

export const GET = guarded("/api/users", "GET", async () => {
  const studio = await getStudio();
  return Response.json({ users: await studio.users.list() }, { headers: { "cache-control": "no-store" } });
});

/** Adds a person who signs in with email and password. */
export const POST = guarded("/api/users", "POST", async (req, { principal }) => {
  const body = await readJson(req, CreateBody);
  const studio = await getStudio();
  const from = requestOrigin(req);
  const user = await studio.users.create(body, {
    log: studio.audit,
    entries: (u) => ({ actor: principal.actor, action: "user.create", target: u.email, detail: { userId: u.id, role: u.role }, from }),
  });
  return Response.json({ user }, { status: 201 });
});
