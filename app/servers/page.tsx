import { ServersView } from "@/components/servers/ServersView";
import { allowRole } from "@/components/ui/permission";
import { getStudio } from "@/lib/studio/studio";
import { serverStatesFor } from "@/lib/servers/view";
import { pageDoor } from "@/app/_auth/door";

export const dynamic = "force-dynamic";
export const metadata = { title: "Servers" };

export default async function ServersPage() {
  const principal = await pageDoor("/servers");
  const studio = await getStudio();
  // Adding, enabling, disabling and removing servers are admin routes; the list is for everyone.
  const admin = allowRole(principal.role, "admin", "add, enable, disable or remove servers");
  return <ServersView initial={serverStatesFor(studio.mcp.states(), principal.role)} canAdmin={admin.allowed} reason={admin.reason} />;
}
