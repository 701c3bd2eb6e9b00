"use client";
import { useEffect, useId, useRef } from "react";
import { AlertTriangle } from "lucide-react";
import { buttonClass } from "./button-styles";

/**
 * Asks before running a destructive tool (needsConfirmation in lib/auth/policy.ts): shown in place
 * of / next to the run button. Focus moves to "Run it" when it appears; Escape or "Cancel" closes it.
 */
export function ConfirmDestructive({
  toolName,
  onConfirm,
  onCancel,
  className = "",
}: {
  toolName: string;
  onConfirm(): void;
  onCancel(): void;
  className?: string;
}) {
  const confirmRef = useRef<HTMLButtonElement>(null);
  const messageId = useId();
  useEffect(() => confirmRef.current?.focus(), []);
  return (
    <div
      role="alertdialog"
      aria-label="Confirm destructive run"
      aria-describedby={messageId}
      data-testid="confirm-destructive"
      className={`flex flex-wrap items-center gap-2 rounded-md border border-destructive/50 bg-destructive/10 px-3 py-1.5 ${className}`}
      onKeyDown={(e) => {
        if (e.key === "Escape") {
          e.preventDefault();
          e.stopPropagation();
          onCancel();
        }
      }}
    >
      <AlertTriangle className="size-4 shrink-0 text-destructive" aria-hidden />
      <span id={messageId} className="text-[13px]">
        <code className="font-mono font-medium">{toolName}</code> is marked destructive. Run it anyway?
      </span>
      <button ref={confirmRef} type="button" className={buttonClass.dangerSolid} onClick={onConfirm} data-testid="confirm-run">
        Run it
      </button>
      <button type="button" className={buttonClass.secondary} onClick={onCancel} data-testid="confirm-cancel">
        Cancel
      </button>
    </div>
  );
}
