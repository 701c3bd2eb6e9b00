import { redeemFirstAdminLink } from "@/lib/auth/first-admin";
import { getDb } from "@/lib/db/client";
import { requestOrigin } from "@/lib/http/http";
import { guarded } from "@/lib/studio/guarded";
import { getStudio } from "@/lib/studio/studio";

export const dynamic = "force-dynamic";

/**
 * The one-time first-admin link the studio printed at start: opening it creates the first
 * admin and signs them in, then sends them to set their own email and password.
 */
export const GET = guarded("/setup", "GET", async (req) => {
  const token = new URL(req.url).searchParams.get("token") ?? "";
  const studio = await getStudio();
  const { prisma } = await getDb();
  const from = requestOrigin(req);
  const r = await redeemFirstAdminLink(prisma, studio.users, studio.identity.auth, token, {
    log: studio.audit,
    entries: (u) => ({ actor: u.email, action: "user.create", target: u.email, detail: { userId: u.id, role: u.role, via: "first-admin link" }, from }),
  });
  if (!r.ok) {
    const home = new URL("/", req.url);
    return new Response(page("This link cannot be used", `${r.message}`, home.pathname), {
      status: 410,
      headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" },
    });
  }
  const headers = new Headers({ location: "/users?welcome=1", "cache-control": "no-store" });
  for (const c of r.setCookie) headers.append("set-cookie", c);
  return new Response(null, { status: 303, headers });
});

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const page = (title: string, text: string, href: string) =>
  `<!doctype html><meta charset="utf-8"><title>${esc(title)} · Tool Studio</title><body style="font-family:system-ui;max-width:36rem;margin:4rem auto;padding:0 1rem"><h1>${esc(title)}</h1><p>${esc(text)}</p><p><a href="${esc(href)}">Go to the sign-in page</a></p></body>`;
