"use client";
import { useRouter } from "next/navigation";
import type { KeyboardEvent, ReactNode } from "react";

/**
 * Keyboard for a table whose rows carry `data-href`: Up and Down move between rows (one row is in
 * the tab order at a time), Home and End jump, Enter opens the row's page. Keys pressed on a
 * control inside a row (a checkbox, a link) stay that control's.
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
  return <div onKeyDown={onKeyDown}>{children}</div>;
}
