import Link from "next/link";
import { notFound } from "next/navigation";
import { offersSubscriptions } from "@/lib/servers/follow";
import { getStudio } from "@/lib/studio/studio";
import { ServerBrowser } from "@/components/servers/ServerBrowser";
import { OAuthButtons } from "@/components/servers/OAuthButtons";
import { serverSignedIn } from "@/lib/servers/oauth";
import { serverStatesFor } from "@/lib/servers/view";
import { Badge } from "@/components/ui/Badge";
import { allowRole } from "@/components/ui/permission";
import { pageDoor } from "@/app/_auth/door";

export const dynamic = "force-dynamic";

type Props = { params: Promise<{ name: string }>; searchParams: Promise<{ signin?: string; signin_error?: string }> };

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
export default async function ServerPage({ params, searchParams }: Props) {
  const principal = await pageDoor("/servers/[name]");
  const name = serverNameOf((await params).name);
  const studio = await getStudio();
  const state = serverStatesFor(studio.mcp.states(), principal.role).find((s) => s.name === name);
  if (!state) notFound();
  const caps = state.capabilities ?? {};
  const has = (k: string) => typeof caps[k] === "object" && caps[k] !== null;
  const access = allowRole(principal.role, "runner", "read resources or get prompts");
  const admin = allowRole(principal.role, "admin", "sign the studio in to or out of servers");
  const servers = () => studio.config.store.current().config.mcpServers;
  const signedIn = await serverSignedIn({ oauth: studio.oauth, servers }, name).catch(() => false);
  const authRequired = state.enabled !== false && !!state.authRequired;
  const { signin, signin_error: signinError } = await searchParams;
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center gap-2">
        <Link href="/servers" className="text-primary hover:underline">
          Servers
        </Link>
        <span aria-hidden>/</span>
        <h1 className="text-lg font-semibold">{name}</h1>
        {authRequired ? <Badge tone="warning">sign-in required</Badge> : <Badge tone={state.state === "connected" ? "success" : "danger"}>{state.state}</Badge>}
        {state.serverInfo && (
          <span className="text-muted-foreground">
            {state.serverInfo.name} {state.serverInfo.version}
          </span>
        )}
        {signedIn && <Badge title="OAuth tokens are kept for this server, encrypted">signed in (OAuth)</Badge>}
        {signedIn && !authRequired && (
          <span className="ml-auto">
            <OAuthButtons server={name} authRequired={false} signedIn canAdmin={admin.allowed} reason={admin.reason} />
          </span>
        )}
      </div>
      {signin === "ok" && !signinError && state.state === "connected" && (
        <p role="status" className="rounded-md border border-success/40 bg-success/5 p-2" data-testid="signin-ok">
          Signed in: the studio holds tokens for this server now.
        </p>
      )}
      {signinError && (
        <p role="alert" className="rounded-md border border-destructive/40 bg-destructive/5 p-2 text-destructive" data-testid="signin-error">
          The sign-in did not complete: {signinError.slice(0, 500)}
        </p>
      )}
      {authRequired ? (
        <div className="flex flex-wrap items-center gap-3 rounded-md border border-warning/40 bg-warning/10 p-3" data-testid="server-signin">
          <p className="min-w-0 flex-1">
            This server asks for OAuth authorization. Sign in at its authorization server; the studio keeps the tokens encrypted and refreshes them when they
            expire. Its tools, resources and prompts are listed once it is connected.
          </p>
          <OAuthButtons server={name} authRequired signedIn={signedIn} canAdmin={admin.allowed} reason={admin.reason} />
        </div>
      ) : state.state !== "connected" ? (
        <p role="alert" className="rounded-md border border-destructive/40 bg-destructive/5 p-2 text-destructive">
          This server is {state.enabled === false ? "disabled" : state.state}
          {state.error ? `: ${state.error}` : ""}. Its resources and prompts can be browsed once it is connected.
        </p>
      ) : (
        <ServerBrowser
          server={name}
          hasResources={has("resources")}
          hasPrompts={has("prompts")}
          hasCompletions={has("completions")}
          hasSubscriptions={offersSubscriptions(caps)}
          access={access}
        />
      )}
    </div>
  );
}
