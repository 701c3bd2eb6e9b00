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

/**
 * Each row as a card: status, tool, duration and time on one line, the arguments under them. A
 * compact table (a side panel) is always laid out so; the full one below the sm breakpoint, so a
 * phone shows every run without scrolling sideways. Literal classes: Tailwind reads them here.
 */
const CARD = {
  table: "block",
  thead: "sr-only",
  tbody: "block",
  tr: "flex flex-wrap items-center gap-x-2.5 gap-y-1 px-3 py-2",
  td: "p-0",
  tool: "min-w-0 max-w-full truncate p-0",
  args: "order-last basis-full max-w-full p-0",
  error: "p-0 empty:hidden",
  duration: "p-0 text-muted-foreground",
  started: "ml-auto p-0",
  origin: "hidden",
};
const NARROW_CARD = {
  table: "max-sm:block",
  thead: "max-sm:sr-only",
  tbody: "max-sm:block",
  tr: "max-sm:flex max-sm:flex-wrap max-sm:items-center max-sm:gap-x-2.5 max-sm:gap-y-1 max-sm:px-3 max-sm:py-2",
  td: "px-3 py-1.5 max-sm:p-0",
  tool: "px-3 py-1.5 max-sm:min-w-0 max-sm:max-w-full max-sm:truncate max-sm:p-0",
  args: "max-w-[340px] px-3 py-1.5 max-sm:order-last max-sm:basis-full max-sm:max-w-full max-sm:p-0",
  error: "px-3 py-1.5 max-sm:p-0 max-sm:empty:hidden",
  duration: "px-3 py-1.5 text-right max-sm:p-0 max-sm:text-left max-sm:text-muted-foreground",
  started: "px-3 py-1.5 max-sm:ml-auto max-sm:p-0",
  origin: "px-3 py-1.5 max-sm:hidden",
};

/** Runs newest first; every row opens the run (a click anywhere on it, or Enter on the row: arrow keys move between rows). */
/** `compact` (a narrow side panel) keeps status, arguments, duration and time. */
export function RunTable({
  runs,
  showTool = true,
  compact = false,
  selectable = false,
}: {
  runs: Run[];
  showTool?: boolean;
  compact?: boolean;
  selectable?: boolean;
}) {
  if (runs.length === 0) return <p className="p-6 text-center text-muted-foreground">No runs yet.</p>;
  const l = compact ? CARD : NARROW_CARD;
  return (
    <TableRowKeys>
      <div className="overflow-x-auto" {...tableRegion("Runs")}>
        <table className={`w-full text-left text-[13px] ${l.table}`} data-testid="run-table">
          <thead className={`border-b text-[11px] uppercase tracking-wide text-muted-foreground ${l.thead}`}>
            <tr>
              {selectable && (
                <th className="w-8 px-3 py-2">
                  <span className="sr-only">Select to compare</span>
                </th>
              )}
              <th className="px-3 py-2 font-medium">Status</th>
              {showTool && <th className="px-3 py-2 font-medium">Tool</th>}
              <th className="px-3 py-2 font-medium">Arguments</th>
              {!compact && <th className="px-3 py-2 font-medium">Error</th>}
              <th className="px-3 py-2 text-right font-medium">Duration</th>
              <th className="px-3 py-2 font-medium">Started</th>
              {!compact && <th className="px-3 py-2 font-medium">Origin</th>}
            </tr>
          </thead>
          <tbody className={l.tbody}>
            {runs.map((r, i) => (
              <tr
                key={r.id}
                data-href={`/runs/${r.id}`}
                tabIndex={i === 0 ? 0 : -1}
                className={`cursor-pointer border-b last:border-0 hover:bg-accent/50 focus-visible:bg-accent/50 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-ring ${l.tr}`}
                data-testid="run-row"
              >
                {selectable && (
                  <td className={l.td} data-row-control>
                    <input type="checkbox" name="run" value={r.id} aria-label={`Select run ${r.id} to compare`} className="size-3.5 accent-primary" />
                  </td>
                )}
                <td className={l.td}>
                  <Link href={`/runs/${r.id}`} className="block">
                    <StatusBadge status={r.status} />
                    <span className="sr-only">: open run {r.id}</span>
                  </Link>
                </td>
                {showTool && (
                  <td className={l.tool}>
                    <Link href={`/runs/${r.id}`} className="font-mono text-[12px] hover:text-primary hover:underline">
                      {r.tool}
                    </Link>
                  </td>
                )}
                <td className={`truncate font-mono text-[12px] text-muted-foreground ${l.args}`} title={JSON.stringify(r.arguments)}>
                  {argsPreview(r.arguments)}
                </td>
                {!compact && (
                  <td className={l.error}>
                    {r.error ? (
                      <Badge tone="danger" className="font-mono">
                        {r.error.kind}
                      </Badge>
                    ) : null}
                  </td>
                )}
                <td className={`tabular-nums ${l.duration}`}>{formatDuration(r.durationMs)}</td>
                <td className={`whitespace-nowrap tabular-nums text-muted-foreground ${l.started}`}>
                  <Link href={`/runs/${r.id}`} className="hover:underline" title={r.startedAt}>
                    {compact ? formatTime(r.startedAt).slice(5, 19) : formatTime(r.startedAt)}
                  </Link>
                </td>
                {!compact && (
                  <td className={l.origin}>
                    <Badge>{r.origin}</Badge>
                    {r.replayOf && (
                      <Badge tone="primary" className="ml-1" title={`replay of ${r.replayOf}`}>
                        replay
                      </Badge>
                    )}
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
