import { ServersView } from "@/components/servers/ServersView";
import { getStudio } from "@/lib/studio/studio";

export const dynamic = "force-dynamic";
export const metadata = { title: "Servers" };

export default async function ServersPage() {
  const studio = await getStudio();
  return <ServersView initial={studio.mcp.states()} />;
}
