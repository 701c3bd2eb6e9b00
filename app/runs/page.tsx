import { CursorError } from "@/lib/runs/store";
import Link from "next/link";
import { redirect } from "next/navigation";
import { Download } from "lucide-react";
import { getStudio } from "@/lib/studio/studio";
import { ERROR_KINDS } from "@/lib/tools/errors";
import { RUN_ORIGINS, RUN_STATUSES } from "@/lib/runs/types";
import { RunFilterParams, queryEntries, FILTER_KEYS } from "@/lib/runs/filter-params";
import { cleanQuery } from "@/lib/url/clean-query";

import { RunFilters } from "@/components/runs/RunFilters";
import { RunTable } from "@/components/runs/RunTable";
import { RunStatsView } from "@/components/runs/RunStatsView";
import { PurgeButton } from "@/components/runs/PurgeButton";
import { Card } from "@/components/ui/Card";
import { DisabledReason } from "@/components/ui/DisabledReason";
import { buttonClass } from "@/components/ui/button-styles";
import { allowRole } from "@/components/ui/permission";
import { pageDoor } from "@/app/_auth/door";

export const dynamic = "force-dynamic";
export const metadata = { title: "History" };

export default async function HistoryPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const principal = await pageDoor("/runs");
  const query = await searchParams;
  const raw = queryEntries(query);
  // The no-JavaScript form sends every field: answer with the same filters, empty ones left out.
  if (Object.values(query).some((v) => v === "" || (Array.isArray(v) && v.includes("")))) {
    redirect(`/runs${cleanQuery([...FILTER_KEYS, "cursor"].map((k) => [k, raw[k]] as const))}`);
  }
  const parsed = RunFilterParams.safeParse(Object.fromEntries(FILTER_KEYS.filter((k) => raw[k]).map((k) => [k, raw[k]])));
  const filter = parsed.success ? parsed.data : {};
  const studio = await getStudio();
  const [tools, facets] = await Promise.all([studio.registry.list(), studio.runs.facets()]);
  const toolNames = [...new Set([...tools.map((t) => t.name), ...facets.tools])].sort();
  const sources = [...new Set([...tools.map((t) => t.source.id), ...facets.sources])].sort();

  let page;
  let cursorError = false;
  try {
    page = await studio.runs.list({ ...filter, cursor: raw.cursor, limit: 50 });
  } catch (err) {
    if (!CursorError.isInstance(err)) throw err;
    cursorError = true;
    page = await studio.runs.list({ ...filter, limit: 50 });
  }
  const filtered = FILTER_KEYS.some((k) => raw[k]);
  const stats = filter.tool ? await studio.runs.stats(filter) : null;

  const base = new URLSearchParams(FILTER_KEYS.filter((k) => raw[k]).map((k) => [k, raw[k]!]));
  const next = page.nextCursor ? `/runs?${new URLSearchParams([...base, ["cursor", page.nextCursor]])}` : null;
  const exportHref = (format: string) => `/api/runs/export?${new URLSearchParams([...base, ["format", format]])}`;
  // Export and retention/purge are admin routes (lib/auth/routes.ts): shown to all, usable by admins.
  const admin = allowRole(principal.role, "admin", "export or purge runs");
  const adminReasonId = "runs-admin-reason";

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-end gap-3">
        <div>
          <h1 className="text-lg font-semibold tracking-tight">Run history</h1>
          <p className="text-muted-foreground">Every call of every tool, from the form, the API or MCP, newest first.</p>
        </div>
        <div className="ml-auto flex flex-col items-end gap-1">
          <div className="flex flex-wrap items-center gap-2">
            <PurgeButton canAdmin={admin.allowed} reason={admin.reason} reasonId={adminReasonId} />
            <ExportLink href={exportHref("ndjson")} label="NDJSON" reason={admin.reason} reasonId={adminReasonId} />
            <ExportLink href={exportHref("csv")} label="CSV" reason={admin.reason} reasonId={adminReasonId} />
          </div>
          {admin.reason && <DisabledReason id={adminReasonId} reason={admin.reason} testId="runs-admin-reason" />}
        </div>
      </div>
      <RunFilters options={{ tool: toolNames, source: sources, status: RUN_STATUSES, errorKind: ERROR_KINDS, origin: RUN_ORIGINS, actor: facets.actors }} />
      {!parsed.success && (
        <p role="alert" className="text-destructive">
          Some filters were ignored: {parsed.error.issues.map((i) => `${i.path.join(".")} ${i.message}`).join("; ")}
        </p>
      )}
      {cursorError && (
        <p role="alert" className="text-warning-foreground">
          That page link was not valid; showing the newest runs.
        </p>
      )}
      {stats && <RunStatsView stats={stats} />}
      <Card bodyClassName="p-0">
        {page.runs.length === 0 && filtered ? (
          <p className="p-6 text-center text-muted-foreground">
            No run matches these filters.{" "}
            <Link href="/runs" className="text-primary underline">
              Clear them
            </Link>
          </p>
        ) : (
          <form method="get" action="/runs/compare" id="compare-form">
            <RunTable runs={page.runs} selectable />
          </form>
        )}
      </Card>
      <div className="flex flex-wrap items-center gap-2">
        {raw.cursor && (
          <Link href={`/runs?${base}`} className={buttonClass.secondary}>
            ← Newest
          </Link>
        )}
        {next && (
          <Link href={next} className={buttonClass.secondary} data-testid="next-page">
            Older →
          </Link>
        )}
        <span className="text-muted-foreground">
          {page.runs.length} run{page.runs.length === 1 ? "" : "s"} on this page
        </span>
        <button type="submit" form="compare-form" className={`${buttonClass.secondary} ml-auto`} data-testid="compare-selected">
          Compare two selected
        </button>
      </div>
    </div>
  );
}

/** A download link, or (reason set) the same link shown disabled: no href, aria-disabled, the reason as title. */
function ExportLink({ href, label, reason, reasonId }: { href: string; label: string; reason: string | null; reasonId: string }) {
  if (!reason) {
    return (
      <a href={href} className={buttonClass.secondary} download data-testid={`export-${label.toLowerCase()}`}>
        <Download className="size-3.5" /> {label}
      </a>
    );
  }
  return (
    <a
      role="link"
      aria-disabled="true"
      tabIndex={0}
      title={reason}
      aria-describedby={reasonId}
      className={`${buttonClass.secondary} cursor-not-allowed`}
      data-testid={`export-${label.toLowerCase()}`}
    >
      <Download className="size-3.5" /> {label}
    </a>
  );
}
