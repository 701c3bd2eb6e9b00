import { randomBytes } from "node:crypto";

export const newNonce = (): string => randomBytes(16).toString("base64");

/**
 * The pages' Content-Security-Policy: scripts only from this origin with this response's
 * nonce (and what they load), no framing, no plugins. Styles allow inline: React style
 * attributes and Monaco's injected styles need it. Images and media allow data: and blob:, as
 * tool results are shown as data: URLs. Workers (Monaco's) come from this origin or blob:.
 */
export function contentSecurityPolicy(nonce: string, opts: { dev?: boolean } = {}): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${opts.dev ? " 'unsafe-eval'" : ""}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "media-src 'self' data: blob:",
    "font-src 'self' data:",
    `connect-src 'self'${opts.dev ? " ws: wss:" : ""}`,
    "worker-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}
