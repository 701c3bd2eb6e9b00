import type { ResourceContents } from "@/lib/tools/output";
import { JsonView } from "./JsonView";
import { ImageView } from "./ImageView";
import { audioUrl, base64Bytes, dataUrl, fileName, formatBytes, imageUrl, isMime } from "./media";
import { scrollRegion } from "@/components/ui/scroll-region";

/** Text a tool sent, as JSON when it parses as a document, else as text (escaped by React). */
export function TextBody({ text, label = "Text block" }: { text: string; label?: string }) {
  const parsed = parseJson(text);
  if (parsed.ok) return <JsonView value={parsed.value} label={label} />;
  return (
    <pre {...scrollRegion(label)} className="max-h-[480px] overflow-auto whitespace-pre-wrap break-words rounded-md bg-muted/60 p-3 font-mono text-[12px]">
      {text}
    </pre>
  );
}

export function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
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

/**
 * The contents of a resource (embedded in a result, or read through its server): text shown,
 * images and audio previewed, any blob downloadable.
 */
export function ResourceBody({ resource }: { resource: ResourceContents }) {
  if ("text" in resource) return <TextBody text={resource.text} label={`Resource ${resource.uri}`} />;
  const name = fileName(resource.uri, resource.mimeType, "resource");
  const image = imageUrl(resource.mimeType, resource.blob);
  if (image) return <ImageView src={image} alt={`Resource ${resource.uri}`} name={name} />;
  const audio = audioUrl(resource.mimeType, resource.blob);
  const href = dataUrl(isMime(resource.mimeType) ? resource.mimeType : "application/octet-stream", resource.blob);
  if (!href) return <p className="rounded-md border border-dashed p-2 text-muted-foreground">Not shown: a blob that is not valid base64.</p>;
  return (
    <div className="space-y-1.5">
      {audio && <audio controls src={audio} className="w-full max-w-md" aria-label={`Resource ${resource.uri}`} data-testid="resource-audio" />}
      <a href={href} download={name} className="text-primary underline" data-testid="resource-download">
        Download {name} ({formatBytes(base64Bytes(resource.blob))})
      </a>
    </div>
  );
}
