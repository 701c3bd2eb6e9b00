import { AuditCursorError } from "@/lib/audit/log";
import Link from "next/link";
import { z } from "zod";
import { AUDIT_ACTIONS, parseInstant, verifyShared, type AuditFilter, type AuditVerifyReport } from "@/lib/audit";
import { getStudio } from "@/lib/studio/studio";
import { AuditTable, ChainBadge } from "@/components/audit/AuditTable";
import { Card } from "@/components/ui/Card";
import { buttonClass } from "@/components/ui/button-styles";
import { pageDoor } from "@/app/_auth/door";

export const dynamic = "force-dynamic";
export const metadata = { title: "Audit" };

const text = (max: number) => z.string().trim().max(max).optional().catch(undefined);
const Query = z.object({
  action: text(64),
  actor: text(200),
  target: text(500),
  since: text(40),
  until: text(40),
  cursor: text(200),
});

const inputClass = "h-8 rounded-md border bg-background px-2";

export default async function AuditPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  await pageDoor("/audit");
  const q = Query.parse(await searchParams);
  const studio = await getStudio();

  const since = q.since ? parseInstant(q.since) : null;
  const until = q.until ? parseInstant(q.until, true) : null;
  const badTimes = [q.since && !since ? "since" : null, q.until && !until ? "until" : null].filter(Boolean);
  const filter: AuditFilter = {
    action: q.action || undefined,
    actor: q.actor || undefined,
    target: q.target || undefined,
    since: since ?? undefined,
    until: until ?? undefined,
    limit: 50,
  };

  // The chain check walks every entry on each page load: linear in the log's length (see the docs).
  const verifying = verifyShared(studio.audit).then(
    (r): { report: AuditVerifyReport | null; error: boolean } => ({ report: r, error: false }),
    (err) => {
      console.error("[tool-studio] audit chain check failed", err);
      return { report: null, error: true };
    },
  );
  let page;
  let cursorError = false;
  try {
    page = await studio.audit.list({ ...filter, cursor: q.cursor || undefined });
  } catch (err) {
    if (!AuditCursorError.isInstance(err)) throw err;
    cursorError = true;
    page = await studio.audit.list(filter);
  }
  const check = await verifying;

  const base = new URLSearchParams();
  for (const k of ["action", "actor", "target", "since", "until"] as const) if (q[k]) base.set(k, q[k]!);
  const next = page.nextCursor ? `/audit?${new URLSearchParams([...base, ["cursor", page.nextCursor]])}` : null;
  const filtered = [...base.keys()].length > 0;
  const actions: readonly string[] = AUDIT_ACTIONS;

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-start gap-3">
        <div>
          <h1 className="text-lg font-semibold tracking-tight">Audit log</h1>
          <p className="text-muted-foreground">Runs, config changes and server changes, newest first. Entries are hash-chained and can never be changed.</p>
        </div>
        <div className="ml-auto pt-1">
          <ChainBadge report={check.report} error={check.error} />
        </div>
      </div>
      <form method="get" className="flex flex-wrap items-center gap-2 rounded-lg border bg-card p-2" aria-label="Filter audit entries">
        <select name="action" defaultValue={q.action ?? ""} aria-label="Action" className={inputClass}>
          <option value="">All actions</option>
          {actions.map((a) => (
            <option key={a} value={a}>
              {a}
            </option>
          ))}
          {q.action && !actions.includes(q.action) && <option value={q.action}>{q.action}</option>}
        </select>
        <input name="actor" defaultValue={q.actor ?? ""} placeholder="actor" aria-label="Actor" className={`${inputClass} w-36`} />
        <input name="target" defaultValue={q.target ?? ""} placeholder="target" aria-label="Target" className={`${inputClass} w-36`} />
        <input
          name="since"
          defaultValue={q.since ?? ""}
          placeholder="since (2026-11-30)"
          aria-label="Since (UTC date or ISO time)"
          className={`${inputClass} w-40`}
        />
        <input
          name="until"
          defaultValue={q.until ?? ""}
          placeholder="until (2026-11-30)"
          aria-label="Until (UTC date, inclusive, or ISO time)"
          className={`${inputClass} w-40`}
        />
        <button type="submit" className={buttonClass.secondary}>
          Apply
        </button>
        {filtered && (
          <Link href="/audit" className={buttonClass.ghost}>
            Clear
          </Link>
        )}
      </form>
      {badTimes.length > 0 && (
        <p role="alert" className="text-warning-foreground">
          Ignored {badTimes.join(" and ")}: use a UTC date (2026-11-30) or an ISO time (2026-11-30T14:05:00Z).
        </p>
      )}
      {cursorError && (
        <p role="alert" className="text-warning-foreground">
          That page link was not valid; showing the newest entries.
        </p>
      )}
      <Card bodyClassName="p-0">
        {page.entries.length === 0 && filtered ? (
          <p className="p-6 text-center text-muted-foreground">
            No entry matches these filters.{" "}
            <Link href="/audit" className="text-primary underline">
              Clear them
            </Link>
          </p>
        ) : (
          <AuditTable entries={page.entries} />
        )}
      </Card>
      <div className="flex items-center gap-2">
        {q.cursor && (
          <Link href={`/audit?${base}`} className={buttonClass.secondary}>
            ← Newest
          </Link>
        )}
        {next && (
          <Link href={next} className={buttonClass.secondary} data-testid="audit-next-page">
            Older →
          </Link>
        )}
        <span className="text-muted-foreground">
          {page.entries.length} {page.entries.length === 1 ? "entry" : "entries"} on this page
        </span>
      </div>
    </div>
  );
}
