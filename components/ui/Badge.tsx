import type { ReactNode } from "react";

const TONES = {
  neutral: "bg-muted text-muted-foreground ring-border",
  primary: "bg-primary/10 text-primary ring-primary/25",
  success: "bg-success/10 text-success ring-success/30",
  warning: "bg-warning/15 text-[color-mix(in_oklch,var(--warning)_70%,var(--foreground))] ring-warning/40",
  danger: "bg-destructive/10 text-destructive ring-destructive/30",
} as const;

export type Tone = keyof typeof TONES;

export function Badge({ tone = "neutral", children, title, dim, className = "" }: { tone?: Tone; children: ReactNode; title?: string; dim?: boolean; className?: string }) {
  return (
    <span
      title={title}
      className={`inline-flex items-center gap-1 whitespace-nowrap rounded-full px-2 py-0.5 text-[11px] font-medium leading-4 ring-1 ring-inset ${TONES[tone]} ${dim ? "opacity-60" : ""} ${className}`}
    >
      {children}
    </span>
  );
}
