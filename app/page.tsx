import { ToolList } from "@/components/tools/ToolList";
import { getStudio } from "@/lib/studio/studio";
import { pageDoor } from "@/app/_auth/door";

export const dynamic = "force-dynamic";

export default async function ToolsPage({ searchParams }: { searchParams: Promise<{ source?: string; q?: string }> }) {
  await pageDoor("/");
  const { source, q } = await searchParams;
  const studio = await getStudio();
  const { tools, collisions } = await studio.registry.snapshot();
  const specs = tools.map((t) => t.spec);
  const excluded = studio.mcp.states().flatMap((s) => s.excluded.map((x) => ({ server: s.name, ...x })));
  return <ToolList tools={specs} initialSource={source} initialQuery={q} collisions={collisions} excluded={excluded} />;
}
