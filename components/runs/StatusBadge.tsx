import type { RunStatus } from "@/lib/runs/types";
import { Badge, type Tone } from "@/components/ui/Badge";

const TONE: Record<RunStatus, Tone> = {
  queued: "neutral",
  running: "primary",
  success: "success",
  error: "danger",
  rejected: "warning",
  timeout: "danger",
  cancelled: "neutral",
  interrupted: "warning",
};

export function StatusBadge({ status }: { status: RunStatus }) {
  return (
    <Badge tone={TONE[status]} className="font-mono">
      <span className={`size-1.5 rounded-full bg-current ${status === "running" ? "animate-pulse" : ""}`} />
      {status}
    </Badge>
  );
}

export function formatDuration(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return "—";
  if (ms < 1000) return `${ms} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
  return `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
}
