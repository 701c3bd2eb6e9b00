import type { ContentBlock, ResourceContents, ResourceLink } from "@/lib/tools/output";
import { Badge } from "@/components/ui/Badge";
import { JsonView } from "./JsonView";
import { ImageView } from "./ImageView";
import { ResourceBody, TextBody, parseJson } from "./ResourceBody";
import { ResourceLinkView, type ResourceAccess } from "./ResourceLinkView";
import { audioUrl, fileName, imageUrl } from "./media";

/**
 * Renders every MCP content kind. Everything a tool sends is untrusted: text goes through React
 * (escaped), media only as data: URLs with a checked MIME type and base64 body (media.ts), links
 * open only when http(s); other schemes are read through the tool's server (ResourceLinkView).
 */

function Text({ text, structured }: { text: string; structured?: string }) {
  const parsed = parseJson(text);
  // Tools send structured content again as text for older clients: no need to read it twice.
  if (parsed.ok && structured !== undefined && canonical(parsed.value) === structured) {
    return (
      <details className="rounded-md border px-3 py-2 text-muted-foreground">
        <summary className="cursor-pointer select-none">Text block: the structured content above, as JSON text</summary>
        <JsonView value={parsed.value} className="mt-2" label="Text block as JSON" />
      </details>
    );
  }
  return <TextBody text={text} />;
}

function canonical(v: unknown): string {
  return JSON.stringify(v, (_k, x) =>
    x && typeof x === "object" && !Array.isArray(x) ? Object.fromEntries(Object.entries(x).sort(([a], [b]) => (a < b ? -1 : 1))) : x,
  );
}

/** A block's annotations (audience, priority, last modified), in words. */
function Annotations({ a }: { a: ContentBlock["annotations"] }) {
  if (!a || typeof a !== "object") return null;
  const parts: string[] = [];
  if (Array.isArray(a.audience) && a.audience.length) parts.push(`for ${a.audience.filter((x) => typeof x === "string").join(" and ")}`);
  if (typeof a.priority === "number" && Number.isFinite(a.priority)) parts.push(`priority ${a.priority}`);
  if (typeof a.lastModified === "string") {
    const t = Date.parse(a.lastModified);
    parts.push(`modified ${Number.isNaN(t) ? a.lastModified.slice(0, 40) : new Date(t).toISOString().slice(0, 16).replace("T", " ") + "Z"}`);
  }
  if (!parts.length) return null;
  return (
    <p
      className="mb-1 flex flex-wrap items-center gap-1.5 text-[11px] text-muted-foreground"
      data-testid="content-annotations"
      title="The block's annotations: who it is meant for, how important it is, when it changed"
    >
      {parts.map((p) => (
        <Badge key={p} tone="neutral">
          {p}
        </Badge>
      ))}
    </p>
  );
}

const str = (v: unknown): string => (typeof v === "string" ? v : "");

/** Embedded contents as the page can show them: a string uri and a string text or blob, else null. */
function contentsOf(r: unknown): ResourceContents | null {
  if (!r || typeof r !== "object") return null;
  const c = r as Record<string, unknown>;
  const mimeType = typeof c.mimeType === "string" ? { mimeType: c.mimeType } : {};
  if (typeof c.text === "string") return { uri: str(c.uri), ...mimeType, text: c.text };
  if (typeof c.blob === "string") return { uri: str(c.uri), ...mimeType, blob: c.blob };
  return null;
}

function Block({ block, structured, index, reader }: { block: ContentBlock; structured?: string; index: number; reader?: ResourceAccess }) {
  switch (block.type) {
    case "text":
      return <Text text={String(block.text ?? "")} structured={structured} />;
    case "image": {
      const src = imageUrl(block.mimeType, String(block.data ?? ""));
      if (!src) return <Unsupported what={`image of type ${block.mimeType}`} />;
      return <ImageView src={src} alt={`Image ${index + 1} returned by the tool`} name={fileName(undefined, block.mimeType, `image-${index + 1}`)} />;
    }
    case "audio": {
      const src = audioUrl(block.mimeType, String(block.data ?? ""));
      if (!src) return <Unsupported what={`audio of type ${block.mimeType}`} />;
      return <audio controls src={src} className="w-full max-w-md" aria-label={`Audio ${index + 1} returned by the tool`} />;
    }
    case "resource_link": {
      // Fields as strings (the server's JSON is passed on unchecked; a number or object is dropped).
      const link: ResourceLink = {
        type: "resource_link",
        uri: str(block.uri),
        name: str(block.name),
        title: str(block.title),
        description: str(block.description),
        mimeType: str(block.mimeType),
      };
      if (typeof block.size === "number") link.size = block.size;
      return <ResourceLinkView block={link} reader={reader} />;
    }
    case "resource": {
      const r = contentsOf(block.resource);
      if (!r) return <Unsupported what="an embedded resource without text or a blob" />;
      return (
        <div className="rounded-md border p-3">
          <div className="mb-2 flex flex-wrap items-center gap-2">
            <Badge tone="primary">embedded resource</Badge>
            <code className="break-all font-mono text-[12px]">{r.uri}</code>
            {r.mimeType && <Badge>{r.mimeType}</Badge>}
          </div>
          <ResourceBody resource={r} />
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

function Unsupported({ what }: { what: string }) {
  return <p className="rounded-md border border-dashed p-2 text-muted-foreground">Not shown: {what}.</p>;
}

/** `reader`: where the run's resource links can be read (its tool's MCP server), when it has one. */
export function ContentView({ content, structuredContent, reader }: { content: ContentBlock[]; structuredContent?: unknown; reader?: ResourceAccess }) {
  if (!content.length) return <p className="text-muted-foreground">The tool returned no content blocks.</p>;
  const structured = structuredContent === undefined ? undefined : canonical(structuredContent);
  return (
    <div className="space-y-3">
      {content.map((b, i) =>
        b && typeof b === "object" ? (
          <div key={i} data-testid={`content-${str(b.type) || "unknown"}`}>
            <Annotations a={b.annotations} />
            <Block block={b} structured={structured} index={i} reader={reader} />
          </div>
        ) : (
          <Unsupported key={i} what="a content block that is not an object" />
        ),
      )}
    </div>
  );
}
