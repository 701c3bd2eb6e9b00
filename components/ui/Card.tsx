import type { ReactNode } from "react";
import { scrollRegion } from "@/components/ui/scroll-region";

/**
 * A titled panel. `scrollLabel` marks a body that scrolls by itself (bodyClassName with overflow):
 * it becomes a named region a keyboard can focus and scroll.
 */
export function Card({
  title,
  actions,
  children,
  className = "",
  bodyClassName = "p-4",
  scrollLabel,
}: {
  title?: ReactNode;
  actions?: ReactNode;
  children: ReactNode;
  className?: string;
  bodyClassName?: string;
  scrollLabel?: string;
}) {
  return (
    <section className={`rounded-lg border bg-card text-card-foreground shadow-xs ${className}`}>
      {(title || actions) && (
        <header className="flex flex-wrap items-center gap-2 border-b px-4 py-2.5">
          <h2 className="text-[13px] font-semibold tracking-tight">{title}</h2>
          <div className="ml-auto flex flex-wrap items-center justify-end gap-2">{actions}</div>
        </header>
      )}
      <div className={bodyClassName} {...(scrollLabel ? scrollRegion(scrollLabel) : {})}>
        {children}
      </div>
    </section>
  );
}
