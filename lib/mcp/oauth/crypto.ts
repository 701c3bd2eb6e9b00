import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";

const VERSION = "v1";
const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * AES-256-GCM for the OAuth secrets the studio keeps for MCP servers (client registrations,
 * tokens, PKCE verifiers). The key is derived with HKDF-SHA256 from the studio's auth secret
 * (BETTER_AUTH_SECRET, or the one generated on first start and kept in the database: every
 * instance derives the same key), never stored. Each value carries its own random IV; the
 * additional data names what it is (e.g. "tokens:github"), so a ciphertext moved to another
 * row or field does not decrypt. Format: `v1.<iv>.<tag>.<ciphertext>` (base64url).
 */
export class SecretBox {
  private readonly key: Buffer;

  constructor(secret: string) {
    if (!secret) throw new Error("SecretBox needs the studio's auth secret");
    this.key = Buffer.from(hkdfSync("sha256", secret, "tool-studio", "mcp-oauth/aes-256-gcm/v1", 32));
  }

  seal(plaintext: string, aad: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv("aes-256-gcm", this.key, iv);
    cipher.setAAD(Buffer.from(aad, "utf8"));
    const body = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
    return [VERSION, iv.toString("base64url"), cipher.getAuthTag().toString("base64url"), body.toString("base64url")].join(".");
  }

  /** The plaintext; throws when the value was altered, sealed for other data, or with another key. */
  open(sealed: string, aad: string): string {
    const [version, iv, tag, body] = sealed.split(".");
    if (version !== VERSION || iv === undefined || tag === undefined || body === undefined) throw new Error("not a sealed value");
    const ivBytes = Buffer.from(iv, "base64url");
    const tagBytes = Buffer.from(tag, "base64url");
    if (ivBytes.length !== IV_BYTES || tagBytes.length !== TAG_BYTES) throw new Error("not a sealed value");
    const decipher = createDecipheriv("aes-256-gcm", this.key, ivBytes);
    decipher.setAAD(Buffer.from(aad, "utf8"));
    decipher.setAuthTag(tagBytes);
    return Buffer.concat([decipher.update(Buffer.from(body, "base64url")), decipher.final()]).toString("utf8");
  }
}
