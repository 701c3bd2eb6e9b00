/**
 * For work started from an event handler or timer that nobody awaits: the work shows its own
 * errors in the page; anything it did not foresee still reaches the console instead of vanishing.
 */
export function reportError(err: unknown): void {
  console.error("[tool-studio]", err);
}
