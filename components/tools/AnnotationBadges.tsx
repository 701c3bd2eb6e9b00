import { annotationHint, type ToolSpec } from "@/lib/tools/spec";
import { Badge } from "@/components/ui/Badge";

/** The four MCP hints with their effective values; undeclared ones (spec defaults) are dimmed. */
export function AnnotationBadges({ spec }: { spec: Pick<ToolSpec, "annotations"> }) {
  const declared = (h: string) => typeof spec.annotations?.[h] === "boolean";
  const badge = (
    hint: "readOnlyHint" | "destructiveHint" | "idempotentHint" | "openWorldHint",
    on: [string, "success" | "danger" | "primary" | "neutral"],
    off: [string, "success" | "danger" | "primary" | "neutral"],
  ) => {
    const v = annotationHint(spec, hint);
    const [label, tone] = v ? on : off;
    return (
      <Badge key={hint} tone={tone} dim={!declared(hint)} title={`${hint}: ${v}${declared(hint) ? "" : " (spec default, not declared)"}`}>
        {label}
      </Badge>
    );
  };
  const readOnly = annotationHint(spec, "readOnlyHint");
  return (
    <span className="inline-flex flex-wrap gap-1">
      {badge("readOnlyHint", ["read-only", "success"], ["writes", "neutral"])}
      {/* destructiveHint only means something when the tool writes */}
      {!readOnly && badge("destructiveHint", ["destructive", "danger"], ["non-destructive", "neutral"])}
      {badge("idempotentHint", ["idempotent", "primary"], ["not idempotent", "neutral"])}
      {badge("openWorldHint", ["open world", "neutral"], ["closed world", "neutral"])}
    </span>
  );
}
