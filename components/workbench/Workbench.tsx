"use client";
import { pointerSegments } from "@/lib/json-pointer/pointer";
import { useRouter } from "next/navigation";
import Link from "next/link";
import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import type { ErrorSchema, RJSFSchema } from "@rjsf/utils";
import { Loader2, Play, Square, RotateCcw, ShieldX } from "lucide-react";
import { takesNoArguments } from "@/lib/forms/no-arguments";
import { pruneUnset } from "@/lib/forms/prune";
import type { Run } from "@/lib/runs/types";
import type { FieldError } from "@/lib/tools/errors";
import type { ToolSpec } from "@/lib/tools/spec";
import { RunTable } from "@/components/runs/RunTable";
import type { Allowance } from "@/components/ui/permission";
import { Card } from "@/components/ui/Card";
import { LoadBoundary } from "@/components/ui/LoadBoundary";
import { ConfirmDestructive } from "@/components/ui/ConfirmDestructive";
import { DisabledReason } from "@/components/ui/DisabledReason";
import { buttonClass } from "@/components/ui/button-styles";
import { ParamForm, type FormChange } from "./ParamForm";
import { PresetMenu } from "./PresetMenu";
import { AgentPicker, useDomainOptions } from "./use-domain-options";
import { domainUiSchema } from "./domain-options";
import { readRunStream, RunRequestError, type Progress } from "./run-stream";
import type { ResolvedInput } from "./InputRequests";
import type { PendingInputView } from "@/lib/execution/pending-input";
import { reportError } from "@/components/ui/report-error";
import { useRememberedShown } from "@/components/ui/use-remembered-shown";
import { JsonPreview, LazyJsonEditor, ShowEditorButton } from "./LazyJsonEditor";

const JSON_PANEL_ID = "tool-json-editor";

// The result viewers (JSON, images, resources, their dialogs) are needed only once a run ends:
// fetched when a run starts, not with the page. One promise, so the run's start and the render share it.
let runOutputChunk: Promise<{ default: typeof import("@/components/runs/RunOutput").RunOutput }> | undefined;
const loadRunOutput = () => (runOutputChunk ??= import("@/components/runs/RunOutput").then((m) => ({ default: m.RunOutput })));
const RunOutput = lazy(loadRunOutput);
// What a run may ask of the person mid-way (elicitation, sampling, URLs): fetched with the run too.
let inputRequestsChunk: Promise<{ default: typeof import("./InputRequests").InputRequests }> | undefined;
const loadInputRequests = () => (inputRequestsChunk ??= import("./InputRequests").then((m) => ({ default: m.InputRequests })));
const InputRequests = lazy(loadInputRequests);

type Props = {
  tool: ToolSpec;
  initialArgs: Record<string, unknown>;
  /** The agent of the run the form was opened from, if any. */
  initialAgent?: string | null;
  recentRuns: Run[];
  /** May the viewer run this tool (their role against the runner role and the tool's run policy). */
  canRun: boolean;
  /** Why not, shown beside the disabled Run button. */
  runReason?: string | null;
  /** May the viewer save presets (runner). */
  canSavePresets: boolean;
  presetReason?: string | null;
  /** The tool is destructive (needsConfirmation): Run asks first, then sends `confirm: true`. */
  confirmBeforeRun: boolean;
  /** May the viewer read the result's resource links through the tool's MCP server. */
  readAccess?: Allowance;
};

/** The run in flight: when it was sent, its id once the server has stored it, its last progress. */
type InFlight = { since: number; runId?: string; progress?: Progress; inputs: PendingInputView[]; resolved: ResolvedInput[] };

/** Seconds since `since`, redrawn ten times a second while a run is in flight. */
function useElapsed(since: number | undefined): string {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (since === undefined) return;
    setNow(Date.now());
    const t = setInterval(() => setNow(Date.now()), 100);
    return () => clearInterval(t);
  }, [since]);
  return since === undefined ? "" : `${(Math.max(0, now - since) / 1000).toFixed(1)} s`;
}

/**
 * Focus the result and make sure its status line shows below the sticky header (a tall result
 * scrolled into view by its bottom would hide it), scrolling only when it is not in view.
 */
function revealResult(el: HTMLElement | null) {
  if (!el) return;
  el.focus({ preventScroll: true });
  const headerBottom = document.querySelector("header.sticky")?.getBoundingClientRect().bottom ?? 0;
  const barTop = document.querySelector<HTMLElement>('[data-testid="run-bar"]')?.getBoundingClientRect().top ?? window.innerHeight;
  const top = el.getBoundingClientRect().top;
  if (top < headerBottom + 4 || top > barTop - 64) window.scrollBy({ top: top - headerBottom - 12 });
}

