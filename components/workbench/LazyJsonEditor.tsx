"use client";
import { lazy, Suspense, useSyncExternalStore, type ComponentType } from "react";
import { AlertTriangle, Braces, EyeOff, Loader2, RotateCcw } from "lucide-react";
import { buttonClass } from "@/components/ui/button-styles";
import { LoadBoundary } from "@/components/ui/LoadBoundary";
import { scrollRegion } from "@/components/ui/scroll-region";
import type { JsonEditorProps } from "./JsonEditor";

// Monaco is about a megabyte gzipped, more than the rest of any page: its chunks are fetched only
// when this component first renders, that is when a JSON editor is shown, never with the page.
// One lazy component per attempt: React keeps a rejected import for good, so Retry needs a new one.
const attempts: ComponentType<JsonEditorProps>[] = [];
function editorFor(attempt: number): ComponentType<JsonEditorProps> {
  attempts[attempt] ??= lazy(() => import("./JsonEditor"));
  return attempts[attempt];
}

/**
 * The Monaco JSON editor, fetched when it first renders. While it loads: a placeholder of its
 * size that says so. If it cannot load (offline, a failed chunk): a message and Retry inside the
 * panel, and a plain text area editing the same text, so the page around it keeps working.
 */
export function LazyJsonEditor(props: JsonEditorProps) {
  const attempt = useSyncExternalStore(subscribeAttempt, currentAttempt, () => 0);
  const Editor = editorFor(attempt);
  return (
    <LoadBoundary key={attempt} what="the JSON editor" fallback={(error) => <EditorFailed error={error} onRetry={retry} {...props} />}>
      <Suspense fallback={<EditorLoading height={props.height} />}>
        <Editor {...props} />
      </Suspense>
    </LoadBoundary>
  );
}

// The attempt is shared by every editor on the page: they all come from the same chunks.
let attemptNo = 0;
const listeners = new Set<() => void>();
function subscribeAttempt(fn: () => void) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}
const currentAttempt = () => attemptNo;
function retry() {
  attemptNo++;
  for (const fn of listeners) fn();
}

function EditorLoading({ height = 360 }: { height?: number | string }) {
  return (
    <div
      className="flex items-start gap-2 rounded-md border bg-muted/40 p-3 text-muted-foreground"
      style={{ height }}
      role="status"
      data-testid="json-editor-loading"
    >
      <Loader2 className="mt-0.5 size-4 animate-spin" aria-hidden />
      Loading the JSON editor…
    </div>
  );
}

function EditorFailed({ error, onRetry, value, onChange, height = 360, readOnly, label = "JSON editor" }: JsonEditorProps & { error: Error; onRetry(): void }) {
  return (
    <div className="space-y-2" data-testid="json-editor-failed">
      <div role="alert" className="flex flex-wrap items-start gap-2 rounded-md border border-warning/50 bg-warning/10 px-3 py-2">
        <AlertTriangle className="mt-0.5 size-4 shrink-0 text-warning" aria-hidden />
        <span className="flex-1">
          <strong className="font-medium">The JSON editor could not load</strong> ({error.message || "unknown error"}). Edit the plain text below instead; it
          works the same.
        </span>
        <button type="button" className={buttonClass.secondary} onClick={onRetry} data-testid="json-editor-retry">
          <RotateCcw className="size-3.5" /> Retry
        </button>
      </div>
      <textarea
        className="block w-full resize-y rounded-md border bg-background p-2 font-mono text-[12.5px] leading-relaxed"
        style={{ height }}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        readOnly={readOnly}
        spellCheck={false}
        aria-label={label}
        data-testid="json-editor-fallback"
      />
    </div>
  );
}

/** Shows or hides a JSON editor; the first show is what fetches Monaco. */
export function ShowEditorButton({
  shown,
  onShown,
  controls,
  showLabel = "Edit as JSON",
}: {
  shown: boolean;
  onShown(shown: boolean): void;
  controls: string;
  showLabel?: string;
}) {
  return (
    <button
      type="button"
      className={buttonClass.ghost}
      aria-expanded={shown}
      aria-controls={controls}
      onClick={() => onShown(!shown)}
      data-testid={shown ? "hide-json-editor" : "show-json-editor"}
    >
      {shown ? <EyeOff className="size-3.5" aria-hidden /> : <Braces className="size-3.5" aria-hidden />}
      {shown ? "Hide editor" : showLabel}
    </button>
  );
}

/** The text while its editor is hidden: read-only and cheap, so what will be sent stays in view. */
export function JsonPreview({ text, label, maxHeight = 360 }: { text: string; label: string; maxHeight?: number | string }) {
  return (
    <pre
      className="overflow-auto rounded-md border bg-muted/30 p-3 font-mono text-[12.5px] leading-relaxed whitespace-pre"
      style={{ maxHeight }}
      {...scrollRegion(label)}
      data-testid="json-preview"
    >
      {text}
    </pre>
  );
}
