import { Lock } from "lucide-react";

/**
 * The reason a control is disabled, as a small muted line beside it. Give the control
 * `aria-describedby={id}` and `title={reason}` as well, so it is announced with the control.
 */
export function DisabledReason({
  id,
  reason,
  testId = "disabled-reason",
  className = "",
}: {
  id: string;
  reason: string;
  testId?: string;
  className?: string;
}) {
  return (
    <span id={id} className={`inline-flex items-start gap-1 text-[12px] leading-snug text-muted-foreground ${className}`} data-testid={testId}>
      <Lock className="mt-0.5 size-3 shrink-0" aria-hidden />
      <span>{reason}</span>
    </span>
  );
}
