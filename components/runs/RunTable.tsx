import Link from "next/link";
import type { Run } from "@/lib/runs/types";
import { Badge } from "@/components/ui/Badge";
import { tableRegion } from "@/components/ui/scroll-region";
import { formatDuration, StatusBadge } from "./StatusBadge";
import { TableRowKeys } from "./TableRowKeys";

function argsPreview(args: unknown): string {
  const s = JSON.stringify(args) ?? "";
  return s.length > 90 ? s.slice(0, 89) + "…" : s;
}

export function formatTime(iso: string): string {
  const d = new Date(iso);
  return d.toISOString().replace("T", " ").slice(0, 19) + "Z";
}

/** Runs newest first; every row opens the run (a click on its links, or Enter on the row: arrow keys move between rows). */
/** `compact` (a narrow side panel) keeps status, arguments, duration and time. */
export function RunTable({ runs, showTool = true, compact = false, selectable = false }: { runs: Run[]; showTool?: boolean; compact?: boolean; selectable?: boolean }) {
  if (runs.length === 0) return <p className="p-6 text-center text-muted-foreground">No runs yet.</p>;
  return (
    <TableRowKeys>
    <div className="overflow-x-auto" {...tableRegion("Runs")}>
      <table className="w-full text-left text-[13px]" data-testid="run-table">
        <thead className="border-b text-[11px] uppercase tracking-wide text-muted-foreground">
          <tr>
            {selectable && <th className="w-8 px-3 py-2"><span className="sr-only">Select to compare</span></th>}
            <th className="px-3 py-2 font-medium">Status</th>
            {showTool && <th className="px-3 py-2 font-medium">Tool</th>}
            <th className="px-3 py-2 font-medium">Arguments</th>
            {!compact && <th className="px-3 py-2 font-medium">Error</th>}
            <th className="px-3 py-2 text-right font-medium">Duration</th>
            <th className="px-3 py-2 font-medium">Started</th>
            {!compact && <th className="px-3 py-2 font-medium">Origin</th>}
          </tr>
        </thead>
        <tbody>
          {runs.map((r, i) => (
            <tr
              key={r.id}
              data-href={`/runs/${r.id}`}
              tabIndex={i === 0 ? 0 : -1}
              className="border-b last:border-0 hover:bg-accent/50 focus-visible:bg-accent/50 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-ring"
              data-testid="run-row"
            >
              {selectable && (
                <td className="px-3 py-1.5">
                  <input type="checkbox" name="run" value={r.id} aria-label={`Select run ${r.id} to compare`} className="size-3.5 accent-primary" />
                </td>
              )}
              <td className="px-3 py-1.5">
                <Link href={`/runs/${r.id}`} className="block">
                  <StatusBadge status={r.status} />
                  <span className="sr-only">: open run {r.id}</span>
                </Link>
              </td>
              {showTool && (
                <td className="px-3 py-1.5">
                  <Link href={`/runs/${r.id}`} className="font-mono text-[12px] hover:text-primary hover:underline">{r.tool}</Link>
                </td>
              )}
              <td className={`${compact ? "max-w-[180px]" : "max-w-[340px]"} truncate px-3 py-1.5 font-mono text-[12px] text-muted-foreground`} title={JSON.stringify(r.arguments)}>
                {argsPreview(r.arguments)}
              </td>
              {!compact && <td className="px-3 py-1.5">{r.error ? <Badge tone="danger" className="font-mono">{r.error.kind}</Badge> : null}</td>}
              <td className="px-3 py-1.5 text-right tabular-nums">{formatDuration(r.durationMs)}</td>
              <td className="whitespace-nowrap px-3 py-1.5 tabular-nums text-muted-foreground">
                <Link href={`/runs/${r.id}`} className="hover:underline" title={r.startedAt}>{compact ? formatTime(r.startedAt).slice(5, 19) : formatTime(r.startedAt)}</Link>
              </td>
              {!compact && (
                <td className="px-3 py-1.5">
                  <Badge>{r.origin}</Badge>
                  {r.replayOf && <Badge tone="primary" className="ml-1" title={`replay of ${r.replayOf}`}>replay</Badge>}
                </td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
    </TableRowKeys>
  );
}