/** Why the run could not happen, when there is no run record to show. */
type Failure = { message: string; denied: boolean };

const pretty = (v: unknown) => JSON.stringify(v, null, 2);

/** What the live region says when a run ends (the result itself is read where the focus lands). */
function runSummary(run: Run, fieldErrors: number): string {
  const took = run.durationMs !== null && run.durationMs !== undefined ? ` in ${run.durationMs} ms` : "";
  if (fieldErrors) return `Run rejected: ${fieldErrors} field error${fieldErrors === 1 ? "" : "s"}. Focus is on the first.`;
  if (run.error) return `Run ${run.status}${took}: ${run.error.kind}, ${run.error.message}`;
  return `Run ${run.status}${took}.${run.outputValid === false ? " The output violates its schema." : ""}`;
}

/**
 * Focus the first field the server flagged (RJSF renders `<id>__error` beside it), once the form
 * has drawn the errors; a few frames at most.
 */
function focusFirstFieldError(form: HTMLElement | null, otherwise: () => void, tries = 10) {
  const error = form?.querySelector<HTMLElement>('[id$="__error"]');
  const field = error ? document.getElementById(error.id.slice(0, -"__error".length)) : null;
  if (field) {
    field.focus();
    // An error on the whole object (no single field to fix): the result says what is wrong.
    if (document.activeElement !== field) otherwise();
  } else if (tries > 0) requestAnimationFrame(() => focusFirstFieldError(form, otherwise, tries - 1));
  else otherwise();
}

/** Server field errors (JSON pointers) to RJSF's error tree, so they show beside the fields. */
function toErrorSchema(details: FieldError[]): ErrorSchema {
  const root: Record<string, unknown> = {};
  for (const d of details) {
    let node = root;
    for (const seg of pointerSegments(d.path)) {
      node = (node[seg] ??= {}) as Record<string, unknown>;
    }
    ((node.__errors ??= []) as string[]).push(d.message);
  }
  return root as ErrorSchema;
}

