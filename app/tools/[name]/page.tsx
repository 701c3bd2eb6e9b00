import Link from "next/link";
import { notFound } from "next/navigation";
import { needsConfirmation, requiredRunRole } from "@/lib/auth/policy";
import { displayName } from "@/lib/tools/spec";
import { getStudio } from "@/lib/studio/studio";
import { AnnotationBadges } from "@/components/tools/AnnotationBadges";
import { ToolDefinition } from "@/components/tools/ToolDefinition";
import { ModelView } from "@/components/tools/ModelView";
import { Markdown } from "@/components/tools/Markdown";
import { ToolIcons } from "@/components/tools/ToolIcons";
import { ToolSidebar } from "@/components/tools/ToolSidebar";
import { Badge } from "@/components/ui/Badge";
import { allowRole, allowRun } from "@/components/ui/permission";
import { Workbench } from "@/components/workbench/Workbench";
import { InferredShape } from "@/components/inference/InferredShape";
import { pageDoor } from "@/app/_auth/door";

export const dynamic = "force-dynamic";

type Props = { params: Promise<{ name: string }>; searchParams: Promise<{ fromRun?: string }> };

export async function generateMetadata({ params }: Props) {
  return { title: toolNameOf((await params).name) };
}

export default async function ToolPage({ params, searchParams }: Props) {
  const principal = await pageDoor("/tools/[name]");
  const name = toolNameOf((await params).name);
  const { fromRun } = await searchParams;
  const studio = await getStudio();
  const tool = await studio.registry.get(name);
  if (!tool) notFound();
  const spec = tool.spec;

  // "Open in form": start from a captured run's arguments.
  const source = fromRun ? await studio.runs.get(fromRun) : null;
  const initialArgs = source && source.tool === name && isObject(source.arguments) ? source.arguments : {};
  const { runs } = await studio.runs.list({ tool: name, limit: 8 });
  const sidebar = (await studio.registry.list())
    .map((t) => ({ name: t.name, title: displayName(t), source: t.source.id }))
    .sort((a, b) => a.name.localeCompare(b.name));

  // What this person may do here (the server checks the same): run under the tool's run policy, keep presets.
  const run = allowRun(principal.role, spec.name, requiredRunRole(spec, studio.config.store.current().config.runPolicy));
  const presets = allowRole(principal.role, "runner", "save presets");

  return (
    <div className="gap-6 lg:grid lg:grid-cols-[15rem_minmax(0,1fr)]">
      <ToolSidebar tools={sidebar} current={spec.name} />
      <div className="mt-4 min-w-0 space-y-4 lg:mt-0">
        <div>
          <Link href="/" className="text-[12px] text-muted-foreground hover:text-foreground">
            ← All tools
          </Link>
          <div className="mt-1 flex flex-wrap items-center gap-3">
            <ToolIcons icons={spec.icons} />
            <h1 className="text-xl font-semibold tracking-tight">{displayName(spec)}</h1>
            <code className="rounded bg-muted px-1.5 py-0.5 font-mono text-[12px]">{spec.name}</code>
            <Badge>{spec.source.id}</Badge>
            <AnnotationBadges spec={spec} />
          </div>
          {spec.description && <Markdown className="mt-2 max-w-4xl text-muted-foreground">{spec.description}</Markdown>}
          {spec.unavailable && (
            <p role="status" className="mt-2 rounded-md border border-warning/50 bg-warning/10 px-3 py-1.5 text-[13px]">
              Unavailable: {spec.unavailable}. Its definition is the last one seen; runs fail until the server is back (see{" "}
              <Link className="text-primary underline" href="/servers">
                Servers
              </Link>
              ).
            </p>
          )}
          {source && (
            <p className="mt-2 rounded-md border border-primary/30 bg-primary/5 px-3 py-1.5 text-[13px]">
              Form filled from{" "}
              <Link className="font-mono text-primary hover:underline" href={`/runs/${source.id}`}>
                run {source.id.slice(0, 8)}
              </Link>
              .
            </p>
          )}
        </div>
        <Workbench
          key={source?.id ?? "fresh"}
          tool={spec}
          initialArgs={initialArgs}
          initialAgent={source?.agent}
          recentRuns={runs}
          canRun={run.allowed}
          runReason={run.reason}
          canSavePresets={presets.allowed}
          presetReason={presets.reason}
          confirmBeforeRun={needsConfirmation(spec)}
          readAccess={allowRole(principal.role, "runner", "read resources through a server")}
        />
        <InferredShape
          toolName={spec.name}
          shapes={await studio.shapes.get(spec.name, { outputSchema: spec.outputSchema, inputSchema: spec.inputSchema })}
          adopt={spec.source.kind === "runtime" ? allowRole(principal.role, "admin", "change the config") : undefined}
        />
        <ModelView tool={spec.name} inputSchema={spec.inputSchema} />
        <ToolDefinition tool={spec} />
      </div>
    </div>
  );
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** The tool name in the URL: percent-decoded when it still is encoded, else as it is (a name may contain "%"). */
function toolNameOf(param: string): string {
  try {
    return decodeURIComponent(param);
  } catch {
    return param;
  }
}
