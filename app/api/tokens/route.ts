import { z } from "zod";
import { ROLES } from "@/lib/auth/roles";
import { HttpError, readJson, requestOrigin } from "@/lib/http/http";
import { guarded } from "@/lib/studio/guarded";
import { getStudio } from "@/lib/studio/studio";

export const dynamic = "force-dynamic";

const CreateBody = z.strictObject({
  name: z.string().min(1, "must not be empty").max(100),
  role: z.enum(ROLES).optional(),
  /** ISO 8601 instant; unset means the token does not expire. */
  expiresAt: z.iso.datetime({ offset: true }).nullable().optional(),
});

/** Your own tokens; an admin may ask for everyone's with `?all=1`. */
export const GET = guarded("/api/tokens", "GET", async (req, { principal }) => {
  const all = new URL(req.url).searchParams.get("all") === "1";
  if (all && principal.role !== "admin") throw new HttpError("forbidden", "Listing everyone's tokens needs the admin role.");
  if (!all && !principal.userId) return Response.json({ tokens: [] });
  const studio = await getStudio();
  return Response.json({ tokens: await studio.identity.tokens.list(all ? undefined : principal.userId!) }, { headers: { "cache-control": "no-store" } });
});

/** Creates a personal token (role no higher than your own); the token is in this answer only. */
export const POST = guarded("/api/tokens", "POST", async (req, { principal }) => {
  if (!principal.userId) throw new HttpError("bad_request", "Tokens belong to a person: sign in as one (the environment tokens cannot create tokens).");
  const body = await readJson(req, CreateBody);
  const studio = await getStudio();
  const userId = principal.userId;
  const from = requestOrigin(req);
  // The token and its "token.create" entry commit together, or neither does.
  const { token, info } = await studio.identity.tokens.create(
    { id: userId, role: principal.role },
    { name: body.name, role: body.role, expiresAt: body.expiresAt ? new Date(body.expiresAt) : null },
    new Date(),
    {
      log: studio.audit,
      entry: (t) => ({
        actor: principal.actor,
        action: "token.create",
        target: t.name,
        detail: { tokenId: t.id, role: t.role, expiresAt: t.expiresAt, userId },
        from,
      }),
    },
  );
  return Response.json({ token, info }, { status: 201, headers: { "cache-control": "no-store" } });
});
