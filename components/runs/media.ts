/**
 * What a tool or server sends is untrusted: media only become data: URLs with a checked MIME type
 * and base64 body, links only open when http(s). Pure helpers, shared by server and client parts.
 */
const MIME = /^[a-z0-9][a-z0-9!#$&^_.+-]*\/[a-z0-9][a-z0-9!#$&^_.+-]*$/i;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
// SVG is shown only through <img>, where it cannot run script (never as a page of its own).
export const IMAGE_TYPES = new Set(["image/png", "image/jpeg", "image/gif", "image/webp", "image/avif", "image/bmp", "image/svg+xml"]);

export function isMime(v: string | undefined): v is string {
  return typeof v === "string" && MIME.test(v);
}

export function dataUrl(mimeType: string, data: string): string | null {
  const body = data.replace(/\s+/g, "");
  if (!MIME.test(mimeType) || !BASE64.test(body)) return null;
  return `data:${mimeType};base64,${body}`;
}

/** An image the page may show (a known raster type, valid base64), else null. */
export const imageUrl = (mimeType: string | undefined, data: string): string | null =>
  mimeType && IMAGE_TYPES.has(mimeType.toLowerCase()) ? dataUrl(mimeType, data) : null;

/** Audio the page may play, else null. */
export const audioUrl = (mimeType: string | undefined, data: string): string | null =>
  mimeType?.toLowerCase().startsWith("audio/") ? dataUrl(mimeType, data) : null;

export function safeHref(uri: string): string | null {
  try {
    const u = new URL(uri);
    return u.protocol === "http:" || u.protocol === "https:" ? u.href : null;
  } catch {
    return null;
  }
}

export function formatBytes(n: number): string {
  return n < 1024 ? `${n} B` : n < 1024 * 1024 ? `${(n / 1024).toFixed(1)} KB` : `${(n / 1024 / 1024).toFixed(1)} MB`;
}

/** Bytes of a base64 body. */
export const base64Bytes = (b64: string): number => {
  const body = b64.replace(/\s+/g, "");
  return Math.max(0, Math.floor((body.length * 3) / 4) - (body.endsWith("==") ? 2 : body.endsWith("=") ? 1 : 0));
};

const EXTENSIONS: Record<string, string> = {
  "image/png": "png",
  "image/jpeg": "jpg",
  "image/gif": "gif",
  "image/webp": "webp",
  "image/avif": "avif",
  "image/bmp": "bmp",
  "image/svg+xml": "svg",
  "audio/wav": "wav",
  "audio/mpeg": "mp3",
  "audio/ogg": "ogg",
};

/** A download name: the URI's last segment when it has one, else `<fallback>.<extension of the type>`. */
export function fileName(uri: string | undefined, mimeType: string | undefined, fallback: string): string {
  const last = uri
    ?.split(/[/:?#]/)
    .filter(Boolean)
    .pop();
  const clean = last?.replace(/[^\w.-]+/g, "_").slice(0, 120);
  if (clean && clean.includes(".")) return clean;
  const ext = (mimeType && EXTENSIONS[mimeType.toLowerCase()]) || "bin";
  return `${clean || fallback}.${ext}`;
}
