"use client";
import { useMemo } from "react";
import { RotateCcw, Save, HardDriveDownload, AlertTriangle, CheckCircle2, XCircle } from "lucide-react";
import { actorLabel } from "@/lib/auth/principal";
import type { ConfigError, ConfigIssue } from "@/lib/config/store";
import configSchema from "@/public/schemas/runtime-config.schema.json";
import { formatTime } from "@/components/runs/RunTable";
import { Badge } from "@/components/ui/Badge";
import { Card } from "@/components/ui/Card";
import { DisabledReason } from "@/components/ui/DisabledReason";
import { buttonClass } from "@/components/ui/button-styles";
import { reportError } from "@/components/ui/report-error";
import { useRememberedShown } from "@/components/ui/use-remembered-shown";
import { JsonPreview, LazyJsonEditor, ShowEditorButton } from "@/components/workbench/LazyJsonEditor";
import { ConfigSummary } from "./ConfigSummary";
import { useConfigSync, type ConfigSnapshot, type SaveProblem } from "./use-config-sync";

export type { ConfigSnapshot } from "./use-config-sync";
export { ConfigSummary } from "./ConfigSummary";

const EDITOR_ID = "config-text";

// The model lives at config/studio.jsonc, so the file's own `"$schema": "../public/schemas/…"`
// resolves to the URI the schema is registered under, and Monaco validates with it offline.
const MODEL_PATH = "inmemory://tool-studio/config/studio.jsonc";
const SCHEMA_URI = "inmemory://tool-studio/public/schemas/runtime-config.schema.json";

const SAVE_REASON_ID = "config-save-reason";

/**
 * The config file's editor. Saving needs the admin role (`canSave`): for anyone else the text is
 * read-only, Save stays in place disabled, and `saveReason` says why.
 */
