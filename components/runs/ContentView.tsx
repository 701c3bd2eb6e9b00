import type { ContentBlock } from "@/lib/tools/output";
import { Badge } from "@/components/ui/Badge";
import { JsonView } from "./JsonView";
import { scrollRegion } from "@/components/ui/scroll-region";

/**
 * Renders every MCP content kind. Everything a tool sends is untrusted: text goes through React
 * (escaped), media only as data: URLs with a checked MIME type and base64 body, links only http(s).
 */
const MIME = /^[a-z0-9][a-z0-9!#$&^_.+-]*\/[a-z0-9][a-z0-9!#$&^_.+-]*$/i;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const IMAGE_TYPES = new Set(["image/png", "image/jpeg", "image/gif", "image/webp", "image/avif", "image/bmp", "image/svg+xml"]);

function dataUrl(mimeType: string, data: string): string | null {
  if (!MIME.test(mimeType) || !BASE64.test(data.replace(/\s+/g, ""))) return null;
  return `data:${mimeType};base64,${data.replace(/\s+/g, "")}`;
}

function safeHref(uri: string): string | null {
  try {
    const u = new URL(uri);
    return u.protocol === "http:" || u.protocol === "https:" ? u.href : null;
  } catch {
    return null;
  }
}

function formatBytes(n: number): string {
  return n < 1024 ? `${n} B` : n < 1024 * 1024 ? `${(n / 1024).toFixed(1)} KB` : `${(n / 1024 / 1024).toFixed(1)} MB`;
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  const trimmed = text.trim();
  if ((trimmed.startsWith("{") || trimmed.startsWith("[")) && trimmed.length < 2_000_000) {
    try {
      return { ok: true, value: JSON.parse(trimmed) };
    } catch {
      // not JSON: shown as text
    }
  }
  return { ok: false };
}

function Text({ text, structured }: { text: string; structured?: string }) {
  const parsed = parseJson(text);
  if (parsed.ok) {
    // Tools send structured content again as text for older clients: no need to read it twice.
    if (structured !== undefined && canonical(parsed.value) === structured) {
      return (
        <details className="rounded-md border px-3 py-2 text-muted-foreground">
          <summary className="cursor-pointer select-none">Text block: the structured content above, as JSON text</summary>
          <JsonView value={parsed.value} className="mt-2" label="Text block as JSON" />
        </details>
      );
    }
    return <JsonView value={parsed.value} label="Text block" />;
  }
  return <pre {...scrollRegion("Text block")} className="max-h-[480px] overflow-auto whitespace-pre-wrap break-words rounded-md bg-muted/60 p-3 font-mono text-[12px]">{text}</pre>;
}

function canonical(v: unknown): string {
  return JSON.stringify(v, (_k, x) =>
    x && typeof x === "object" && !Array.isArray(x) ? Object.fromEntries(Object.entries(x).sort(([a], [b]) => (a < b ? -1 : 1))) : x,
  );
}

function Block({ block, structured }: { block: ContentBlock; structured?: string }) {
  switch (block.type) {
    case "text":
      return <Text text={String(block.text ?? "")} structured={structured} />;
    case "image": {
      const src = IMAGE_TYPES.has(block.mimeType) ? dataUrl(block.mimeType, block.data) : null;
      if (!src) return <Unsupported what={`image of type ${block.mimeType}`} />;
      // eslint-disable-next-line @next/next/no-img-element
      return <img src={src} alt="Image returned by the tool" className="max-h-[480px] max-w-full rounded-md border bg-white" />;
    }
    case "audio": {
      const src = block.mimeType?.startsWith("audio/") ? dataUrl(block.mimeType, block.data) : null;
      if (!src) return <Unsupported what={`audio of type ${block.mimeType}`} />;
      return <audio controls src={src} className="w-full max-w-md" />;
    }
    case "resource_link": {
      const href = safeHref(block.uri);
      return (
        <div className="rounded-md border p-3">
          <div className="flex flex-wrap items-center gap-2">
            <Badge tone="primary">resource link</Badge>
            <span className="font-medium">{block.title || block.name}</span>
            {block.mimeType && <Badge>{block.mimeType}</Badge>}
            {typeof block.size === "number" && <span className="text-muted-foreground">{formatBytes(block.size)}</span>}
          </div>
          {block.description && <p className="mt-1 text-muted-foreground">{block.description}</p>}
          {href ? (
            <a href={href} target="_blank" rel="noopener noreferrer nofollow" className="mt-1 block break-all font-mono text-[12px] text-primary underline">{block.uri}</a>
          ) : (
            <code className="mt-1 block break-all font-mono text-[12px] text-muted-foreground">{block.uri}</code>
          )}
        </div>
      );
    }
    case "resource": {
      const r = block.resource;
      return (
        <div className="rounded-md border p-3">
          <div className="mb-2 flex flex-wrap items-center gap-2">
            <Badge tone="primary">embedded resource</Badge>
            <code className="break-all font-mono text-[12px]">{r.uri}</code>
            {r.mimeType && <Badge>{r.mimeType}</Badge>}
          </div>
          {"text" in r ? (
            <Text text={r.text} />
          ) : (
            <BlobDownload uri={r.uri} mimeType={r.mimeType} blob={r.blob} />
          )}
        </div>
      );
    }
    default:
      return (
        <div>
          <Unsupported what={`content of type ${String((block as { type?: unknown }).type)}`} />
          <JsonView value={block} />
        </div>
      );
  }
}

function BlobDownload({ uri, mimeType, blob }: { uri: string; mimeType?: string; blob: string }) {
  const href = dataUrl(MIME.test(mimeType ?? "") ? mimeType! : "application/octet-stream", blob);
  const name = uri.split(/[/:]/).filter(Boolean).pop() || "resource.bin";
  const size = Math.floor((blob.length * 3) / 4);
  return href ? (
    <a href={href} download={name} className="text-primary underline">Download {name} ({formatBytes(size)})</a>
  ) : (
    <Unsupported what="a blob that is not valid base64" />
  );
}

function Unsupported({ what }: { what: string }) {
  return <p className="rounded-md border border-dashed p-2 text-muted-foreground">Not shown: {what}.</p>;
}

export function ContentView({ content, structuredContent }: { content: ContentBlock[]; structuredContent?: unknown }) {
  if (!content.length) return <p className="text-muted-foreground">The tool returned no content blocks.</p>;
  const structured = structuredContent === undefined ? undefined : canonical(structuredContent);
  return (
    <div className="space-y-3">
      {content.map((b, i) => (
        <div key={i} data-testid={`content-${b.type}`}>
          <Block block={b} structured={structured} />
        </div>
      ))}
    </div>
  );
}
