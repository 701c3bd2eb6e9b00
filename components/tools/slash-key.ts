"use client";
import { useEffect, useEffectEvent } from "react";

/** Where a "/" is text the user types: fields, selects (type-to-find) and Monaco (whatever element it edits through). */
export function isTypingTarget(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable || target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement || target.closest(".monaco-editor")) return true;
  return target instanceof HTMLInputElement && !["checkbox", "radio", "button", "submit", "reset", "range", "color", "file"].includes(target.type);
}

/** "/" from anywhere on the page (except while typing) calls `onSlash`: the tool search's shortcut. */
export function useSlashKey(onSlash: () => void): void {
  const slash = useEffectEvent(onSlash);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== "/" || e.ctrlKey || e.metaKey || e.altKey || e.defaultPrevented || isTypingTarget(e.target)) return;
      e.preventDefault();
      slash();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);
}