export function ConfigEditor({ initial, canSave = true, saveReason = null }: { initial: ConfigSnapshot; canSave?: boolean; saveReason?: string | null }) {
  const { server, text, setText, dirty, saving, problem, newerOnDisk, savedAt, live, save, loadFromDisk, revert } = useConfigSync(initial, { canSave });
  // The refused lines, highlighted in the editor (a new array only when the problem changes).
  const problems = useMemo(() => problem?.details ?? [], [problem]);
  // The text shows at once; the editor (Monaco, fetched when first shown) on request, then remembered.
  const [editorShown, setEditorShown] = useRememberedShown("studio.configEditor");

  return (
    <div className="space-y-4" data-testid="config-editor">
      <div className="flex flex-wrap items-center gap-2 rounded-lg border bg-card px-3 py-2">
        <code className="font-mono text-[12px]" data-testid="config-path" title="The config file (STUDIO_CONFIG sets another)">
          {server.path}
        </code>
        <Badge tone="neutral" title={`Version ${server.version}: the hash of the file's text, the same on every instance`}>
          version {short(server.version)}
        </Badge>
        {server.revision && (
          <span
            className="text-[12px] text-muted-foreground"
            data-testid="config-revision"
            title={`Saved ${server.revision.createdAt} (${server.revision.source === "file" ? "an edit of the file" : "through the studio"})`}
          >
            revision {server.revision.id} by {actorLabel(server.revision.author)}
          </span>
        )}
        <span className="text-[12px] text-muted-foreground" title={server.loadedAt}>
          read {formatTime(server.loadedAt)}
        </span>
        <span className="ml-auto flex items-center gap-2">
          {dirty && <Badge tone="warning">unsaved edits</Badge>}
          <Badge tone={live === "live" ? "success" : "warning"} title="Changes to the file on disk show up here as they happen" dim={live === "connecting"}>
            <span data-testid="live-status">{live === "live" ? "live" : live === "connecting" ? "connecting…" : "reconnecting…"}</span>
          </Badge>
        </span>
      </div>

      {server.error && <DiskErrorBanner error={server.error} configVersion={server.configVersion} />}

      <div className="grid gap-4 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
        <Card
          title="studio.jsonc"
          actions={
            <>
              <SaveStatus saving={saving} problem={problem} saved={savedAt !== null ? short(server.version) : null} />
              <ShowEditorButton shown={editorShown} onShown={setEditorShown} controls={EDITOR_ID} showLabel={canSave ? "Edit" : "Open in the editor"} />
              <button type="button" className={buttonClass.secondary} onClick={revert} disabled={!dirty || saving} data-testid="config-revert">
                <RotateCcw className="size-3.5" /> Revert
              </button>
              {!canSave && saveReason && <DisabledReason id={SAVE_REASON_ID} reason={saveReason} testId="config-save-reason" className="max-w-xs" />}
              <button
                type="button"
                className={buttonClass.primary}
                onClick={() => save().catch(reportError)}
                disabled={!canSave || !dirty || saving}
                title={!canSave ? (saveReason ?? undefined) : undefined}
                aria-describedby={!canSave && saveReason ? SAVE_REASON_ID : undefined}
                data-testid="config-save"
              >
                <Save className="size-3.5" /> {saving ? "Saving…" : "Save"}
              </button>
            </>
          }
        >
          <div className="space-y-3">
            {problem && <SaveProblemBanner problem={problem} />}
            {newerOnDisk !== null && (
              <div
                role="status"
                className="flex flex-wrap items-center gap-2 rounded-md border border-warning/50 bg-warning/10 px-3 py-2"
                data-testid="config-changed-on-disk"
              >
                <AlertTriangle className="size-4 shrink-0 text-warning" />
                <span className="flex-1">
                  <strong className="font-medium">Changed on disk</strong> (now version {short(newerOnDisk)}) while you have unsaved edits here.
                </span>
                <button
                  type="button"
                  className={buttonClass.secondary}
                  onClick={() => loadFromDisk().catch(reportError)}
                  title="Replace your unsaved edits with the file as it is on disk"
                >
                  <HardDriveDownload className="size-3.5" /> Load from disk
                </button>
                <button
                  type="button"
                  className={buttonClass.danger}
                  onClick={() => save({ overwrite: true }).catch(reportError)}
                  disabled={saving || !canSave}
                  title={!canSave ? (saveReason ?? undefined) : "Save your text over the other change"}
                  aria-describedby={!canSave && saveReason ? SAVE_REASON_ID : undefined}
                >
                  Overwrite with mine
                </button>
              </div>
            )}

            <div id={EDITOR_ID}>
              {editorShown ? (
                <LazyJsonEditor
                  label="Runtime config (JSONC)"
                  value={text}
                  onChange={setText}
                  schema={configSchema}
                  schemaUri={SCHEMA_URI}
                  modelPath={MODEL_PATH}
                  jsonc
                  height={620}
                  readOnly={!canSave}
                  problems={problems}
                />
              ) : (
                <JsonPreview text={text} label="Runtime config (JSONC), read-only" maxHeight={620} />
              )}
            </div>

            <div className="flex flex-wrap items-center gap-2 text-[12px] text-muted-foreground">
              {canSave ? (
                <>
                  <kbd className="rounded border bg-muted px-1.5 py-0.5 font-mono text-[11px]">Ctrl/⌘ + S</kbd> saves. Comments and trailing commas are fine.
                </>
              ) : (
                <span data-testid="config-read-only">Read-only for your role: you can read and copy the config; an admin can change it.</span>
              )}
            </div>
          </div>
        </Card>

        <Card
          title={`In use${server.configVersion !== null ? ` (version ${short(server.configVersion)})` : " (empty default)"}`}
          className="self-start lg:sticky lg:top-16"
          bodyClassName="max-h-[calc(100vh-9rem)] overflow-auto p-4"
          scrollLabel="Config in use"
        >
          <ConfigSummary config={server.config} />
        </Card>
      </div>
    </div>
  );
}

