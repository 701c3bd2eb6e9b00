"use client";

import { useEffect, useState } from "react";
import { TargetPicker } from "@/components/tools/TargetPicker";
import type { RunModelView as View } from "@/lib/model-view/result";
import { TARGET_LABELS, type Target } from "@/lib/model-view/types";
import { JsonView } from "@/components/runs/JsonView";
import { Badge, type Tone } from "@/components/ui/Badge";
import { Card } from "@/components/ui/Card";

// The result comes from a tool or a server: rendered as React text only.

const HOW: Record<View["carried"][number]["how"], Tone> = { carried: "success", changed: "primary", dropped: "warning" };

type State = { status: "loading" } | { status: "error"; message: string } | { status: "ok"; view: View };

/**
 * What the model gets back from this run, per provider: the tool-result message as the provider
 * receives it, what of the result each part becomes, and for a failed run the error the model is
 * told (the operator-only detail never goes to a model). Read from GET /api/runs/{id}/model-view.
 */
export function RunModelView({ runId }: { runId: string }) {
  const [target, setTarget] = useState<Target>("openai-chat");
  const [state, setState] = useState<State>({ status: "loading" });

  useEffect(() => {
    const ctrl = new AbortController();
    setState({ status: "loading" });
    fetch(`/api/runs/${encodeURIComponent(runId)}/model-view?for=${target}`, { cache: "no-store", signal: ctrl.signal })
      .then(async (res) => {
        const body = await res.json().catch(() => null);
        if (!res.ok) throw new Error(body?.error?.message ?? `The model's view could not be made (HTTP ${res.status}).`);
        setState({ status: "ok", view: body as View });
      })
      .catch((err: Error) => {
        if (!ctrl.signal.aborted) setState({ status: "error", message: err.message });
      });
    return () => ctrl.abort();
  }, [runId, target]);

  const view = state.status === "ok" ? state.view : null;
  return (
    <div data-testid="run-model-view">
      <Card
        title="What the model gets back"
        actions={
          <div className="flex items-center gap-2">
            <TargetPicker value={target} onChange={setTarget} testId="run-model-view-target" labelClassName="text-[12px] text-muted-foreground" />
          </div>
        }
        bodyClassName="space-y-3 p-4"
      >
        <div className="space-y-3">
          {state.status === "loading" && <p className="text-[13px] text-muted-foreground">Making the message…</p>}
          {state.status === "error" && (
            <p role="alert" className="text-[13px] text-destructive">
              {state.message}
            </p>
          )}
          {view && (
            <>
              {view.modelError && (
                <div className="rounded-md border border-destructive/40 bg-destructive/5 px-3 py-2 text-[13px]" data-testid="run-model-view-error">
                  <p>
                    The model is told: <span className="font-medium">{view.modelError.kind}</span>, “{view.modelError.message}”
                  </p>
                  <p className="text-[12px] text-muted-foreground">The operator-only detail of why it failed is never sent to a model.</p>
                </div>
              )}
              <ul className="divide-y rounded-md border" data-testid="run-model-view-carried">
                {view.carried.map((c) => (
                  <li key={c.pointer} className="flex flex-wrap items-center gap-2 px-3 py-1.5 text-[13px]">
                    <Badge tone={HOW[c.how]}>{c.how}</Badge>
                    <span className="font-medium">{c.what}</span>
                    <span className="min-w-0 text-muted-foreground">{c.message}</span>
                  </li>
                ))}
                {view.carried.length === 0 && <li className="px-3 py-1.5 text-[13px] text-muted-foreground">The result has no content.</li>}
              </ul>
              <p className="text-[13px]">
                <span className="font-semibold tabular-nums">{view.tokens.count.toLocaleString("en")}</span> tokens{" "}
                <span className="text-muted-foreground">
                  ({view.tokens.tokenizer}
                  {view.tokens.approximate ? ", an estimate" : ""})
                </span>{" "}
                <a className="text-[12px] text-primary underline" href={view.doc} target="_blank" rel="noreferrer noopener">
                  Provider documentation
                </a>
              </p>
              <JsonView value={view.message} label={`The message for ${TARGET_LABELS[target]}`} />
            </>
          )}
        </div>
      </Card>
    </div>
  );
}
