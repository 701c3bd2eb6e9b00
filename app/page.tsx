import { ToolList } from "@/components/tools/ToolList";
import { getStudio } from "@/lib/studio/studio";
import { pageDoor } from "@/app/_auth/door";
import { toolSummary } from "@/lib/tools/summary";

export const dynamic = "force-dynamic";

const SHAPE_CHANGE_DAYS = 7;

export default async function ToolsPage() {
  await pageDoor("/");
  const studio = await getStudio();
  const { tools, collisions } = await studio.registry.snapshot();
  const summaries = tools.map((t) => toolSummary(t.spec));
  const excluded = studio.mcp.states().flatMap((s) => s.excluded.map((x) => ({ server: s.name, ...x })));
  // Flag tools whose observed output shape changed in the last 7 days.
  const changed = await studio.shapes.changedSince(new Date(Date.now() - SHAPE_CHANGE_DAYS * 86_400_000));
  const shapeChanged = Object.fromEntries([...changed].map(([name, at]) => [name, at.toISOString()]));
  return <ToolList tools={summaries} collisions={collisions} excluded={excluded} shapeChanged={shapeChanged} />;
}
