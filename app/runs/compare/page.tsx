import Link from "next/link";
import { diffJson, type DiffRow } from "@/lib/runs/diff";
import type { Run } from "@/lib/runs/types";
import { getStudio } from "@/lib/studio/studio";
import { ContentView } from "@/components/runs/ContentView";
import { JsonView } from "@/components/runs/JsonView";
import { formatDuration, StatusBadge } from "@/components/runs/StatusBadge";
import { Badge } from "@/components/ui/Badge";
import { Card } from "@/components/ui/Card";
import { allowRole } from "@/components/ui/permission";
import { pageDoor } from "@/app/_auth/door";

export const dynamic = "force-dynamic";
export const metadata = { title: "Compare runs" };

export default async function ComparePage({ searchParams }: { searchParams: Promise<{ run?: string | string[] }> }) {
  const principal = await pageDoor("/runs/compare");
  const readAccess = allowRole(principal.role, "runner", "read resources through a server");
  const ids = [(await searchParams).run ?? []].flat();
  const studio = await getStudio();
  const runs = (await Promise.all(ids.slice(0, 2).map((id) => studio.runs.get(id)))).filter((r): r is Run => r !== null);
  if (ids.length !== 2 || runs.length !== 2) {
    return (
      <div className="mx-auto max-w-lg py-16 text-center">
        <h1 className="text-lg font-semibold">Pick two runs to compare</h1>
        <p className="mt-1 text-muted-foreground">Tick exactly two runs in the history, then press “Compare two selected”.</p>
        <Link href="/runs" className="mt-4 inline-block text-primary underline">
          Back to the history
        </Link>
      </div>
    );
  }
  const [a, b] = runs as [Run, Run];
  const output = (r: Run) => (r.output ? { structuredContent: r.output.structuredContent, content: r.output.content } : null);
  return (
    <div className="space-y-4">
      <div>
        <Link href="/runs" className="text-[12px] text-muted-foreground hover:text-foreground">
          ← History
        </Link>
        <h1 className="mt-1 text-xl font-semibold tracking-tight">Compare runs</h1>
      </div>
      <div className="grid gap-4 md:grid-cols-2">
        {[a, b].map((r, i) => (
          <Card
            key={r.id}
            title={
              <span>
                {i === 0 ? "Left" : "Right"}:{" "}
                <Link href={`/runs/${r.id}`} className="font-mono text-primary hover:underline">
                  {r.id.slice(0, 8)}
                </Link>
              </span>
            }
          >
            <div className="flex flex-wrap items-center gap-2">
              <StatusBadge status={r.status} />
              <code className="font-mono">{r.tool}</code>
              <span className="text-muted-foreground">
                {formatDuration(r.durationMs)} · {r.startedAt.replace("T", " ").slice(0, 19)}Z
              </span>
              {r.error && (
                <Badge tone="danger" className="font-mono">
                  {r.error.kind}
                </Badge>
              )}
            </div>
          </Card>
        ))}
      </div>
      <DiffCard title="Arguments" rows={diffJson(a.arguments, b.arguments)} />
      <DiffCard title="Output" rows={diffJson(output(a), output(b))} />
      <DiffCard title="Error" rows={diffJson(a.error, b.error)} />
      {(a.output || b.output) && (
        <div className="grid gap-4 md:grid-cols-2" data-testid="compare-outputs">
          {[a, b].map((r, i) => (
            <Card key={r.id} title={`${i === 0 ? "Left" : "Right"} output`}>
              {r.output ? (
                <div className="space-y-3">
                  {r.output.structuredContent !== undefined && (
                    <JsonView value={r.output.structuredContent} label={`${i === 0 ? "Left" : "Right"} structured content`} />
                  )}
                  <ContentView
                    content={r.output.content}
                    structuredContent={r.output.structuredContent}
                    reader={{ server: r.source.startsWith("mcp:") ? r.source.slice(4) : null, access: readAccess }}
                  />
                </div>
              ) : (
                <p className="text-muted-foreground">No output{r.error ? `: ${r.error.kind}` : ""}.</p>
              )}
            </Card>
          ))}
        </div>
      )}
      <div className="grid gap-4 md:grid-cols-2">
        <Card title="Left arguments">
          <JsonView value={a.arguments} label="Left arguments" />
        </Card>
        <Card title="Right arguments">
          <JsonView value={b.arguments} label="Right arguments" />
        </Card>
      </div>
    </div>
  );
}

/** A cell of the diff: long values (base64 media, big texts) are cut, with their size said. */
function show(v: unknown): string {
  if (v === undefined) return "";
  const text = JSON.stringify(v) ?? String(v);
  if (text.length <= 240) return text;
  const looksBase64 = typeof v === "string" && /^[A-Za-z0-9+/]+={0,2}$/.test(v);
  return looksBase64
    ? `(base64, ${((v.length * 0.75) / 1024).toFixed(1)} KB; shown below)`
    : `${text.slice(0, 200)}… (${text.length.toLocaleString("en")} characters)`;
}

function DiffCard({ title, rows }: { title: string; rows: DiffRow[] }) {
  return (
    <Card title={`${title}: ${rows.length ? `${rows.length} difference${rows.length === 1 ? "" : "s"}` : "identical"}`} bodyClassName="p-0">
      {rows.length > 0 && (
        <table className="w-full table-fixed text-left font-mono text-[12px]" data-testid={`diff-${title.toLowerCase()}`}>
          <thead className="border-b text-[11px] uppercase tracking-wide text-muted-foreground">
            <tr>
              <th className="w-1/4 px-3 py-1.5">Path</th>
              <th className="px-3 py-1.5">Left</th>
              <th className="px-3 py-1.5">Right</th>
            </tr>
          </thead>
          <tbody>
            {rows.slice(0, 500).map((r) => (
              <tr key={r.path} className="border-b align-top last:border-0">
                <td className="break-all px-3 py-1">{r.path || "(root)"}</td>
                <td className={`break-all px-3 py-1 ${r.kind !== "added" ? "bg-destructive/10" : ""}`}>{show(r.left)}</td>
                <td className={`break-all px-3 py-1 ${r.kind !== "removed" ? "bg-success/10" : ""}`}>{show(r.right)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Card>
  );
}
