/**
 * Props for a box that scrolls by itself (overflow: auto): a named region in the tab order, so a
 * keyboard can reach and scroll it (WCAG 2.1.1, axe `scrollable-region-focusable`).
 */
export function scrollRegion(label: string) {
  return { tabIndex: 0, role: "region", "aria-label": label } as const;
}
