import { getStudio } from "@/lib/studio/studio";
import { displayName } from "@/lib/tools/spec";
import { TriggerTester, type TriggerTool } from "@/components/triggers/TriggerTester";
import { pageDoor } from "@/app/_auth/door";

export const dynamic = "force-dynamic";
export const metadata = { title: "Triggers" };

export default async function TriggersPage() {
  await pageDoor("/triggers");
  const studio = await getStudio();
  const tools: TriggerTool[] = (await studio.registry.list())
    .map((t) => ({ name: t.name, title: displayName(t), triggers: [...new Set(t.invocationTriggers ?? [])] }))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));

  return (
    <div className="space-y-4">
      <div>
        <h1 className="text-lg font-semibold tracking-tight">Invocation triggers</h1>
        <p className="max-w-3xl text-muted-foreground">
          Phrases that nudge an agent toward a tool. Type a message to see which tools it would nudge toward: a trigger matches as a whole phrase, ignoring
          case, where it is not part of a longer word (letters and digits around it, in any script, prevent a match).
        </p>
      </div>
      <TriggerTester tools={tools} />
    </div>
  );
}
