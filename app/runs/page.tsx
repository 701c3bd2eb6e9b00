import Link from "next/link";
import { z } from "zod";
import { getStudio } from "@/lib/studio/studio";
import { RUN_STATUSES } from "@/lib/runs/types";
import { CursorError } from "@/lib/runs/store";
import { RunTable } from "@/components/runs/RunTable";
import { Card } from "@/components/ui/Card";
import { buttonClass } from "@/components/ui/button-styles";

export const dynamic = "force-dynamic";
export const metadata = { title: "History" };

const Query = z.object({
  tool: z.string().optional().catch(undefined),
  status: z.enum(RUN_STATUSES).optional().catch(undefined),
  cursor: z.string().optional().catch(undefined),
});

export default async function HistoryPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const q = Query.parse(await searchParams);
  const studio = await getStudio();
  const tools = (await studio.registry.list()).map((t) => t.name).sort();
  let page;
  let cursorError = false;
  try {
    page = await studio.runs.list({ tool: q.tool || undefined, status: q.status, cursor: q.cursor || undefined, limit: 50 });
  } catch (err) {
    if (!(err instanceof CursorError)) throw err;
    cursorError = true;
    page = await studio.runs.list({ tool: q.tool || undefined, status: q.status, limit: 50 });
  }
  const base = new URLSearchParams();
  if (q.tool) base.set("tool", q.tool);
  if (q.status) base.set("status", q.status);
  const next = page.nextCursor ? `/runs?${new URLSearchParams([...base, ["cursor", page.nextCursor]])}` : null;
  const filtered = Boolean(q.tool || q.status);

  return (
    <div className="space-y-4">
      <div>
        <h1 className="text-lg font-semibold tracking-tight">Run history</h1>
        <p className="text-muted-foreground">Every call of every tool, from the form, the API or MCP, newest first.</p>
      </div>
      <form method="get" className="flex flex-wrap items-center gap-2 rounded-lg border bg-card p-2" aria-label="Filter runs">
        <select name="tool" defaultValue={q.tool ?? ""} aria-label="Tool" className="h-8 rounded-md border bg-background px-2">
          <option value="">All tools</option>
          {tools.map((t) => <option key={t} value={t}>{t}</option>)}
          {q.tool && !tools.includes(q.tool) && <option value={q.tool}>{q.tool} (no longer registered)</option>}
        </select>
        <select name="status" defaultValue={q.status ?? ""} aria-label="Status" className="h-8 rounded-md border bg-background px-2">
          <option value="">Any status</option>
          {RUN_STATUSES.map((s) => <option key={s} value={s}>{s}</option>)}
        </select>
        <button type="submit" className={buttonClass.secondary}>Apply</button>
        {filtered && <Link href="/runs" className={buttonClass.ghost}>Clear</Link>}
      </form>
      {cursorError && <p role="alert" className="text-warning">That page link was not valid; showing the newest runs.</p>}
      <Card bodyClassName="p-0">
        {page.runs.length === 0 && filtered ? (
          <p className="p-6 text-center text-muted-foreground">No run matches these filters. <Link href="/runs" className="text-primary underline">Clear them</Link></p>
        ) : (
          <RunTable runs={page.runs} />
        )}
      </Card>
      <div className="flex items-center gap-2">
        {q.cursor && <Link href={`/runs?${base}`} className={buttonClass.secondary}>← Newest</Link>}
        {next && <Link href={next} className={buttonClass.secondary} data-testid="next-page">Older →</Link>}
        <span className="text-muted-foreground">{page.runs.length} run{page.runs.length === 1 ? "" : "s"} on this page</span>
      </div>
    </div>
  );
}
