/** Shared button classes, so links and buttons look alike. */
export const buttonClass = {
  primary:
    "inline-flex items-center justify-center gap-1.5 rounded-md bg-primary px-3 py-1.5 text-[13px] font-medium text-primary-foreground shadow-xs hover:bg-primary/90 disabled:opacity-50 disabled:pointer-events-none",
  secondary:
    "inline-flex items-center justify-center gap-1.5 rounded-md border bg-card px-3 py-1.5 text-[13px] font-medium hover:bg-accent disabled:opacity-50 disabled:pointer-events-none",
  danger:
    "inline-flex items-center justify-center gap-1.5 rounded-md border border-destructive/40 bg-card px-3 py-1.5 text-[13px] font-medium text-destructive hover:bg-destructive/10 disabled:opacity-50",
  ghost: "inline-flex items-center gap-1 rounded-md px-2 py-1 text-[12px] text-muted-foreground hover:bg-accent hover:text-foreground",
} as const;
