import Link from "next/link";
import { registryBudget } from "@/lib/model-view";
import { isTarget, TARGET_LABELS, TARGETS, type Target } from "@/lib/model-view/types";
import { getStudio } from "@/lib/studio/studio";
import { Badge } from "@/components/ui/Badge";
import { Card } from "@/components/ui/Card";
import { pageDoor } from "@/app/_auth/door";

export const dynamic = "force-dynamic";
export const metadata = { title: "Context budget" };

/** The heaviest tools listed here; the API answers every one. */
const SHOWN = 100;

const pct = (x: number) => (x >= 0.995 ? "100%" : x > 0 && x < 0.01 ? "<1%" : `${Math.round(x * 100)}%`);
const n = (x: number) => x.toLocaleString("en");

export default async function BudgetPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  await pageDoor("/budget");
  const asked = (await searchParams).for;
  const target: Target = isTarget(asked) ? asked : "openai-chat";
  const specs = await (await getStudio()).registry.specs();
  const b = registryBudget(specs, target);
  const heaviest = b.byTool[0]?.tokens ?? 0;
  return (
    <div className="space-y-4">
      <div>
        <h1 className="text-lg font-semibold tracking-tight">Context budget</h1>
        <p className="max-w-3xl text-muted-foreground">
          What giving an agent every registered tool costs before the user says a word: each tool&apos;s definition as {TARGET_LABELS[target]} is sent it,
          counted in tokens.
        </p>
      </div>
      <nav aria-label="Provider" className="flex flex-wrap gap-1" data-testid="budget-targets">
        {TARGETS.map((t) => (
          <Link
            key={t}
            href={`/budget?for=${t}`}
            aria-current={t === target ? "page" : undefined}
            className="rounded-md border px-2.5 py-1 text-[13px] text-muted-foreground hover:bg-accent hover:text-foreground aria-[current=page]:border-primary aria-[current=page]:bg-primary/10 aria-[current=page]:font-medium aria-[current=page]:text-foreground"
          >
            {TARGET_LABELS[t]}
          </Link>
        ))}
      </nav>

      <Card title="In all" bodyClassName="space-y-2 p-4">
        <p className="text-[15px]" data-testid="budget-total">
          <span className="text-2xl font-semibold tabular-nums">{n(b.tokens)}</span> tokens for <span className="font-semibold tabular-nums">{n(b.tools)}</span>{" "}
          tool{b.tools === 1 ? "" : "s"}
          <span className="text-muted-foreground">
            {" "}
            ({n(b.arrayTokens)} as the request&apos;s whole tools array; {b.tokenizer}
            {b.approximate ? ", an estimate" : ""})
          </span>
        </p>
        {b.method && <p className="text-[12px] text-muted-foreground">How the count is made: {b.method}.</p>}
        {b.warnings.map((w) => (
          <p
            key={w.limit.doc + w.limit.count}
            role="status"
            className={`rounded-md border px-3 py-1.5 text-[13px] ${w.limit.kind === "max" ? "border-destructive/40 bg-destructive/10" : "border-warning/50 bg-warning/10"}`}
            data-testid="budget-warning"
          >
            {w.message}{" "}
            <a className="text-primary underline" href={w.limit.doc} target="_blank" rel="noreferrer noopener">
              {w.limit.says}
            </a>
          </p>
        ))}
        {b.limits.length === 0 ? (
          <p className="text-[13px] text-muted-foreground">{TARGET_LABELS[target]} documents no limit on tools per request.</p>
        ) : (
          b.warnings.length === 0 && (
            <p className="text-[13px] text-muted-foreground">
              Within what {TARGET_LABELS[target]} documents: {b.limits.map((l) => l.says).join(" ")}
            </p>
          )
        )}
      </Card>

      <Card title="Per source" bodyClassName="p-0">
        <table className="w-full text-[13px]" data-testid="budget-sources">
          <thead className="text-left text-[12px] text-muted-foreground">
            <tr className="border-b">
              <th scope="col" className="px-4 py-2 font-medium">
                Source
              </th>
              <th scope="col" className="px-4 py-2 text-right font-medium">
                Tools
              </th>
              <th scope="col" className="px-4 py-2 text-right font-medium">
                Tokens
              </th>
              <th scope="col" className="px-4 py-2 text-right font-medium">
                Share
              </th>
            </tr>
          </thead>
          <tbody className="divide-y">
            {b.bySource.map((s) => (
              <tr key={s.source}>
                <td className="px-4 py-1.5">
                  <Badge>{s.source}</Badge>
                </td>
                <td className="px-4 py-1.5 text-right tabular-nums">{n(s.tools)}</td>
                <td className="px-4 py-1.5 text-right tabular-nums">{n(s.tokens)}</td>
                <td className="px-4 py-1.5 text-right tabular-nums">{pct(s.share)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </Card>

      <Card title={b.tools > SHOWN ? `The ${SHOWN} heaviest of ${n(b.tools)} tools` : "Per tool, heaviest first"} bodyClassName="p-0">
        <table className="w-full text-[13px]" data-testid="budget-tools">
          <thead className="text-left text-[12px] text-muted-foreground">
            <tr className="border-b">
              <th scope="col" className="px-4 py-2 font-medium">
                Tool
              </th>
              <th scope="col" className="hidden px-4 py-2 font-medium sm:table-cell">
                Source
              </th>
              <th scope="col" className="px-4 py-2 text-right font-medium">
                Tokens
              </th>
              <th scope="col" className="w-1/4 px-4 py-2 font-medium">
                <span className="sr-only">Weight</span>
              </th>
            </tr>
          </thead>
          <tbody className="divide-y">
            {b.byTool.slice(0, SHOWN).map((t) => (
              <tr key={t.name}>
                <td className="max-w-0 truncate px-4 py-1.5 font-mono text-[12px]">
                  <Link className="text-primary hover:underline" href={`/tools/${encodeURIComponent(t.name)}`} title={t.name}>
                    {t.name}
                  </Link>
                </td>
                <td className="hidden px-4 py-1.5 sm:table-cell">
                  <Badge>{t.source}</Badge>
                </td>
                <td className="px-4 py-1.5 text-right tabular-nums">
                  {n(t.tokens)} <span className="text-muted-foreground">({pct(t.share)})</span>
                </td>
                <td className="px-4 py-1.5" aria-hidden="true">
                  <div className="h-1.5 rounded-full bg-primary/70" style={{ width: `${heaviest ? Math.max(2, (t.tokens / heaviest) * 100) : 0}%` }} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {b.tools > SHOWN && (
          <p className="border-t px-4 py-2 text-[12px] text-muted-foreground">
            The other {n(b.tools - SHOWN)} are in{" "}
            <a className="text-primary underline" href={`/api/tools/budget?for=${target}`}>
              the full budget (JSON)
            </a>
            ; every one counts in the totals above.
          </p>
        )}
      </Card>
    </div>
  );
}
