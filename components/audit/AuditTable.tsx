import Link from "next/link";
import type { AuditEntry, AuditVerifyReport } from "@/lib/audit/log";
import { actorLabel } from "@/lib/auth/principal";
import { Badge } from "@/components/ui/Badge";
import { formatTime } from "@/components/runs/RunTable";
import { scrollRegion } from "@/components/ui/scroll-region";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** `key=value` pairs of a detail object, short enough for a table cell. */
export function summarizeDetail(detail: unknown, max = 120): string {
  if (detail === null || detail === undefined) return "";
  let s: string;
  if (typeof detail === "object" && !Array.isArray(detail)) {
    s = Object.entries(detail as Record<string, unknown>)
      .filter(([, v]) => v !== null && v !== undefined)
      .map(([k, v]) => `${k}=${typeof v === "string" ? (/^[0-9a-f]{64}$/.test(v) ? v.slice(0, 12) + "…" : v) : JSON.stringify(v)}`)
      .join(" ");
  } else s = JSON.stringify(detail) ?? "";
  return s.length > max ? s.slice(0, max - 1) + "…" : s;
}

/** The result of the chain check, for the page header. */
export function ChainBadge({ report, error }: { report: AuditVerifyReport | null; error?: boolean }) {
  if (!report || error) {
    return (
      <Badge tone="warning" className="text-[12px]">
        <span data-testid="audit-chain">chain check failed (see the server log)</span>
      </Badge>
    );
  }
  if (report.ok) {
    const title = report.head ? `head #${report.head.seq} ${report.head.hash}` : "the log is empty";
    return (
      <Badge tone="success" title={title} className="text-[12px]">
        <span data-testid="audit-chain" data-ok="true">{`chain verified: ${report.entries} ${report.entries === 1 ? "entry" : "entries"}`}</span>
      </Badge>
    );
  }
  const bad = report.firstBad!;
  return (
    <Badge tone="danger" title={`${report.entries} entries before it are intact`} className="text-[12px]">
      <span data-testid="audit-chain" data-ok="false">{`chain broken at #${bad.seq}: ${bad.reason}`}</span>
    </Badge>
  );
}

/** Audit entries newest first. Everything is React text (escaped); links only to known shapes. */
export function AuditTable({ entries }: { entries: AuditEntry[] }) {
  if (entries.length === 0) return <p className="p-6 text-center text-muted-foreground">No audit entries.</p>;
  return (
    <div className="overflow-x-auto" {...scrollRegion("Audit entries")}>
      <table className="w-full text-left text-[13px] max-sm:block" data-testid="audit-table">
        <thead className="border-b text-[11px] uppercase tracking-wide text-muted-foreground max-sm:sr-only">
          <tr>
            <th className="px-3 py-2 text-right font-medium">#</th>
            <th className="px-3 py-2 font-medium">Time</th>
            <th className="px-3 py-2 font-medium">Actor</th>
            <th className="px-3 py-2 font-medium">Action</th>
            <th className="px-3 py-2 font-medium">Target</th>
            <th className="px-3 py-2 font-medium">Detail</th>
            <th className="px-3 py-2 font-medium">Hash</th>
          </tr>
        </thead>
        <tbody className="max-sm:block">
          {entries.map((e) => {
            const runId = e.action === "run" && e.detail && typeof e.detail === "object" ? (e.detail as { runId?: unknown }).runId : undefined;
            const summary = summarizeDetail(e.detail);
            return (
              <tr
                key={e.seq}
                className="border-b last:border-0 hover:bg-accent/50 max-sm:flex max-sm:flex-wrap max-sm:items-center max-sm:gap-x-2.5 max-sm:gap-y-0.5 max-sm:px-3 max-sm:py-2"
                data-testid="audit-row"
                data-action={e.action}
              >
                <td className="px-3 py-1.5 text-right tabular-nums text-muted-foreground max-sm:p-0">{e.seq}</td>
                <td className="whitespace-nowrap px-3 py-1.5 tabular-nums text-muted-foreground max-sm:order-1 max-sm:ml-auto max-sm:p-0" title={e.at}>
                  {formatTime(e.at)}
                </td>
                <td
                  className="max-w-[200px] break-words px-3 py-1.5 font-mono text-[12px] max-sm:order-2 max-sm:max-w-full max-sm:basis-full max-sm:p-0"
                  title={e.from ? `${e.actor} from ${e.from}` : e.actor}
                  data-testid="audit-actor"
                >
                  {actorLabel(e.actor)}
                </td>
                <td className="px-3 py-1.5 max-sm:p-0">
                  <Badge tone={e.action === "run" ? "neutral" : "primary"} className="font-mono">
                    {e.action}
                  </Badge>
                </td>
                <td
                  className="max-w-[220px] truncate px-3 py-1.5 font-mono text-[12px] max-sm:order-3 max-sm:max-w-full max-sm:basis-full max-sm:p-0"
                  title={e.target ?? undefined}
                >
                  {e.target ?? "—"}
                </td>
                <td
                  className="max-w-[420px] truncate px-3 py-1.5 font-mono text-[12px] text-muted-foreground max-sm:order-4 max-sm:max-w-full max-sm:basis-full max-sm:p-0"
                  title={e.detail == null ? undefined : JSON.stringify(e.detail)}
                >
                  {typeof runId === "string" && UUID.test(runId) ? (
                    <Link href={`/runs/${runId}`} className="hover:text-primary hover:underline">
                      {summary}
                    </Link>
                  ) : (
                    summary
                  )}
                </td>
                <td className="px-3 py-1.5 font-mono text-[12px] text-muted-foreground max-sm:hidden" title={`hash ${e.hash}\nprev ${e.prevHash}`}>
                  {e.hash.slice(0, 12)}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
