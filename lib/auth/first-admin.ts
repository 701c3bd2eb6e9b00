import { randomBytes } from "node:crypto";
import type { AuditedChange } from "../audit/log";
import type { PrismaClient } from "../db/generated/client";
import type { StudioAuth } from "./better-auth";
import { sha256Hex } from "./secret-compare";
import type { UserAdmin, UserInfo } from "./users";

/**
 * The first start stays two commands: with no users yet, the studio prints a one-time link (as
 * Jupyter does) and whoever opens it becomes the first admin, signed in at once. Only the link's
 * SHA-256 is stored; claiming it deletes it, so of two clicks at once only one wins.
 */
const KEY = "first-admin-link";
export const FIRST_ADMIN_EMAIL = "admin@studio.local";

export async function issueFirstAdminLink(prisma: PrismaClient, baseURL: string): Promise<string | null> {
  if ((await prisma.user.count()) > 0) return null;
  const token = randomBytes(24).toString("base64url");
  await prisma.studioSetting.upsert({ where: { key: KEY }, create: { key: KEY, value: sha256Hex(token) }, update: { value: sha256Hex(token) } });
  return `${baseURL}/setup?token=${token}`;
}

export type RedeemResult = { ok: true; user: UserInfo; setCookie: string[] } | { ok: false; message: string };

/** `audited`: the new admin's `user.create` entry commits with them. */
export async function redeemFirstAdminLink(
  prisma: PrismaClient,
  users: UserAdmin,
  auth: StudioAuth,
  token: string,
  audited?: AuditedChange<UserInfo>,
): Promise<RedeemResult> {
  if (!token || token.length > 200) return { ok: false, message: "This link has no valid token." };
  const claimed = await prisma.studioSetting.deleteMany({ where: { key: KEY, value: sha256Hex(token) } });
  if (claimed.count !== 1) return { ok: false, message: "This first-admin link was already used or replaced by a newer one. Sign in instead." };
  if ((await users.count()) > 0) return { ok: false, message: "The studio already has users. Sign in instead." };
  const { user, password } = await users.createWithRandomPassword({ email: FIRST_ADMIN_EMAIL, name: "Admin", role: "admin" }, audited);
  const signedIn = await auth.api.signInEmail({ body: { email: user.email, password }, returnHeaders: true });
  return { ok: true, user, setCookie: signedIn.headers.getSetCookie() };
}
