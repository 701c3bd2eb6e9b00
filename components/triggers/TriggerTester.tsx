"use client";
import Link from "next/link";
import { useEffect, useMemo, useRef, useState } from "react";
import { Loader2 } from "lucide-react";
import { MAX_MESSAGE_LENGTH, segmentMessage, type TriggerSpan } from "@/lib/triggers/match";
import { Badge } from "@/components/ui/Badge";
import { Card } from "@/components/ui/Card";
import { buttonClass } from "@/components/ui/button-styles";
import { reportError } from "@/components/ui/report-error";
import { scrollRegion } from "@/components/ui/scroll-region";

/** A tool as the page lists it: names and its triggers at page load. */
export interface TriggerTool {
  name: string;
  title: string;
  triggers: string[];
}

/** One entry of `POST /api/triggers/match`. */
interface ApiMatch {
  tool: string;
  title?: string;
  triggers: string[];
  spans: TriggerSpan[];
}

const EXAMPLES = [
  "please send this to marta",
  "add 2 and 40",
  "draw a chart of these numbers",
  "schedule a meeting with Ada on Friday",
  "query json for every user's email",
  "test error handling when the upstream fails",
];

const DEBOUNCE_MS = 200;

/**
 * Matches a message against the tools' triggers as you type. Matching runs on the server
 * (so the registry's live triggers are used); the message is shown with the matched phrases
 * in <mark> elements built from the returned spans — React text only, never raw HTML.
 */
