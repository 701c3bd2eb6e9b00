"use client";

import { useEffect, useState } from "react";
import { STRICT_TARGETS, TARGET_LABELS, sentSchema, type BuiltDefinition, type LintItem, type Target } from "@/lib/model-view/types";
import { JsonView } from "@/components/runs/JsonView";
import { TargetPicker } from "@/components/tools/TargetPicker";
import { SchemaActions } from "@/components/inference/SchemaActions";
import { Badge, type Tone } from "@/components/ui/Badge";
import { Card } from "@/components/ui/Card";

// Everything shown comes from the tool's own definition (names, descriptions, schemas): React text only.

const SEVERITY: Record<LintItem["severity"], { tone: Tone; label: string; advice: string }> = {
  rejected: {
    tone: "danger",
    label: "rejected",
    advice: "The provider refuses this as declared: change the tool's schema, or send the definition shown here.",
  },
  dropped: {
    tone: "warning",
    label: "ignored",
    advice: "The provider accepts it but ignores it: the model never sees this rule. Say it in the description, or check it in the tool.",
  },
  changed: { tone: "primary", label: "changed", advice: "Rewritten so the provider takes it: check that the meaning still holds." },
};

type State = { status: "loading" } | { status: "error"; message: string } | { status: "ok"; built: BuiltDefinition };

/**
 * What a model is given for this tool: the definition for a chosen provider (copy, download), its
 * token count, the lint a person can act on, and in strict mode the schema sent beside the tool's
 * own. Read from GET /api/tools/{name}/definition, the same answer an agent developer's script gets.
 */
export function ModelView({ tool, inputSchema }: { tool: string; inputSchema: unknown }) {
  const [target, setTarget] = useState<Target>("openai-chat");
  const [strict, setStrict] = useState(false);
  const [state, setState] = useState<State>({ status: "loading" });
  const canStrict = STRICT_TARGETS.includes(target);
  const strictOn = strict && canStrict;

  useEffect(() => {
    const ctrl = new AbortController();
    setState({ status: "loading" });
    const qs = new URLSearchParams({ for: target, ...(strictOn ? { strict: "true" } : {}) });
    fetch(`/api/tools/${encodeURIComponent(tool)}/definition?${qs}`, { cache: "no-store", signal: ctrl.signal })
      .then(async (res) => {
        const body = await res.json().catch(() => null);
        if (!res.ok) throw new Error(body?.error?.message ?? `The definition could not be built (HTTP ${res.status}).`);
        setState({ status: "ok", built: body as BuiltDefinition });
      })
      .catch((err: Error) => {
        if (!ctrl.signal.aborted) setState({ status: "error", message: err.message });
      });
    return () => ctrl.abort();
  }, [tool, target, strictOn]);

  const built = state.status === "ok" ? state.built : null;
  return (
    <div data-testid="model-view">
      <Card
        title="Model view"
        actions={built && <SchemaActions schema={built.definition} fileName={`${tool}.${target}${built.strict ? ".strict" : ""}.definition`} />}
        bodyClassName="space-y-3 p-4"
      >
        <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
          <TargetPicker value={target} onChange={setTarget} testId="model-view-target" labelClassName="text-[13px] font-medium" />
          <label className={`flex items-center gap-1.5 text-[13px] ${canStrict ? "" : "text-muted-foreground"}`}>
            <input type="checkbox" checked={strictOn} disabled={!canStrict} onChange={(e) => setStrict(e.target.checked)} data-testid="model-view-strict" />
            Strict mode{canStrict ? "" : ` (${TARGET_LABELS[target]} has none)`}
          </label>
          {built && (
            <p className="ml-auto text-[13px]" data-testid="model-view-tokens">
              <span className="font-semibold tabular-nums">{built.tokens.count.toLocaleString("en")}</span> tokens{" "}
              <span className="text-muted-foreground">
                ({built.tokens.tokenizer}
                {built.tokens.approximate ? ", an estimate" : ", exact for this JSON"})
              </span>
            </p>
          )}
        </div>

        {state.status === "loading" && <p className="text-[13px] text-muted-foreground">Building the definition…</p>}
        {state.status === "error" && (
          <p role="alert" className="text-[13px] text-destructive">
            {state.message}
          </p>
        )}
        {built && (
          <>
            {built.tokens.method && <p className="text-[12px] text-muted-foreground">How the count is made: {built.tokens.method}.</p>}
            {built.nameMapping && (
              <p className="rounded-md border border-warning/50 bg-warning/10 px-3 py-1.5 text-[13px]" data-testid="model-view-name">
                {TARGET_LABELS[target]} refuses the name <code className="font-mono">{built.nameMapping.name}</code>: it is sent as{" "}
                <code className="font-mono">{built.nameMapping.providerName}</code> (map the model&apos;s calls back by it).
              </p>
            )}
            {strict && canStrict && !built.strict && built.strictReason && (
              <p className="rounded-md border border-warning/50 bg-warning/10 px-3 py-1.5 text-[13px]" data-testid="model-view-strict-reason">
                Strict mode is not possible without changing what the schema means: {built.strictReason} The definition below is the non-strict one.
              </p>
            )}
            <LintList items={built.lint} />
            {built.strict ? (
              <div className="grid gap-3 xl:grid-cols-2">
                <div className="min-w-0">
                  <h3 className="mb-1 text-[12px] font-medium text-muted-foreground">The tool&apos;s input schema</h3>
                  <JsonView value={inputSchema} label="The tool's input schema" />
                </div>
                <div className="min-w-0">
                  <h3 className="mb-1 text-[12px] font-medium text-muted-foreground">Sent in strict mode</h3>
                  <JsonView value={sentSchema(target, built.definition)} label="The schema sent in strict mode" />
                </div>
              </div>
            ) : null}
            <div className="min-w-0">
              <h3 className="mb-1 text-[12px] font-medium text-muted-foreground">The definition, one entry of the request&apos;s tools</h3>
              <JsonView value={built.definition} label={`Definition for ${TARGET_LABELS[target]}`} />
            </div>
          </>
        )}
      </Card>
    </div>
  );
}

