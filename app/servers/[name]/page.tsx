import Link from "next/link";
import { notFound } from "next/navigation";
import { offersSubscriptions } from "@/lib/servers/follow";
import { getStudio } from "@/lib/studio/studio";
import { ServerBrowser } from "@/components/servers/ServerBrowser";
import { Badge } from "@/components/ui/Badge";
import { allowRole } from "@/components/ui/permission";
import { pageDoor } from "@/app/_auth/door";

export const dynamic = "force-dynamic";

type Props = { params: Promise<{ name: string }> };

export async function generateMetadata({ params }: Props) {
  return { title: `Server ${serverNameOf((await params).name)}` };
}

/** The server name of the path segment (as it is when it is not valid percent-encoding). */
function serverNameOf(param: string): string {
  try {
    return decodeURIComponent(param);
  } catch {
    return param;
  }
}

/** One MCP server's resources, templates and prompts (lists for viewers; reading and getting for runners). */
export default async function ServerPage({ params }: Props) {
  const principal = await pageDoor("/servers/[name]");
  const name = serverNameOf((await params).name);
  const studio = await getStudio();
  const state = studio.mcp.states().find((s) => s.name === name);
  if (!state) notFound();
  const caps = state.capabilities ?? {};
  const has = (k: string) => typeof caps[k] === "object" && caps[k] !== null;
  const access = allowRole(principal.role, "runner", "read resources or get prompts");
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center gap-2">
        <Link href="/servers" className="text-primary hover:underline">Servers</Link>
        <span aria-hidden>/</span>
        <h1 className="text-lg font-semibold">{name}</h1>
        <Badge tone={state.state === "connected" ? "success" : "danger"}>{state.state}</Badge>
        {state.serverInfo && <span className="text-muted-foreground">{state.serverInfo.name} {state.serverInfo.version}</span>}
      </div>
      {state.state !== "connected" ? (
        <p role="alert" className="rounded-md border border-destructive/40 bg-destructive/5 p-2 text-destructive">
          This server is {state.enabled === false ? "disabled" : state.state}{state.error ? `: ${state.error}` : ""}. Its resources and prompts can be browsed once it is connected.
        </p>
      ) : (
        <ServerBrowser server={name} hasResources={has("resources")} hasPrompts={has("prompts")} hasCompletions={has("completions")} hasSubscriptions={offersSubscriptions(caps)} access={access} />
      )}
    </div>
  );
}