export function TriggerTester({ tools }: { tools: TriggerTool[] }) {
  const [message, setMessage] = useState("");
  // Results and errors remember the message they are for, so a late answer never paints another text.
  const [result, setResult] = useState<{ message: string; matches: ApiMatch[] } | null>(null);
  const [error, setError] = useState<{ message: string; text: string } | null>(null);
  const box = useRef<HTMLTextAreaElement>(null);

  const empty = message.trim() === "";
  const pending = !empty && result?.message !== message && error?.message !== message;

  useEffect(() => {
    if (message.trim() === "") return;
    const ctrl = new AbortController();
    const load = async () => {
      try {
        const res = await fetch("/api/triggers/match", {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify({ message }),
          signal: ctrl.signal,
        });
        const body = (await res.json().catch(() => null)) as { matches?: ApiMatch[]; error?: { message?: string } } | null;
        if (!res.ok || !Array.isArray(body?.matches)) throw new Error(body?.error?.message ?? `The studio answered ${res.status}.`);
        setResult({ message, matches: body.matches });
      } catch (err) {
        if (ctrl.signal.aborted) return;
        setError({ message, text: err instanceof Error ? err.message : String(err) });
      }
    };
    const timer = setTimeout(() => {
      load().catch(reportError);
    }, DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      ctrl.abort();
    };
  }, [message]);

  const shown = !empty && result ? result : null;
  const matches = shown?.matches ?? [];
  const segments = useMemo(() => (shown ? segmentMessage(shown.message, shown.matches) : []), [shown]);
  const byName = useMemo(() => new Map(tools.map((t) => [t.name, t])), [tools]);
  const matchedTriggers = useMemo(() => new Map((shown?.matches ?? []).map((m) => [m.tool, new Set(m.triggers)])), [shown]);
  const currentError = !empty && error?.message === message ? error.text : null;

  const fill = (text: string) => {
    setMessage(text);
    box.current?.focus();
  };

  return (
    <div className="space-y-4">
      <div className="grid gap-4 lg:grid-cols-2">
        <Card
          title="Message"
          actions={
            message && (
              <button type="button" className={buttonClass.ghost} onClick={() => fill("")}>
                Clear
              </button>
            )
          }
        >
          <textarea
            ref={box}
            value={message}
            onChange={(e) => setMessage(e.target.value)}
            placeholder="Type a message an agent might receive…"
            aria-label="Message"
            maxLength={MAX_MESSAGE_LENGTH}
            rows={4}
            className="block w-full resize-y rounded-md border bg-background px-3 py-2 outline-none focus-visible:ring-2 focus-visible:ring-ring"
          />
          <div className="mt-2 flex flex-wrap items-center gap-1.5" role="group" aria-label="Example messages">
            <span className="text-[12px] text-muted-foreground">Try:</span>
            {EXAMPLES.map((ex) => (
              <button
                key={ex}
                type="button"
                onClick={() => fill(ex)}
                className="rounded-full border bg-card px-2.5 py-0.5 text-[12px] text-muted-foreground hover:border-primary/40 hover:bg-primary/10 hover:text-primary"
              >
                {ex}
              </button>
            ))}
          </div>
          {message.length > MAX_MESSAGE_LENGTH * 0.9 && (
            <p className="mt-2 text-[12px] text-muted-foreground">
              {message.length} / {MAX_MESSAGE_LENGTH} characters
            </p>
          )}
          {shown && (
            <div className="mt-3">
              <div className="mb-1 text-[11px] font-medium uppercase tracking-wide text-muted-foreground">Matched phrases</div>
              <p
                data-testid="trigger-preview"
                {...scrollRegion("Matched phrases")}
                aria-busy={pending || undefined}
                className={`max-h-64 overflow-auto whitespace-pre-wrap break-words rounded-md border bg-muted/40 px-3 py-2 leading-6 ${pending ? "border-dashed" : ""}`}
              >
                {segments.map((s) =>
                  s.hits ? (
                    <mark
                      key={s.start}
                      title={s.hits.map((h) => `“${h.trigger}” → ${h.tool}`).join("\n")}
                      data-tools={[...new Set(s.hits.map((h) => h.tool))].join(" ")}
                      className="rounded-sm bg-primary/15 text-foreground ring-1 ring-inset ring-primary/30"
                    >
                      {s.text}
                    </mark>
                  ) : (
                    <span key={s.start}>{s.text}</span>
                  ),
                )}
              </p>
            </div>
          )}
        </Card>

        <Card title="Nudges toward" actions={pending && <Loader2 className="size-4 animate-spin text-muted-foreground" aria-label="Matching" />}>
          <div aria-live="polite">
            {currentError ? (
              <p role="alert" className="text-destructive">
                Could not match: {currentError}
              </p>
            ) : empty ? (
              <p className="text-muted-foreground">Type a message, or pick an example, to see which tools its words nudge an agent toward.</p>
            ) : !shown ? (
              <p className="text-muted-foreground">Matching…</p>
            ) : matches.length === 0 ? (
              <p className="text-muted-foreground" data-testid="no-trigger-match">
                No tool&apos;s trigger occurs in this message.
              </p>
            ) : (
              <ul className="space-y-2" aria-label="Matched tools">
                {matches.map((m) => (
                  <li key={m.tool} data-testid="trigger-match" data-tool={m.tool}>
                    <Link
                      href={`/tools/${encodeURIComponent(m.tool)}`}
                      className="group flex flex-col gap-1.5 rounded-lg border bg-card p-3 shadow-xs transition hover:border-primary/40 hover:shadow-sm"
                    >
                      <div className="flex items-baseline gap-2">
                        <span className="font-semibold group-hover:text-primary">{byName.get(m.tool)?.title ?? m.title ?? m.tool}</span>
                        <code className="truncate font-mono text-[12px] text-muted-foreground">{m.tool}</code>
                        <span className="ml-auto text-[11px] text-muted-foreground">
                          {m.triggers.length} trigger{m.triggers.length === 1 ? "" : "s"} · {m.spans.length} occurrence{m.spans.length === 1 ? "" : "s"}
                        </span>
                      </div>
                      <div className="flex flex-wrap gap-1">
                        {m.triggers.map((t) => (
                          <Badge key={t} tone="primary" className="font-mono">
                            {t}
                          </Badge>
                        ))}
                      </div>
                    </Link>
                  </li>
                ))}
              </ul>
            )}
          </div>
        </Card>
      </div>

      <Card
        title="Every tool's triggers"
        actions={<span className="text-[11px] text-muted-foreground">as loaded with this page; matching uses the live list</span>}
        bodyClassName="p-0"
      >
        {tools.length === 0 ? (
          <p className="p-6 text-center text-muted-foreground">No tools are registered.</p>
        ) : (
          <div className="overflow-x-auto" {...scrollRegion("Every tool's triggers")}>
            <table className="w-full text-left text-[13px]" data-testid="trigger-table">
              <thead className="border-b text-[11px] uppercase tracking-wide text-muted-foreground">
                <tr>
                  <th className="px-3 py-2 font-medium">Tool</th>
                  <th className="px-3 py-2 font-medium">Triggers</th>
                </tr>
              </thead>
              <tbody>
                {tools.map((t) => {
                  const hit = matchedTriggers.get(t.name);
                  return (
                    <tr key={t.name} className={`border-b last:border-0 ${hit ? "bg-primary/5" : ""}`} data-testid="trigger-row" data-tool={t.name}>
                      {/* On a phone the name wraps (its id on a line of its own), leaving room for the triggers. */}
                      <td className="px-3 py-1.5 align-top sm:whitespace-nowrap">
                        <Link href={`/tools/${encodeURIComponent(t.name)}`} className="hover:text-primary hover:underline">
                          {t.title}
                        </Link>{" "}
                        {t.title !== t.name && <code className="font-mono text-[12px] text-muted-foreground max-sm:block">{t.name}</code>}
                      </td>
                      <td className="px-3 py-1.5">
                        {t.triggers.length === 0 ? (
                          <span className="italic text-muted-foreground">no triggers</span>
                        ) : (
                          <div className="flex flex-wrap gap-1">
                            {t.triggers.map((tr) => (
                              <Badge key={tr} tone={hit?.has(tr) ? "primary" : "neutral"} className="font-mono">
                                {tr}
                              </Badge>
                            ))}
                          </div>
                        )}
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        )}
      </Card>
    </div>
  );
}
