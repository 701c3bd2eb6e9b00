import { ToolList } from "@/components/tools/ToolList";
import { getStudio } from "@/lib/studio/studio";

export const dynamic = "force-dynamic";

export default async function ToolsPage() {
  const studio = await getStudio();
  const tools = await studio.registry.list();
  return <ToolList tools={tools} />;
}
