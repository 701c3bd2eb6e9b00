"use client";
import { useCallback, useSyncExternalStore } from "react";

// Whether a panel the user opened stays open on their next visit (per browser, like the theme).
// Held here as well as in localStorage, so it still toggles where storage is refused.
const memory = new Map<string, boolean>();
const listeners = new Set<() => void>();

function subscribe(fn: () => void) {
  listeners.add(fn);
  window.addEventListener("storage", fn);
  return () => {
    listeners.delete(fn);
    window.removeEventListener("storage", fn);
  };
}

function read(key: string): boolean {
  const held = memory.get(key);
  if (held !== undefined) return held;
  try {
    return localStorage.getItem(key) === "shown";
  } catch {
    return false;
  }
}

/**
 * A remembered show/hide choice, hidden until the browser says otherwise (the server renders it
 * hidden, so what it sends never depends on the choice).
 */
export function useRememberedShown(key: string): [boolean, (shown: boolean) => void] {
  const shown = useSyncExternalStore(
    subscribe,
    () => read(key),
    () => false,
  );
  const set = useCallback(
    (value: boolean) => {
      memory.set(key, value);
      try {
        localStorage.setItem(key, value ? "shown" : "hidden");
      } catch {
        // storage refused (private mode, quota): the choice lasts for this page only
      }
      for (const fn of listeners) fn();
    },
    [key],
  );
  return [shown, set];
}