export function Workbench({
  tool,
  initialArgs,
  initialAgent = null,
  recentRuns,
  canRun,
  runReason = null,
  canSavePresets,
  presetReason = null,
  confirmBeforeRun,
  readAccess,
}: Props) {
  const [formData, setFormData] = useState<unknown>(initialArgs);
  const [args, setArgs] = useState<unknown>(initialArgs);
  const [jsonText, setJsonText] = useState(() => pretty(initialArgs));
  // Hidden until asked for (then remembered): Monaco is fetched only once it is shown.
  const [jsonShown, setJsonShown] = useRememberedShown("studio.toolJsonEditor");
  const [jsonError, setJsonError] = useState<string | null>(null);
  const [timeoutSec, setTimeoutSec] = useState<number>(Math.round((tool.timeoutMs ?? 30_000) / 1000));
  const [running, setRunning] = useState<InFlight | null>(null);
  const elapsed = useElapsed(running?.since);
  const [run, setRun] = useState<Run | null>(null);
  const [failure, setFailure] = useState<Failure | null>(null);
  const [confirming, setConfirming] = useState(false);
  const runButtonRef = useRef<HTMLButtonElement>(null);
  const [runs, setRuns] = useState(recentRuns);
  const [extraErrors, setExtraErrors] = useState<ErrorSchema | undefined>();
  const resultRef = useRef<HTMLDivElement>(null);
  const formRef = useRef<HTMLDivElement>(null);
  // Said by the live region: the run started, its progress, how it ended.
  const [announcement, setAnnouncement] = useState("");
  const router = useRouter();
  const [agent, setAgent] = useState<string | null>(initialAgent);
  const domains = useDomainOptions(tool, agent, args);
  const uiSchema = useMemo(() => domainUiSchema(tool.paramDomains), [tool.paramDomains]);

  // Who set the arguments last: the form (they are its data, unset fields pruned) or exact JSON
  // (typed or pasted in the editor, a preset, a run opened in the form), which is sent as it is.
  const source = useRef<"form" | "exact">(Object.keys(initialArgs).length ? "exact" : "form");
  const [exact, setExact] = useState(source.current === "exact"); // what the editor's caption says
  // The editor text the form last wrote (null once the user typed there).
  const shownText = useRef<string | null>(null);
  const setSource = (s: "form" | "exact") => {
    source.current = s;
    setExact(s === "exact");
  };
  // Any-JSON fields whose text does not parse (their last valid value is still in the data).
  const [fieldJsonErrors, setFieldJsonErrors] = useState<Record<string, string>>({});
  const onJsonFieldError = useCallback((id: string, error: string | null) => {
    setFieldJsonErrors((prev) => {
      if ((prev[id] ?? null) === error) return prev;
      const next = { ...prev };
      if (error) next[id] = error;
      else delete next[id];
      return next;
    });
  }, []);
  const formContext = useMemo(() => ({ ...domains.formContext, onJsonFieldError }), [domains.formContext, onJsonFieldError]);

  const onFormChange = ({ formData: data, fromField }: FormChange) => {
    setFormData(data);
    // RJSF re-deriving exact arguments (adding required defaults, a branch's const) is not the user
    // changing them: what is sent stays exactly what was typed until a field is edited.
    if (!fromField && source.current === "exact") return;
    setSource("form");
    setExtraErrors(undefined); // the server's field errors described the arguments as they were
    const cleaned = pruneUnset(data ?? {}, tool.inputSchema);
    setArgs(cleaned);
    shownText.current = pretty(cleaned);
    setJsonText(shownText.current);
    setJsonError(null);
  };

  /** Arguments to send exactly as given (a preset): shown in the form and the editor as they are. */
  const loadExact = (value: Record<string, unknown>) => {
    setSource("exact");
    setExtraErrors(undefined);
    setFormData(value);
    setArgs(value);
    shownText.current = pretty(value);
    setJsonText(shownText.current);
    setJsonError(null);
  };

  const onJsonChange = (text: string) => {
    // Monaco reports the text the form just put there too: that is not the user writing JSON.
    if (text === shownText.current) return;
    shownText.current = null;
    setJsonText(text);
    try {
      const parsed = JSON.parse(text);
      if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
        setJsonError("Arguments must be a JSON object.");
        return;
      }
      setSource("exact");
      setJsonError(null);
      setArgs(parsed);
      setFormData(parsed);
    } catch (e) {
      setJsonError(`Not valid JSON yet: ${(e as Error).message}`);
    }
  };
  const fieldJsonError = Object.values(fieldJsonErrors)[0] ?? null;
  const blocked = jsonError ?? (fieldJsonError ? `A JSON field does not parse: ${fieldJsonError}` : null);

  const refreshRuns = useCallback(async () => {
    const res = await fetch(`/api/runs?tool=${encodeURIComponent(tool.name)}&limit=8`, { cache: "no-store" });
    if (res.ok) setRuns((await res.json()).runs);
  }, [tool.name]);

  /** Sends the run; `confirmed` only after the person said yes to a destructive tool. */
  const execute = useCallback(
    async (confirmed: boolean) => {
      if (running || blocked || !canRun) return;
      setConfirming(false);
      setRunning({ since: Date.now(), inputs: [], resolved: [] });
      setFailure(null);
      setExtraErrors(undefined);
      setAnnouncement(`Running ${tool.name}…`);
      loadRunOutput().catch(() => {
        runOutputChunk = undefined; // shown in the result panel when it renders; try again then
      });
      loadInputRequests().catch(() => {
        inputRequestsChunk = undefined;
      });
      try {
        const res = await fetch(`/api/tools/${encodeURIComponent(tool.name)}/run`, {
          method: "POST",
          headers: { "Content-Type": "application/json", Accept: "application/x-ndjson" },
          body: JSON.stringify({
            arguments: args,
            timeoutMs: Math.max(1, Math.round(timeoutSec * 1000)),
            ...(agent ? { agent } : {}),
            ...(confirmed ? { confirm: true } : {}),
          }),
        });
        const final = await readRunStream(res, {
          started: (runId) => {
            setRunning((r) => (r ? { ...r, runId } : r));
            // The run is stored as running: show it in the recent runs while it is in flight.
            refreshRuns().catch(reportError);
          },
          input: (input) => {
            setRunning((r) => (r ? { ...r, inputs: [...r.inputs, input] } : r));
            setAnnouncement(`${input.server} asks for ${input.kind === "sampling" ? "a reply to a sampling request" : "input"}: see the result panel.`);
          },
          inputResolved: (e) => {
            setRunning((r) =>
              r
                ? {
                    ...r,
                    inputs: r.inputs.filter((i) => i.id !== e.inputId),
                    resolved: [...r.resolved, { inputId: e.inputId, outcome: e.outcome, action: e.action }],
                  }
                : r,
            );
            if (e.outcome !== "answered")
              setAnnouncement(e.outcome === "timeout" ? "The request for input timed out." : "The request for input ended with the run.");
          },
          progress: (progress) => {
            setRunning((r) => (r ? { ...r, progress } : r));
            setAnnouncement(`Progress ${progress.progress}${progress.total ? ` of ${progress.total}` : ""}${progress.message ? `: ${progress.message}` : ""}`);
          },
        });
        setRun(final);
        const fieldErrors = final.error?.details?.filter((d) => d.path !== "/confirm") ?? [];
        setAnnouncement(runSummary(final, fieldErrors.length));
        // Focus goes where the answer is: the first field to fix, else the result.
        if (fieldErrors.length) {
          setExtraErrors(toErrorSchema(fieldErrors));
          requestAnimationFrame(() => focusFirstFieldError(formRef.current, () => revealResult(resultRef.current)));
        } else requestAnimationFrame(() => revealResult(resultRef.current));
        // The server knew the tool as destructive when this page did not (its definition changed): ask now.
        if (!confirmed && final.status === "rejected" && final.error?.details?.some((d) => d.path === "/confirm")) setConfirming(true);
      } catch (e) {
        setFailure({ message: (e as Error).message, denied: e instanceof RunRequestError && e.denied });
        setAnnouncement(`The run did not start: ${(e as Error).message}`);
        requestAnimationFrame(() => revealResult(resultRef.current));
      } finally {
        setRunning(null);
        refreshRuns().catch(reportError);
        router.refresh(); // the server-rendered parts (inferred shapes) include this run now
      }
    },
    [args, blocked, running, canRun, timeoutSec, tool.name, refreshRuns, agent, router],
  );

  /** Run, Ctrl/⌘+Enter and the editor's run key: a destructive tool asks first. */
  const requestRun = useCallback(() => {
    if (running || blocked || !canRun) return;
    if (confirmBeforeRun) setConfirming(true);
    else execute(false).catch(reportError);
  }, [running, blocked, canRun, confirmBeforeRun, execute]);

  const cancelConfirm = () => {
    setConfirming(false);
    requestAnimationFrame(() => runButtonRef.current?.focus());
  };

  const cancel = async () => {
    if (running?.runId) await fetch(`/api/runs/${running.runId}/cancel`, { method: "POST" });
  };

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && e.key === "Enter") {
        e.preventDefault();
        requestRun();
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [requestRun]);

  const reset = () => {
    setSource("form");
    onFormChange({ formData: {}, fromField: false });
  };
  const progress = running?.progress;
  const pct = progress?.total ? Math.min(100, (progress.progress / progress.total) * 100) : undefined;

  return (
    <div className="space-y-4">
      <div className="grid gap-4 lg:grid-cols-2">
        <Card
          title="Parameters"
          actions={
            <>
              <PresetMenu
                tool={tool.name}
                args={args}
                agent={agent}
                canSave={canSavePresets}
                reason={presetReason}
                onLoad={(p) => {
                  loadExact(p.arguments as Record<string, unknown>);
                  if (p.agent) setAgent(p.agent);
                }}
              />
              <button type="button" className={buttonClass.ghost} onClick={reset} data-testid="reset-form">
                <RotateCcw className="size-3.5" />
                Reset
              </button>
            </>
          }
        >
          {domains.enabled && <AgentPicker state={domains} agent={agent} onAgent={setAgent} />}
          {takesNoArguments(tool.inputSchema) ? (
            <p className="text-muted-foreground" data-testid="no-arguments">
              This tool takes no arguments.
            </p>
          ) : (
            <div ref={formRef}>
              <ParamForm
                schema={tool.inputSchema as RJSFSchema}
                formData={formData}
                onChange={onFormChange}
                extraErrors={extraErrors}
                uiSchema={uiSchema}
                formContext={formContext}
              />
            </div>
          )}
        </Card>
        <Card
          className="self-start lg:sticky lg:top-16"
          title="Arguments (JSON)"
          actions={
            <>
              {blocked ? (
                <span className="text-[12px] text-destructive" role="status">
                  {blocked}
                </span>
              ) : (
                <span className="text-[12px] text-muted-foreground" data-testid="json-state">
                  {exact ? "sent exactly as written" : "in sync with the form"}
                </span>
              )}
              <ShowEditorButton shown={jsonShown} onShown={setJsonShown} controls={JSON_PANEL_ID} />
            </>
          }
        >
          <div id={JSON_PANEL_ID}>
            {jsonShown ? (
              <LazyJsonEditor
                label="Arguments (JSON)"
                value={jsonText}
                onChange={onJsonChange}
                schema={tool.inputSchema}
                modelPath={`inmemory://tool-studio/${tool.name}.args.json`}
                onRun={requestRun}
                height={420}
              />
            ) : (
              <JsonPreview text={jsonText} label="Arguments (JSON), read-only" maxHeight={420} />
            )}
          </div>
        </Card>
      </div>

      <div
        className="sticky bottom-0 z-20 -mx-1 flex flex-wrap items-center gap-3 rounded-lg border bg-card/95 px-3 py-2 shadow-sm backdrop-blur"
        data-testid="run-bar"
      >
        <button
          ref={runButtonRef}
          type="button"
          className={buttonClass.primary}
          onClick={requestRun}
          disabled={!canRun || !!running || !!blocked}
          title={!canRun ? (runReason ?? undefined) : undefined}
          aria-describedby={!canRun && runReason ? "run-disabled-reason" : undefined}
          aria-haspopup={canRun && confirmBeforeRun ? "dialog" : undefined}
          aria-expanded={canRun && confirmBeforeRun ? confirming : undefined}
          data-testid="run-button"
          data-confirm={confirmBeforeRun ? "destructive" : undefined}
        >
          <Play className="size-3.5" /> Run
        </button>
        {!canRun && runReason && <DisabledReason id="run-disabled-reason" reason={runReason} testId="run-disabled-reason" className="max-w-md" />}
        {canRun && confirming && !running && (
          <ConfirmDestructive toolName={tool.name} onConfirm={() => execute(true).catch(reportError)} onCancel={cancelConfirm} />
        )}
        {canRun && <kbd className="hidden rounded border bg-muted px-1.5 py-0.5 font-mono text-[11px] text-muted-foreground sm:inline">Ctrl/⌘ + Enter</kbd>}
        {running && (
          <button type="button" className={buttonClass.danger} onClick={cancel} disabled={!running.runId} data-testid="cancel-button">
            <Square className="size-3.5" /> Cancel
          </button>
        )}
        <label className="flex items-center gap-1.5 text-muted-foreground">
          Timeout
          <input
            type="number"
            min={1}
            max={600}
            value={timeoutSec}
            onChange={(e) => setTimeoutSec(Number(e.target.value) || 1)}
            className="h-7 w-16 rounded-md border bg-background px-2 text-right tabular-nums"
            aria-label="Timeout in seconds"
          />
          s
        </label>
        {running && (
          <div className="flex min-w-48 flex-1 items-center gap-2" data-testid="progress">
            <div
              className="h-1.5 flex-1 overflow-hidden rounded-full bg-muted"
              role="progressbar"
              aria-label="Run progress"
              aria-valuemin={0}
              aria-valuemax={100}
              aria-valuenow={pct}
            >
              <div
                className={`h-full rounded-full bg-primary transition-all ${pct === undefined ? "w-1/3 animate-pulse" : ""}`}
                style={pct !== undefined ? { width: `${pct}%` } : undefined}
              />
            </div>
            <span className="whitespace-nowrap text-[12px] text-muted-foreground">
              {running.inputs.length > 0 ? (
                <span className="font-medium text-primary" data-testid="run-waiting-input">
                  waiting for your input (the timeout is paused) ·{" "}
                </span>
              ) : null}
              {progress ? `${progress.progress}${progress.total ? ` / ${progress.total}` : ""}${progress.message ? ` · ${progress.message}` : ""}` : "running…"}
              <span className="ml-1.5 tabular-nums" data-testid="run-elapsed">
                {elapsed}
              </span>
            </span>
          </div>
        )}
      </div>

      <div className="grid gap-4 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
        <Card title="Result">
          <p role="status" aria-live="polite" className="sr-only" data-testid="run-announcer">
            {announcement}
          </p>
          <div
            data-testid="result-panel"
            ref={resultRef}
            tabIndex={-1}
            role="region"
            aria-label="Result"
            className="rounded-md"
            aria-busy={running ? true : undefined}
          >
            {failure &&
              (failure.denied ? (
                <DeniedNotice message={failure.message} />
              ) : (
                <p role="alert" className="text-destructive">
                  {failure.message}
                </p>
              ))}
            {!failure && !running && run?.status === "rejected" && run.error?.kind === "permission_denied" && <DeniedNotice recorded />}
            {running ? (
              <InFlightRun tool={tool.name} runId={running.runId} elapsed={elapsed} progress={progress}>
                {running.runId && (running.inputs.length > 0 || running.resolved.length > 0) && (
                  <LoadBoundary
                    what="the input requests"
                    fallback={(e) => (
                      <p role="alert" className="basis-full text-destructive">
                        The run asks for input, but its form could not load ({e.message}); Cancel stops the run, or answer through{" "}
                        <code>POST /api/runs/{running.runId}/input</code>.
                      </p>
                    )}
                  >
                    <Suspense
                      fallback={
                        <p className="basis-full text-muted-foreground" role="status">
                          The run asks for input; loading its form…
                        </p>
                      }
                    >
                      <InputRequests runId={running.runId} inputs={running.inputs} resolved={running.resolved} />
                    </Suspense>
                  </LoadBoundary>
                )}
              </InFlightRun>
            ) : run ? (
              <LoadBoundary
                key={run.id}
                what="the result view"
                fallback={(e) => (
                  <p role="alert" className="text-destructive">
                    The result view could not load ({e.message}); the run is stored:{" "}
                    <Link href={`/runs/${run.id}`} className="underline">
                      open run {run.id.slice(0, 8)}
                    </Link>
                    .
                  </p>
                )}
              >
                <Suspense
                  fallback={
                    <p className="text-muted-foreground" role="status">
                      Loading the result…
                    </p>
                  }
                >
                  <RunOutput run={run} readAccess={readAccess} />
                </Suspense>
              </LoadBoundary>
            ) : (
              !failure && (
                <p className="text-muted-foreground">
                  {canRun
                    ? "Fill the form (or the JSON) and press Run. The result and its run record appear here."
                    : "You can fill the form and look at the arguments; running needs a role you do not have."}
                </p>
              )
            )}
          </div>
        </Card>
        <Card
          title="Recent runs of this tool"
          bodyClassName="p-0"
          actions={
            <Link href={`/runs?tool=${encodeURIComponent(tool.name)}`} className="text-[12px] text-primary hover:underline">
              All →
            </Link>
          }
        >
          <RunTable runs={runs} showTool={false} compact />
        </Card>
      </div>
    </div>
  );
}

