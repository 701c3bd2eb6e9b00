import Link from "next/link";
import { describeChange } from "@/lib/inference/revisions";
import type { ShapeRevisionInfo } from "@/lib/inference/store";
import { Badge } from "@/components/ui/Badge";

// Rendered as React text only: paths come from tool outputs.

const formatTime = (iso: string) => iso.replace("T", " ").slice(0, 19) + "Z";

/** The timeline of a tool's observed output shape: each revision, the run that made it, and what changed since the one before. */
export function ShapeRevisions({ revisions }: { revisions: ShapeRevisionInfo[] }) {
  if (!revisions.length) return <p className="text-muted-foreground">No shape recorded yet.</p>;
  return (
    <ol className="divide-y rounded-md border text-[13px]" data-testid="shape-revisions">
      {revisions.map((r) => (
        <li key={r.revision} className="px-3 py-2" data-testid="shape-revision">
          <div className="flex flex-wrap items-baseline gap-x-3 gap-y-0.5">
            <Badge tone={r.revision === 1 ? "neutral" : "warning"}>revision {r.revision}</Badge>
            <span className="tabular-nums text-muted-foreground">{formatTime(r.createdAt)}</span>
            {r.runId ? (
              <Link href={`/runs/${encodeURIComponent(r.runId)}`} className="font-mono text-[12px] text-primary hover:underline">
                run {r.runId.slice(0, 8)}
              </Link>
            ) : (
              <span className="text-muted-foreground">rebuilt from history</span>
            )}
            <span className="text-muted-foreground">
              after {r.samples} output{r.samples === 1 ? "" : "s"}
            </span>
          </div>
          {r.revision === 1 ? (
            <p className="mt-1 text-muted-foreground">First observed shape.</p>
          ) : (
            <ul className="mt-1 space-y-0.5 font-mono text-[12px]" aria-label={`Changes in revision ${r.revision}`}>
              {r.changes.map((c) => (
                <li key={`${c.change} ${c.path}`}>
                  <span className={c.change === "optional" || c.change === "type" ? "text-destructive" : "text-foreground"}>
                    {c.change === "required" || c.change === "added" ? "+ " : c.change === "optional" ? "− " : "~ "}
                  </span>
                  {describeChange(c)}
                </li>
              ))}
            </ul>
          )}
        </li>
      ))}
    </ol>
  );
}
