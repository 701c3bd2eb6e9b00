import { unescapeSegment } from "@/lib/json-pointer/pointer";
import Link from "next/link";
import type { Difference } from "@/lib/inference/compare";
import type { FieldSummary } from "@/lib/inference/schema";
import type { InferredPart, InferredShapes, OutputViolation } from "@/lib/inference/store";
import { JsonView } from "@/components/runs/JsonView";
import { Badge, type Tone } from "@/components/ui/Badge";
import { Card } from "@/components/ui/Card";
import { scrollRegion } from "@/components/ui/scroll-region";
import { SchemaActions } from "./SchemaActions";
import { AdoptSchema } from "./AdoptSchema";
import { ShapeRevisions } from "./ShapeRevisions";

// Everything shown here came from tool outputs and arguments: it is rendered as React text only.

function Section({
  title,
  badge,
  children,
  open = false,
  testId,
}: {
  title: string;
  badge?: React.ReactNode;
  children: React.ReactNode;
  open?: boolean;
  testId?: string;
}) {
  return (
    <details open={open} className="group border-b last:border-0" data-testid={testId}>
      <summary className="flex cursor-pointer select-none items-center gap-2 px-4 py-2.5 font-medium hover:bg-accent/50">
        <span className="text-muted-foreground transition group-open:rotate-90">▸</span>
        {title}
        {badge}
      </summary>
      <div className="space-y-3 px-4 pb-3">{children}</div>
    </details>
  );
}

const runs = (n: number) => `${n} run${n === 1 ? "" : "s"}`;

function cut(s: string, n = 48): string {
  return s.length > n ? s.slice(0, n - 1) + "…" : s;
}

function pct(x: number): string {
  if (x >= 1) return "100%";
  const p = x * 100;
  return p > 99 ? ">99%" : p < 1 && p > 0 ? "<1%" : `${Math.round(p)}%`;
}

const formatTime = (iso: string) => iso.replace("T", " ").slice(0, 19) + "Z";

function fieldLabel(path: string): string {
  if (path === "") return "(value)";
  const seg = path.slice(path.lastIndexOf("/") + 1);
  if (seg === "*") return "[ ]";
  if (seg === "~2") return "*";
  if (seg === "~3") return "{any other key}";
  return unescapeSegment(seg) || '""';
}

function rangeText(f: FieldSummary): string {
  const parts: string[] = [];
  if (f.number) parts.push(f.number.min === f.number.max ? `= ${f.number.min}` : `${f.number.min} … ${f.number.max}`);
  if (f.stringLength) parts.push(`len ${f.stringLength.min === f.stringLength.max ? f.stringLength.min : `${f.stringLength.min}–${f.stringLength.max}`}`);
  if (f.arrayLength) parts.push(`${f.arrayLength.min === f.arrayLength.max ? f.arrayLength.min : `${f.arrayLength.min}–${f.arrayLength.max}`} items`);
  return parts.join(" · ");
}

