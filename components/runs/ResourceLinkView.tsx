"use client";
import { useId, useState } from "react";
import { BookOpen, Loader2 } from "lucide-react";
import type { ResourceContents, ResourceLink } from "@/lib/tools/output";
import { Badge } from "@/components/ui/Badge";
import { buttonClass } from "@/components/ui/button-styles";
import { DisabledReason } from "@/components/ui/DisabledReason";
import { reportError } from "@/components/ui/report-error";
import type { Allowance } from "@/components/ui/permission";
import { ResourceBody } from "./ResourceBody";
import { formatBytes, safeHref } from "./media";

/** Where a run's resource links can be read: the MCP server of its tool, and whether the viewer may. */
export interface ResourceAccess {
  server: string | null;
  access: Allowance;
}

type ReadState = { state: "idle" } | { state: "reading" } | { state: "read"; contents: ResourceContents[] } | { state: "failed"; message: string };

/**
 * A resource_link: its facts, an http(s) link opened in a new tab, and "Read" for any scheme,
 * which reads it through the server that owns it (POST /api/servers/{server}/resources/read) and
 * shows the contents in place.
 */
export function ResourceLinkView({ block, reader }: { block: ResourceLink; reader?: ResourceAccess }) {
  const [read, setRead] = useState<ReadState>({ state: "idle" });
  const href = safeHref(block.uri);
  const server = reader?.server ?? null;

  const doRead = async () => {
    if (!server) return;
    setRead({ state: "reading" });
    try {
      const res = await fetch(`/api/servers/${encodeURIComponent(server)}/resources/read`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ uri: block.uri }),
      });
      const body = await res.json().catch(() => null);
      if (!res.ok) setRead({ state: "failed", message: body?.error?.message ?? `The studio answered ${res.status}.` });
      else if (!Array.isArray(body?.contents)) setRead({ state: "failed", message: "The studio's answer had no contents." });
      else setRead({ state: "read", contents: body.contents as ResourceContents[] });
    } catch (e) {
      setRead({ state: "failed", message: `The read did not reach the studio: ${(e as Error).message}` });
    }
  };

  const reasonId = useId();
  return (
    <div className="rounded-md border p-3" data-testid="resource-link">
      <div className="flex flex-wrap items-center gap-2">
        <Badge tone="primary">resource link</Badge>
        <span className="font-medium">{block.title || block.name}</span>
        {block.mimeType && <Badge>{block.mimeType}</Badge>}
        {typeof block.size === "number" && <span className="text-muted-foreground">{formatBytes(block.size)}</span>}
        {server && (
          <span className="ml-auto flex flex-wrap items-center gap-2">
            {!reader!.access.allowed && reader!.access.reason && <DisabledReason id={reasonId} reason={reader!.access.reason} className="max-w-xs" />}
            <button
              type="button"
              className={buttonClass.secondary}
              onClick={() => doRead().catch(reportError)}
              disabled={!reader!.access.allowed || read.state === "reading"}
              aria-describedby={!reader!.access.allowed ? reasonId : undefined}
              title={`Read it through the MCP server "${server}"`}
              data-testid="resource-read"
            >
              {read.state === "reading" ? <Loader2 className="size-3.5 animate-spin" aria-hidden /> : <BookOpen className="size-3.5" aria-hidden />}
              {read.state === "read" ? "Read again" : "Read"}
            </button>
          </span>
        )}
      </div>
      {block.description && <p className="mt-1 text-muted-foreground">{block.description}</p>}
      {href ? (
        <a href={href} target="_blank" rel="noopener noreferrer nofollow" className="mt-1 block break-all font-mono text-[12px] text-primary underline">
          {block.uri}
        </a>
      ) : (
        <code className="mt-1 block break-all font-mono text-[12px] text-muted-foreground">{block.uri}</code>
      )}
      {reader && !server && !href && (
        <p className="mt-1 text-[12px] text-muted-foreground">No MCP server owns this link (a built-in tool sent it), so it cannot be read here.</p>
      )}
      <div aria-live="polite" className="empty:hidden" data-testid="resource-read-result">
        {read.state === "failed" && (
          <p role="alert" className="mt-2 text-destructive">
            Could not read it: {read.message}
          </p>
        )}
        {read.state === "read" &&
          (read.contents.length ? (
            <div className="mt-2 space-y-2 border-t pt-2">
              {read.contents.map((c, i) => (
                <div key={i}>
                  {read.contents.length > 1 && <code className="mb-1 block break-all font-mono text-[12px] text-muted-foreground">{c.uri}</code>}
                  <ResourceBody resource={c} />
                </div>
              ))}
            </div>
          ) : (
            <p className="mt-2 text-muted-foreground">The server returned no contents for it.</p>
          ))}
      </div>
    </div>
  );
}