/** `agents/0/channels/1` -> `agents[0].channels[1]`, as in the server's messages. */
function dotted(p: string): string {
  return p
    .split("/")
    .map((seg, i) => (/^\d+$/.test(seg) ? `[${seg}]` : i === 0 ? seg : `.${seg}`))
    .join("");
}

function IssueList({ issues, testId }: { issues: ConfigIssue[]; testId: string }) {
  if (!issues.length) return null;
  return (
    <ul className="mt-1.5 space-y-0.5 font-mono text-[12px]" data-testid={testId}>
      {issues.map((i, n) => (
        <li key={n}>
          <span className="text-muted-foreground">
            line {i.line}, col {i.column}
            {i.path ? ` · ${dotted(i.path)}` : ""}:
          </span>{" "}
          {i.message}
        </li>
      ))}
    </ul>
  );
}

function DiskErrorBanner({ error, configVersion }: { error: ConfigError; configVersion: string | null }) {
  const where = error.line > 0 ? `${error.file}:${error.line}:${error.column}` : error.file;
  const fallback =
    configVersion !== null ? `the last good config (version ${short(configVersion)}) is still in use` : "an empty config is in use until the file is fixed";
  const title =
    error.kind === "not_found"
      ? `${error.file} was not found`
      : error.kind === "io"
        ? `${error.file} could not be read`
        : `The config file on disk is invalid: ${where}`;
  return (
    <div role="alert" className="rounded-lg border border-destructive/40 bg-destructive/10 px-4 py-3 text-destructive" data-testid="config-disk-error">
      <p className="font-medium">
        {title}; {fallback}.
      </p>
      {error.issues.length === 0 && <p className="mt-1 font-mono text-[12px]">{error.message}</p>}
      <IssueList issues={error.issues} testId="config-disk-issues" />
      {error.kind === "not_found" && (
        <p className="mt-1">Write a config in the editor below and Save: that creates the file (config/studio.example.jsonc is a start).</p>
      )}
    </div>
  );
}

/**
 * The outcome of the last save, beside the Save button where the eye already is: the live region
 * for it (the banner under the toolbar holds the details).
 */
function SaveStatus({ saving, problem, saved }: { saving: boolean; problem: SaveProblem | null; saved: string | null }) {
  const first = problem?.details.find((d) => d.line > 0);
  return (
    <span role="status" aria-live="polite" className="inline-flex min-w-0 items-center gap-1 text-[12px]" data-testid="config-save-status">
      {saving ? (
        <span className="text-muted-foreground">Saving…</span>
      ) : problem ? (
        <span className="inline-flex items-center gap-1 font-medium text-destructive" data-testid="config-save-failed">
          <XCircle className="size-3.5 shrink-0" aria-hidden />
          Not saved{first ? `: line ${first.line}` : ""}
          {problem.details.length > 1 ? ` (+${problem.details.length - 1} more)` : ""}
        </span>
      ) : saved ? (
        <span className="inline-flex items-center gap-1 font-medium text-success" data-testid="config-saved">
          <CheckCircle2 className="size-3.5 shrink-0" aria-hidden />
          Saved: version {saved} is in use
        </span>
      ) : null}
    </span>
  );
}

function SaveProblemBanner({ problem }: { problem: SaveProblem }) {
  const head =
    problem.kind === "invalid_config"
      ? "Not saved: the text does not validate. Your edits are kept; fix them and save again."
      : problem.kind === "conflict"
        ? "Not saved: the file changed on disk since you loaded it."
        : "Not saved.";
  return (
    <div className="rounded-md border border-destructive/40 bg-destructive/10 px-3 py-2 text-destructive" data-testid="config-save-error">
      <p className="font-medium">{head}</p>
      <p className="mt-0.5 text-[12px]">{problem.message}</p>
      <IssueList issues={problem.details} testId="config-save-issues" />
    </div>
  );
}

/** A version as people read it: the first 12 hex digits of the hash. */
function short(version: string): string {
  return version.slice(0, 12);
}
