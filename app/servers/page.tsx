import { ServersView } from "@/components/servers/ServersView";
import { getStudio } from "@/lib/studio/studio";
import { pageDoor } from "@/app/_auth/door";

export const dynamic = "force-dynamic";
export const metadata = { title: "Servers" };

export default async function ServersPage() {
  const principal = await pageDoor("/servers");
  const studio = await getStudio();
  return <ServersView initial={studio.mcp.states()} />;
}
