import { redactConfig, redactConfigText } from "@/lib/config/secrets";
import { ConfigEditor } from "@/components/settings/ConfigEditor";
import { allowRole } from "@/components/ui/permission";
import { pageDoor } from "@/app/_auth/door";
import { getStudio } from "@/lib/studio/studio";

export const dynamic = "force-dynamic";
export const metadata = { title: "Settings" };

export default async function SettingsPage() {
  const principal = await pageDoor("/settings");
  const studio = await getStudio();
  const store = studio.config.store;
  const state = store.current();
  const head = studio.config.head();
  const revision = head && { ...head, createdAt: head.createdAt.toISOString() };
  const raw = redactConfigText(store.raw());
  // Everyone may read the config; saving it (PUT /api/config) is for admins.
  const save = allowRole(principal.role, "admin", "change the config");
  return (
    <div className="space-y-4">
      <div>
        <h1 className="text-lg font-semibold tracking-tight">Settings</h1>
        <p className="text-muted-foreground">
          The runtime config: agents, channels, peers, groups, memory categories, option lists and MCP servers. Edit it here or in any editor; changes on disk
          apply at once (and reach every instance of the studio), and an invalid file never replaces the last good config.
        </p>
      </div>
      <ConfigEditor
        initial={{
          config: redactConfig(state.config),
          version: state.version,
          revision,
          loadedAt: state.loadedAt,
          path: state.path,
          error: state.error,
          configVersion: state.configVersion,
          raw,
        }}
        canSave={save.allowed}
        saveReason={save.reason}
      />
    </div>
  );
}