export function FieldTable({ fields }: { fields: FieldSummary[] }) {
  return (
    <div className="max-h-[520px] overflow-auto rounded-md border" {...scrollRegion("Inferred fields")}>
      <table className="w-full text-left text-[13px]" data-testid="inferred-fields">
        <thead className="sticky top-0 border-b bg-card text-[11px] uppercase tracking-wide text-muted-foreground">
          <tr>
            <th className="px-3 py-2 font-medium">Field</th>
            <th className="px-3 py-2 text-right font-medium">Present</th>
            <th className="px-3 py-2 font-medium">Types</th>
            <th className="px-3 py-2 font-medium">Format</th>
            <th className="px-3 py-2 font-medium">Examples</th>
            <th className="px-3 py-2 font-medium">Range</th>
          </tr>
        </thead>
        <tbody>
          {fields.map((f) => {
            const total = f.types.reduce((n, t) => n + t.count, 0);
            return (
              <tr key={f.path} className="border-b align-top last:border-0" data-testid="inferred-field">
                <td className="whitespace-nowrap px-3 py-1.5 font-mono text-[12px]" title={f.path || "(the value itself)"}>
                  <span style={{ paddingLeft: `${Math.min(f.depth, 12) * 14}px` }}>{fieldLabel(f.path)}</span>
                  {f.required && f.depth > 0 && !f.path.endsWith("/*") && (
                    <span className="ml-1 text-destructive" title="present every time">
                      *
                    </span>
                  )}
                </td>
                <td className="px-3 py-1.5 text-right tabular-nums" title={`seen ${f.count} time${f.count === 1 ? "" : "s"}`}>
                  {f.perObject !== null ? `${f.perObject < 10 ? f.perObject.toFixed(1) : Math.round(f.perObject)} / object` : pct(f.presence)}
                </td>
                <td className="px-3 py-1.5">
                  <div className="flex flex-wrap gap-1">
                    {f.types.map((t) => (
                      <Badge key={t.type} tone={t.type === "null" ? "neutral" : "primary"} title={`${t.count} of ${total}`}>
                        {t.type}
                        {f.types.length > 1 && <span className="opacity-70">{pct(t.count / total)}</span>}
                      </Badge>
                    ))}
                    {f.enum && (
                      <Badge tone="success" title={f.enum.map((v) => JSON.stringify(v)).join(", ")}>
                        enum {f.enum.length}
                      </Badge>
                    )}
                    {f.map && (
                      <Badge
                        tone={f.map.reason === "map" ? "success" : "warning"}
                        title={`${f.map.keys} key occurrence${f.map.keys === 1 ? "" : "s"} folded into one schema${f.map.keyPattern ? `; every key is a ${f.map.keyPattern}` : ""}`}
                      >
                        {f.map.reason === "map" ? "map" : "key limit"}
                        {f.map.keyPattern && <span className="opacity-70">{f.map.keyPattern} keys</span>}
                      </Badge>
                    )}
                  </div>
                </td>
                <td className="px-3 py-1.5">{f.format ? <Badge tone="success">{f.format}</Badge> : null}</td>
                <td className="max-w-[320px] px-3 py-1.5 font-mono text-[12px] text-muted-foreground">
                  {f.examples.map((e, i) => (
                    <div key={i} className="truncate" title={JSON.stringify(e)}>
                      {cut(JSON.stringify(e))}
                    </div>
                  ))}
                  {f.examples.length > 0 &&
                    (f.overflow ? (
                      <div className="text-[11px]">many distinct values</div>
                    ) : f.distinct !== null && f.distinct > f.examples.length ? (
                      <div className="text-[11px]">{f.distinct} distinct</div>
                    ) : null)}
                </td>
                <td className="whitespace-nowrap px-3 py-1.5 tabular-nums text-muted-foreground">{rangeText(f)}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

const DIFF_LABEL: Record<Difference["kind"], [string, Tone]> = {
  type_mismatch: ["type mismatch", "danger"],
  required_mismatch: ["required mismatch", "warning"],
  undeclared: ["undeclared", "warning"],
  missing_in_observed: ["never observed", "neutral"],
};

export function DifferenceList({ differences, what }: { differences: Difference[]; what: string }) {
  if (!differences.length)
    return (
      <p className="text-muted-foreground" data-testid="inferred-no-differences">
        What was observed matches the declared {what}.
      </p>
    );
  return (
    <ul className="divide-y rounded-md border text-[13px]" data-testid="inferred-differences">
      {differences.map((d) => (
        <li key={`${d.kind} ${d.path}`} className="flex flex-wrap items-baseline gap-2 px-3 py-1.5">
          <Badge tone={DIFF_LABEL[d.kind][1]}>{DIFF_LABEL[d.kind][0]}</Badge>
          <code className="font-mono text-[12px]">{d.path || "(value)"}</code>
          <span className="text-muted-foreground">{d.message}</span>
        </li>
      ))}
    </ul>
  );
}

function ViolationList({ violations }: { violations: OutputViolation[] }) {
  if (!violations.length) return <p className="text-muted-foreground">No captured run violated the declared outputSchema.</p>;
  return (
    <ul className="divide-y rounded-md border text-[13px]" data-testid="inferred-violations">
      {violations.map((v) => (
        <li key={v.id} className="flex flex-wrap items-baseline gap-x-3 gap-y-0.5 px-3 py-1.5">
          <Link href={`/runs/${encodeURIComponent(v.id)}`} className="font-mono text-[12px] text-primary hover:underline">
            run {v.id.slice(0, 8)}
          </Link>
          <span className="tabular-nums text-muted-foreground">{formatTime(v.startedAt)}</span>
          <span className="min-w-0 flex-1 truncate" title={v.outputErrors.map((e) => `${e.path || "(value)"} ${e.message}`).join("; ")}>
            {v.outputErrors
              .slice(0, 3)
              .map((e) => `${e.path || "(value)"} ${e.message}`)
              .join("; ")}
            {v.outputErrors.length > 3 ? ` (+${v.outputErrors.length - 3})` : ""}
          </span>
        </li>
      ))}
    </ul>
  );
}

const TRUNCATION_LABEL = { keys: "key limit", paths: "path limit", depth: "depth limit" } as const;

function Truncations({ part }: { part: InferredPart }) {
  if (!part.truncated?.length) return null;
  return (
    <div className="rounded-md border border-warning/40 bg-warning/10 px-3 py-2 text-[13px]" data-testid="inferred-truncated" role="status">
      <p className="font-medium">A limit was hit: part of this shape is summarised or left open.</p>
      <ul className="mt-1 space-y-0.5">
        {part.truncated.map((t) => (
          <li key={`${t.reason} ${t.path}`} className="flex flex-wrap items-baseline gap-2">
            <Badge tone="warning">{TRUNCATION_LABEL[t.reason]}</Badge>
            <code className="font-mono text-[12px]">{t.path || "(value)"}</code>
            <span className="text-muted-foreground">{t.message}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}

function Observed({ part, fileName, exportHref, adopt }: { part: InferredPart; fileName: string; exportHref: string; adopt?: React.ReactNode }) {
  return (
    <>
      <Truncations part={part} />
      <div className="flex flex-wrap items-center gap-2">
        <span className="text-[13px] font-medium">Inferred JSON Schema</span>
        <span className="ml-auto" />
        {adopt}
        <SchemaActions schema={part.schema} fileName={fileName} exportHref={exportHref} />
      </div>
      <JsonView value={part.schema} />
      <FieldTable fields={part.fields} />
    </>
  );
}

/**
 * The shapes observed in a tool's runs: without an outputSchema, the inferred schema and its
 * fields; with one, where the observations and the declaration differ and which runs violated it.
 * The same for the arguments, collapsed.
 */
export function InferredShape({ toolName, shapes, adopt }: { toolName: string; shapes: InferredShapes; adopt?: { allowed: boolean; reason?: string | null } }) {
  const { output, arguments: args, declared } = shapes;
  const exportHref = (part: string) => `/api/tools/${encodeURIComponent(toolName)}/inferred-schema/download?part=${part}`;
  const adoptButton =
    adopt && output?.schema.type === "object" ? <AdoptSchema toolName={toolName} allowed={adopt.allowed} reason={adopt.reason ?? undefined} /> : undefined;
  const observedBadge = (p: InferredPart | null) => <Badge tone={p ? "primary" : "neutral"}>{p ? `Observed in ${runs(p.samples)}` : "no runs yet"}</Badge>;
  return (
    <Card title="Inferred shape" bodyClassName="p-0">
      <div data-testid="inferred-shape">
        {declared ? (
          <Section title="Output vs declared outputSchema" badge={observedBadge(output)} open testId="inferred-output">
            {output ? (
              <DifferenceList differences={shapes.differences ?? []} what="outputSchema" />
            ) : (
              <p className="text-muted-foreground">No structured output observed yet: run the tool to compare its output with the declared outputSchema.</p>
            )}
            <div>
              <h3 className="mb-1.5 text-[13px] font-medium">Runs that violated the outputSchema</h3>
              <ViolationList violations={shapes.violations ?? []} />
            </div>
            {output && (
              <details className="rounded-md border px-3 py-2">
                <summary className="cursor-pointer select-none text-[13px] font-medium">Observed output shape ({runs(output.samples)})</summary>
                <div className="mt-2 space-y-3">
                  <Observed part={output} fileName={`${toolName}.output`} exportHref={exportHref("output")} adopt={adoptButton} />
                </div>
              </details>
            )}
          </Section>
        ) : (
          <Section title="Output" badge={observedBadge(output)} open testId="inferred-output">
            {output ? (
              <>
                <p className="text-muted-foreground">
                  This tool declares no outputSchema. Observed in {runs(output.samples)}, its structured content has this shape.
                </p>
                <Observed part={output} fileName={`${toolName}.output`} exportHref={exportHref("output")} adopt={adoptButton} />
              </>
            ) : (
              <p className="text-muted-foreground">
                No structured output observed yet. This tool declares no outputSchema: run it and the shape of what it returns appears here.
              </p>
            )}
          </Section>
        )}
        <Section
          title="Output shape history"
          badge={
            <Badge tone={(shapes.revisions?.length ?? 0) > 1 ? "warning" : "neutral"}>
              {shapes.revisions?.length ?? 0} revision{shapes.revisions?.length === 1 ? "" : "s"}
            </Badge>
          }
          open={(shapes.revisions?.length ?? 0) > 1}
          testId="inferred-revisions"
        >
          <ShapeRevisions revisions={shapes.revisions ?? []} />
        </Section>
        <Section title="Arguments" badge={observedBadge(args)} testId="inferred-arguments">
          {args ? (
            <>
              {args.differences && (
                <div>
                  <h3 className="mb-1.5 text-[13px] font-medium">Observed vs declared inputSchema</h3>
                  <DifferenceList differences={args.differences} what="inputSchema" />
                </div>
              )}
              <Observed part={args} fileName={`${toolName}.arguments`} exportHref={exportHref("arguments")} />
            </>
          ) : (
            <p className="text-muted-foreground">No executed runs yet.</p>
          )}
        </Section>
      </div>
    </Card>
  );
}
