"use client";
import { useRouter } from "next/navigation";
import type { KeyboardEvent, MouseEvent, ReactNode } from "react";

/** A click or key on one of these inside a row is that control's, not the row's. */
const CONTROL = "a, button, input, select, textarea, label, summary, [role='button'], [data-row-control]";

/**
 * Keyboard and pointer for a table whose rows carry `data-href`: Up and Down move between rows (one
 * row is in the tab order at a time), Home and End jump, Enter opens the row's page, and a click
 * anywhere on a row opens it too (Ctrl/Cmd or middle click in a new tab, as its links do). Keys and
 * clicks on a control inside a row (a checkbox, a link) stay that control's; selecting text does not open it.
 */
export function TableRowKeys({ children }: { children: ReactNode }) {
  const router = useRouter();
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const row = e.target as HTMLElement;
    if (row.tagName !== "TR" || !row.dataset.href) return;
    if (e.key === "Enter") {
      e.preventDefault();
      router.push(row.dataset.href);
      return;
    }
    const rows = [...e.currentTarget.querySelectorAll<HTMLElement>("tr[data-href]")];
    const at = rows.indexOf(row);
    const to = { ArrowDown: at + 1, ArrowUp: at - 1, Home: 0, End: rows.length - 1 }[e.key];
    if (to === undefined || to < 0 || to >= rows.length) return;
    e.preventDefault();
    row.tabIndex = -1;
    rows[to].tabIndex = 0;
    rows[to].focus();
  };
  const open = (e: MouseEvent<HTMLDivElement>) => {
    const target = e.target as HTMLElement;
    const row = target.closest<HTMLElement>("tr[data-href]");
    if (!row?.dataset.href || !e.currentTarget.contains(row) || target.closest(CONTROL)) return;
    if (e.type === "click" && e.button !== 0) return;
    if (window.getSelection()?.toString()) return; // the user was selecting text (e.g. the arguments)
    if (e.ctrlKey || e.metaKey || e.shiftKey || e.button === 1) window.open(row.dataset.href, "_blank", "noopener");
    else router.push(row.dataset.href);
  };
  // Mouse users only: the row's links and Enter serve the keyboard and screen readers.
  return (
    <div onKeyDown={onKeyDown} onClick={open} onAuxClick={(e) => e.button === 1 && open(e)}>
      {children}
    </div>
  );
}
