import Link from "next/link";
import type { Run } from "@/lib/runs/types";
import { Badge } from "@/components/ui/Badge";
import type { Allowance } from "@/components/ui/permission";
import { ContentView } from "./ContentView";
import { JsonView } from "./JsonView";
import { formatDuration, StatusBadge } from "./StatusBadge";

/**
 * A run's outcome: status line, error with its kind and field details, output, schema verdict.
 * `readAccess`: may the viewer read the run's resource links through its tool's MCP server.
 */
export function RunOutput({ run, showLink = true, readAccess }: { run: Run; showLink?: boolean; readAccess?: Allowance }) {
  const server = run.source.startsWith("mcp:") ? run.source.slice(4) : null;
  const reader = readAccess ? { server, access: readAccess } : undefined;
  return (
    <div className="space-y-3" data-testid="run-output" data-status={run.status}>
      <div className="flex flex-wrap items-center gap-2">
        <StatusBadge status={run.status} />
        <span className="text-muted-foreground">
          {run.status === "queued" ? "Waiting in the job queue for a worker; reload to see it run." : formatDuration(run.durationMs)}
        </span>
        {run.outputValid === true && (
          <Badge tone="success" title="structuredContent matches the declared outputSchema">
            output matches schema
          </Badge>
        )}
        {run.outputValid === false && (
          <Badge tone="danger" title="structuredContent does not match the declared outputSchema">
            output violates schema
          </Badge>
        )}
        {showLink && (
          <Link href={`/runs/${run.id}`} className="ml-auto font-mono text-[12px] text-primary hover:underline">
            run {run.id.slice(0, 8)} →
          </Link>
        )}
      </div>

      {run.error && (
        <div role="alert" className="rounded-md border border-destructive/30 bg-destructive/5 p-3">
          <div className="flex items-center gap-2">
            <Badge tone="danger" className="font-mono">
              {run.error.kind}
            </Badge>
            <span className="font-medium">{run.error.message}</span>
          </div>
          {run.error.details && run.error.details.length > 0 && (
            <ul className="mt-2 space-y-0.5 font-mono text-[12px]" data-testid="error-details">
              {run.error.details.map((d, i) => (
                <li key={i}>
                  <span className="text-destructive">{d.path || "(arguments)"}</span> {d.message}
                </li>
              ))}
            </ul>
          )}
        </div>
      )}

      {run.outputErrors && run.outputErrors.length > 0 && (
        <div className="rounded-md border border-warning/40 bg-warning/10 p-3">
          <p className="font-medium">Structured content does not match the outputSchema:</p>
          <ul className="mt-1 font-mono text-[12px]">
            {run.outputErrors.map((d, i) => (
              <li key={i}>
                {d.path || "(root)"} {d.message}
              </li>
            ))}
          </ul>
        </div>
      )}

      {run.output && (
        <>
          {run.output.structuredContent !== undefined && (
            <div>
              <h3 className="mb-1 text-[12px] font-semibold uppercase tracking-wide text-muted-foreground">Structured content</h3>
              <JsonView value={run.output.structuredContent} label="Structured content" />
            </div>
          )}
          <div>
            <h3 className="mb-1 text-[12px] font-semibold uppercase tracking-wide text-muted-foreground">Content</h3>
            <ContentView content={run.output.content} structuredContent={run.output.structuredContent} reader={reader} />
          </div>
        </>
      )}
    </div>
  );
}
