import { createHash, timingSafeEqual } from "node:crypto";

/** Constant-time comparison: both sides are hashed first, so neither content nor length leaks. */
export function sameSecret(presented: string, expected: string): boolean {
  const a = createHash("sha256").update(presented, "utf8").digest();
  const b = createHash("sha256").update(expected, "utf8").digest();
  return timingSafeEqual(a, b);
}

export const sha256Hex = (s: string): string => createHash("sha256").update(s, "utf8").digest("hex");

/** The token of an `Authorization: Bearer <token>` header, else null. */
export function bearerToken(header: string | null | undefined): string | null {
  const m = header?.match(/^\s*Bearer\s+(\S+)\s*$/i);
  return m ? m[1]! : null;
}
