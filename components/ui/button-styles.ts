/** Shared button classes, so links and buttons look alike. A link is "disabled" with aria-disabled="true". */
export const buttonClass = {
  primary:
    "inline-flex items-center justify-center gap-1.5 rounded-md bg-primary px-3 py-1.5 text-[13px] font-medium text-primary-foreground shadow-xs hover:bg-primary/90 disabled:opacity-50 disabled:pointer-events-none aria-disabled:opacity-50 aria-disabled:pointer-events-none",
  secondary:
    "inline-flex items-center justify-center gap-1.5 rounded-md border bg-card px-3 py-1.5 text-[13px] font-medium hover:bg-accent disabled:opacity-50 disabled:pointer-events-none aria-disabled:opacity-50 aria-disabled:pointer-events-none",
  danger:
    "inline-flex items-center justify-center gap-1.5 rounded-md border border-destructive/40 bg-card px-3 py-1.5 text-[13px] font-medium text-destructive hover:bg-destructive/10 disabled:opacity-50 disabled:cursor-not-allowed",
  /** The button that goes ahead with something that cannot be undone. */
  dangerSolid:
    "inline-flex items-center justify-center gap-1.5 rounded-md bg-destructive px-3 py-1.5 text-[13px] font-medium text-destructive-foreground shadow-xs hover:bg-destructive/90 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-destructive disabled:opacity-50 disabled:pointer-events-none",
  ghost:
    "inline-flex items-center gap-1 rounded-md px-2 py-1 text-[12px] text-muted-foreground hover:bg-accent hover:text-foreground disabled:cursor-not-allowed disabled:opacity-50 disabled:hover:bg-transparent disabled:hover:text-muted-foreground",
} as const;
