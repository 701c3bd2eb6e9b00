import Link from "next/link";
import { notFound } from "next/navigation";
import { needsConfirmation, requiredRunRole } from "@/lib/auth/policy";
import { getStudio } from "@/lib/studio/studio";
import { JsonView } from "@/components/runs/JsonView";
import { RunOutput } from "@/components/runs/RunOutput";
import { RunModelView } from "@/components/runs/RunModelView";
import { formatTime } from "@/components/runs/RunTable";
import { formatDuration, StatusBadge } from "@/components/runs/StatusBadge";
import { RunAgainButton } from "@/components/runs/RunAgainButton";
import { Card } from "@/components/ui/Card";
import { scrollRegion } from "@/components/ui/scroll-region";
import { actorLabel } from "@/lib/auth/principal";
import { buttonClass } from "@/components/ui/button-styles";
import { allowRole, allowRun } from "@/components/ui/permission";
import { pageDoor } from "@/app/_auth/door";

export const dynamic = "force-dynamic";

export async function generateMetadata({ params }: { params: Promise<{ id: string }> }) {
  return { title: `Run ${(await params).id.slice(0, 8)}` };
}

export default async function RunPage({ params }: { params: Promise<{ id: string }> }) {
  const principal = await pageDoor("/runs/[id]");
  const { id } = await params;
  const studio = await getStudio();
  const run = await studio.runs.get(id);
  if (!run) notFound();
  // Why the tool crashed (a stack, a server's raw answer): for admins only, never callers or models.
  const detail = principal.role === "admin" && run.error ? await studio.runs.getErrorDetail(run.id) : null;
  const tool = await studio.registry.get(run.tool);
  const registered = Boolean(tool);
  // Run again: the runner role, and whatever the tool's run policy asks (the server checks both).
  const again = tool ? allowRun(principal.role, tool.spec.name, requiredRunRole(tool.spec, studio.config.store.current().config.runPolicy)) : null;

  const facts: [string, React.ReactNode][] = [
    [
      "Tool",
      registered ? (
        <Link className="font-mono text-primary hover:underline" href={`/tools/${encodeURIComponent(run.tool)}`}>
          {run.tool}
        </Link>
      ) : (
        <span className="font-mono">{run.tool} (no longer registered)</span>
      ),
    ],
    ["Source", run.source],
    ...(run.queuedAt ? ([["Queued", `${formatTime(run.queuedAt)}, priority ${run.priority ?? 0}`]] as [string, React.ReactNode][]) : []),
    ["Started", run.status === "queued" ? "— (waiting for a worker)" : formatTime(run.startedAt)],
    ["Finished", run.finishedAt ? formatTime(run.finishedAt) : "—"],
    ["Duration", formatDuration(run.durationMs)],
    ["Timeout", formatDuration(run.timeoutMs)],
    ["Origin", run.origin + (run.clientName ? ` (${run.clientName})` : "")],
    ["Actor", actorLabel(run.actor)],
    ["Agent", run.agent ?? "—"],
    [
      "Replay of",
      run.replayOf ? (
        <Link className="font-mono text-primary hover:underline" href={`/runs/${run.replayOf}`}>
          {run.replayOf.slice(0, 8)}
        </Link>
      ) : (
        "—"
      ),
    ],
    ...(run.retryOf
      ? ([
          [
            "Retry of",
            <span key="r">
              <Link className="font-mono text-primary hover:underline" href={`/runs/${run.retryOf}`}>
                {run.retryOf.slice(0, 8)}
              </Link>{" "}
              (attempt {run.attempt ?? 2}, by the queue policy)
            </span>,
          ],
        ] as [string, React.ReactNode][])
      : []),
    [
      "Spec hash",
      <code key="h" className="font-mono text-[12px]" title={run.specHash}>
        {run.specHash.slice(0, 16)}…
      </code>,
    ],
  ];

  return (
    <div className="space-y-4">
      <div>
        <Link href="/runs" className="text-[12px] text-muted-foreground hover:text-foreground">
          ← History
        </Link>
        <div className="mt-1 flex flex-wrap items-center gap-3">
          <h1 className="text-xl font-semibold tracking-tight">
            Run <span className="font-mono">{run.id.slice(0, 8)}</span>
          </h1>
          <StatusBadge status={run.status} />
          <span className="font-mono text-muted-foreground">{run.tool}</span>
          <div className="ml-auto flex items-start gap-2">
            {registered && (
              <Link className={buttonClass.secondary} href={`/tools/${encodeURIComponent(run.tool)}?fromRun=${run.id}`}>
                Open in form
              </Link>
            )}
            {tool && again && run.status !== "running" && run.status !== "queued" && (
              <RunAgainButton run={run} canRun={again.allowed} reason={again.reason} confirmBeforeRun={needsConfirmation(tool.spec)} />
            )}
          </div>
        </div>
        <p className="mt-1 font-mono text-[12px] text-muted-foreground">{run.id}</p>
      </div>
      <div className="grid gap-4 lg:grid-cols-[minmax(0,2fr)_minmax(0,1fr)]">
        <div className="space-y-4">
          <Card title="Arguments">
            <JsonView value={run.arguments} label="Arguments" />
          </Card>
          <Card title="Outcome">
            <RunOutput run={run} showLink={false} readAccess={allowRole(principal.role, "runner", "read resources through a server")} />
          </Card>
          {run.status !== "running" && run.status !== "queued" && <RunModelView runId={run.id} />}
          {detail && (
            <Card title="Operator detail" actions={<span className="text-[12px] text-muted-foreground">Admins only: callers and models never see it</span>}>
              <pre
                className="max-h-96 overflow-auto whitespace-pre-wrap break-words font-mono text-[12px]"
                data-testid="operator-detail"
                {...scrollRegion("Operator detail")}
              >
                {detail}
              </pre>
            </Card>
          )}
        </div>
        <Card title="Details" className="self-start">
          <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1.5">
            {facts.map(([k, v]) => (
              <div key={k} className="contents">
                <dt className="text-muted-foreground">{k}</dt>
                <dd className="min-w-0 break-words">{v}</dd>
              </div>
            ))}
          </dl>
        </Card>
      </div>
    </div>
  );
}
