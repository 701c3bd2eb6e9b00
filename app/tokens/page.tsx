import { ChangePassword } from "@/components/auth/ChangePassword";
import { TokensView } from "@/components/auth/TokensView";
import { actorLabel } from "@/lib/auth/principal";
import type { TokenInfo } from "@/lib/auth/tokens";
import { getStudio } from "@/lib/studio/studio";
import { pageDoor } from "@/app/_auth/door";

export const dynamic = "force-dynamic";
export const metadata = { title: "API tokens" };

export default async function TokensPage() {
  const principal = await pageDoor("/tokens");
  // The environment tokens (STUDIO_ADMIN_TOKEN, STUDIO_MCP_TOKEN) are no person: they own no tokens.
  const studio = await getStudio();
  const tokens: TokenInfo[] = principal.userId ? await studio.identity.tokens.list(principal.userId) : [];
  // Only people who sign in with a password can change it here (SSO users change theirs at their provider).
  const hasPassword =
    principal.via === "session" && principal.userId ? ((await studio.users.get(principal.userId))?.methods.includes("password") ?? false) : false;
  return (
    <div className="space-y-4">
      <TokensView
        tokens={tokens}
        role={principal.role}
        disabledReason={
          principal.userId
            ? undefined
            : `You are calling as ${actorLabel(principal.actor)}, an environment token: environment tokens cannot own personal tokens. Sign in as a person to create and manage API tokens.`
        }
      />
      {hasPassword && <ChangePassword />}
    </div>
  );
}