/** The result panel while a run is in flight: how long it has been going, its record once stored. */
function InFlightRun({
  tool,
  runId,
  elapsed,
  progress,
  children,
}: {
  tool: string;
  runId?: string;
  elapsed: string;
  progress?: Progress;
  children?: ReactNode;
}) {
  return (
    <div className="flex flex-wrap items-center gap-2" data-testid="run-in-flight">
      <Loader2 className="size-4 animate-spin text-primary" aria-hidden />
      <span className="font-medium">Running {tool}</span>
      <span className="tabular-nums text-muted-foreground" data-testid="in-flight-elapsed">
        {elapsed}
      </span>
      {progress && (
        <span className="text-muted-foreground">
          · {progress.progress}
          {progress.total ? ` of ${progress.total}` : ""}
          {progress.message ? `: ${progress.message}` : ""}
        </span>
      )}
      {runId ? (
        <Link href={`/runs/${runId}`} className="ml-auto font-mono text-[12px] text-primary hover:underline">
          run {runId.slice(0, 8)} →
        </Link>
      ) : (
        <span className="ml-auto text-[12px] text-muted-foreground">storing the run…</span>
      )}
      <p className="basis-full text-[12px] text-muted-foreground">The result shows here when it ends; Cancel stops it.</p>
      {children}
    </div>
  );
}

/** A run refused for the caller's role (403 permission_denied / forbidden), said plainly. */
function DeniedNotice({ message, recorded = false }: { message?: string; recorded?: boolean }) {
  return (
    <div role="alert" className="mb-3 flex items-start gap-2 rounded-md border border-destructive/40 bg-destructive/10 p-3" data-testid="run-denied">
      <ShieldX className="mt-0.5 size-4 shrink-0 text-destructive" aria-hidden />
      <div>
        <p className="font-medium text-destructive">Not allowed: your role may not run this tool.</p>
        {message && <p className="mt-0.5 text-[13px]">{message}</p>}
        {recorded && <p className="mt-0.5 text-[12px] text-muted-foreground">The refused attempt is recorded in the history; the reason is below.</p>}
      </div>
    </div>
  );
}
