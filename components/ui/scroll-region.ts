/**
 * Props for a box that scrolls by itself (overflow: auto): a named region in the tab order, so a
 * keyboard can reach and scroll it (WCAG 2.1.1, axe `scrollable-region-focusable`).
 */
export function scrollRegion(label: string) {
  return { tabIndex: 0, role: "region", "aria-label": label } as const;
}

/**
 * A named region for a table that scrolls sideways on a narrow screen, when every row holds a link
 * or button: tabbing to those scrolls it, so the box itself is no extra tab stop.
 */
export function tableRegion(label: string) {
  return { role: "region", "aria-label": label } as const;
}