/** Findings that say the same thing (severity, keyword, message, fix, source) at several places, as one entry: 44 findings read as 12. */
function groupLint(items: LintItem[]): { item: LintItem; at: string[] }[] {
  const groups = new Map<string, { item: LintItem; at: string[] }>();
  for (const item of items) {
    const key = JSON.stringify([item.severity, item.keyword, item.message, item.fix ?? "", item.doc]);
    const g = groups.get(key);
    if (g) g.at.push(item.pointer);
    else groups.set(key, { item, at: [item.pointer] });
  }
  const order: LintItem["severity"][] = ["rejected", "dropped", "changed"];
  return [...groups.values()].sort((a, b) => order.indexOf(a.item.severity) - order.indexOf(b.item.severity));
}

function LintList({ items }: { items: LintItem[] }) {
  if (!items.length) {
    return (
      <p className="text-[13px] text-success" data-testid="model-view-lint-clean">
        Nothing here is refused, ignored or changed by this provider.
      </p>
    );
  }
  const groups = groupLint(items);
  return (
    <div>
      <h3 className="mb-1 text-[12px] font-medium text-muted-foreground">
        What the provider does with the tool as declared ({items.length} finding{items.length === 1 ? "" : "s"}
        {groups.length < items.length ? ` of ${groups.length} kinds` : ""})
      </h3>
      <ul className="divide-y rounded-md border" data-testid="model-view-lint">
        {groups.map(({ item, at }) => {
          const s = SEVERITY[item.severity];
          return (
            <li key={`${item.severity}-${item.keyword}-${item.message}-${at[0]}`} className="space-y-1 px-3 py-2 text-[13px]">
              <div className="flex flex-wrap items-center gap-2">
                <Badge tone={s.tone}>{s.label}</Badge>
                <code className="rounded bg-muted px-1 font-mono text-[12px]">{item.keyword}</code>
                <span className="min-w-0">{item.message}</span>
              </div>
              <div className="flex flex-wrap items-baseline gap-1 text-[12px]">
                <span className="text-muted-foreground">{at.length === 1 ? "At" : `At ${at.length} places:`}</span>
                {at.map((p, i) => (
                  <code key={`${p}-${i}`} className="break-all rounded border px-1 font-mono text-[11px]" data-testid="model-view-lint-at">
                    {p === "" ? "(root)" : p}
                  </code>
                ))}
              </div>
              <p className="text-[12px] text-muted-foreground">
                {item.fix ? `In the definition below: ${item.fix}. ` : ""}
                {s.advice}{" "}
                <a href={item.doc} target="_blank" rel="noreferrer noopener" className="text-primary underline">
                  Provider documentation
                </a>
              </p>
            </li>
          );
        })}
      </ul>
    </div>
  );
}
