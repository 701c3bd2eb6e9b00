import type { ToolSpec } from "@/lib/tools/spec";
import { JsonView } from "@/components/runs/JsonView";
import { Card } from "@/components/ui/Card";

function Section({ title, children, open = false }: { title: string; children: React.ReactNode; open?: boolean }) {
  return (
    <details open={open} className="group border-b last:border-0">
      <summary className="flex cursor-pointer select-none items-center gap-2 px-4 py-2.5 font-medium hover:bg-accent/50">
        <span className="text-muted-foreground transition group-open:rotate-90">▸</span>
        {title}
      </summary>
      <div className="px-4 pb-3">{children}</div>
    </details>
  );
}

/** Everything the tool declares, as declared. */
export function ToolDefinition({ tool }: { tool: ToolSpec }) {
  const { source, ...declared } = tool;
  return (
    <Card title="Definition" bodyClassName="p-0">
      <Section title="Input schema" open>
        <JsonView value={tool.inputSchema} label="Input schema" />
      </Section>
      <Section title={tool.outputSchema ? "Output schema" : "Output schema (none declared)"}>
        {tool.outputSchema ? (
          <JsonView value={tool.outputSchema} label="Output schema" />
        ) : (
          <p className="text-muted-foreground">This tool declares no outputSchema; its structured content is not checked.</p>
        )}
      </Section>
      <Section title="Annotations">
        {tool.annotations ? (
          <JsonView value={tool.annotations} label="Annotations" />
        ) : (
          <p className="text-muted-foreground">None declared: the MCP defaults apply (not read-only, destructive, not idempotent, open world).</p>
        )}
      </Section>
      {tool._meta && (
        <Section title="_meta">
          <JsonView value={tool._meta} label="_meta" />
        </Section>
      )}
      {tool.paramDomains && (
        <Section title="Option domains">
          <JsonView value={tool.paramDomains} label="Option domains" />
        </Section>
      )}
      {tool.invocationTriggers?.length ? (
        <Section title="Invocation triggers">
          <div className="flex flex-wrap gap-1">
            {tool.invocationTriggers.map((t) => (
              <code key={t} className="rounded bg-muted px-1.5 py-0.5 font-mono text-[12px]">
                {t}
              </code>
            ))}
          </div>
        </Section>
      ) : null}
      <Section title="Raw definition">
        <JsonView value={{ ...declared, source }} label="Raw definition" />
      </Section>
    </Card>
  );
}
