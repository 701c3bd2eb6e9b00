import type { ReactNode } from "react";

// Text colours meet 4.5:1 on their tint in both themes (app/globals.css).
const TONES = {
  neutral: "bg-muted text-muted-foreground ring-border",
  primary: "bg-primary/10 text-primary ring-primary/25",
  success: "bg-success/10 text-success ring-success/30",
  warning: "bg-warning/15 text-warning-foreground ring-warning/40",
  danger: "bg-destructive/10 text-destructive ring-destructive/30",
} as const;

export type Tone = keyof typeof TONES;

/** `dim` (e.g. a value not declared, only defaulted) is a dashed outline without a fill, never faded text. */
export function Badge({
  tone = "neutral",
  children,
  title,
  dim,
  className = "",
}: {
  tone?: Tone;
  children: ReactNode;
  title?: string;
  dim?: boolean;
  className?: string;
}) {
  const look = dim ? `border border-dashed border-current/45 ${TONES[tone].split(" ")[1]}` : `ring-1 ring-inset ${TONES[tone]}`;
  return (
    <span
      title={title}
      data-dim={dim || undefined}
      className={`inline-flex items-center gap-1 whitespace-nowrap rounded-full px-2 py-0.5 text-[11px] font-medium leading-4 ${look} ${className}`}
    >
      {children}
    </span>
  );
}
