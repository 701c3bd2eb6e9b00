import type { ToolStats } from "@/lib/runs/stats";
import { formatDuration } from "./StatusBadge";

/** Count, success rate, latency and runs over time (failed part in red), as a small inline SVG. */
export function RunStatsView({ stats }: { stats: ToolStats }) {
  const max = Math.max(1, ...stats.series.map((p) => p.count));
  const W = 600;
  const H = 64;
  const n = stats.series.length;
  const bw = n ? W / n : W;
  const fmt = (n: number | null) => (n === null ? "—" : formatDuration(Math.round(n)));
  return (
    <div className="flex flex-wrap items-stretch gap-4 rounded-lg border bg-card p-3" data-testid="run-stats">
      <Fact label="Runs" value={stats.count.toLocaleString("en")} />
      <Fact label="Success rate" value={stats.successRate === null ? "—" : `${(stats.successRate * 100).toFixed(1)}%`} />
      <Fact label="p50" value={fmt(stats.p50Ms)} />
      <Fact label="p95" value={fmt(stats.p95Ms)} />
      <div className="min-w-64 flex-1">
        <div className="mb-1 text-[11px] uppercase tracking-wide text-muted-foreground">Runs per {stats.bucket} (failed in red)</div>
        {n === 0 ? (
          <p className="text-muted-foreground">No runs.</p>
        ) : (
          <svg viewBox={`0 0 ${W} ${H}`} preserveAspectRatio="none" className="h-16 w-full" role="img" aria-label={`Runs per ${stats.bucket}`}>
            {stats.series.map((p, i) => {
              const h = (p.count / max) * (H - 2);
              const fh = (p.failed / max) * (H - 2);
              return (
                <g key={p.t}>
                  <title>{`${p.t}: ${p.count} runs, ${p.failed} failed, p95 ${fmt(p.p95Ms)}`}</title>
                  <rect x={i * bw + bw * 0.1} y={H - h} width={Math.max(1, bw * 0.8)} height={h} className="fill-primary/60" />
                  {p.failed > 0 && <rect x={i * bw + bw * 0.1} y={H - fh} width={Math.max(1, bw * 0.8)} height={fh} className="fill-destructive/80" />}
                </g>
              );
            })}
          </svg>
        )}
      </div>
    </div>
  );
}

function Fact({ label, value }: { label: string; value: string }) {
  return (
    <div className="min-w-20">
      <div className="text-[11px] uppercase tracking-wide text-muted-foreground">{label}</div>
      <div className="text-lg font-semibold tabular-nums">{value}</div>
    </div>
  );
}
