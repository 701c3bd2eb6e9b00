"use client";
import { useDismiss } from "@/components/ui/use-dismiss";
import Link from "next/link";
import { usePathname } from "next/navigation";
import { useCallback, useId, useRef, useState } from "react";
import { Menu, X } from "lucide-react";

const LINKS = [
  { href: "/", label: "Tools", match: (p: string) => p === "/" || p.startsWith("/tools") },
  { href: "/budget", label: "Budget", match: (p: string) => p.startsWith("/budget") },
  { href: "/runs", label: "History", match: (p: string) => p.startsWith("/runs") },
  { href: "/triggers", label: "Triggers", match: (p: string) => p.startsWith("/triggers") },
  { href: "/servers", label: "Servers", match: (p: string) => p.startsWith("/servers") },
  { href: "/outbox", label: "Outbox", match: (p: string) => p.startsWith("/outbox") },
  { href: "/audit", label: "Audit", match: (p: string) => p.startsWith("/audit") },
  { href: "/settings", label: "Settings", match: (p: string) => p.startsWith("/settings") },
];

const linkClass =
  "rounded-md px-2.5 py-1 text-muted-foreground hover:bg-accent hover:text-foreground aria-[current=page]:bg-accent aria-[current=page]:text-foreground aria-[current=page]:font-medium";

/** The main navigation in a row, from the `lg` breakpoint up (below it, `NavMenu` holds the links). */
export function NavLinks() {
  const path = usePathname() ?? "/";
  return (
    <nav aria-label="Main" className="hidden items-center gap-1 lg:flex">
      {LINKS.map((l) => (
        <Link key={l.href} href={l.href} aria-current={l.match(path) ? "page" : undefined} className={linkClass}>
          {l.label}
        </Link>
      ))}
    </nav>
  );
}

/**
 * Below `lg` the seven links do not fit beside the name and the account menu (a phone, or a desktop
 * window at 200% zoom), so they collapse behind a Menu button: a disclosure (aria-expanded,
 * aria-controls) over a list of links, not an ARIA menu, so the links read as links. Escape or a
 * click outside closes it and Escape returns focus to the button; following a link closes it.
 */
export function NavMenu() {
  const path = usePathname() ?? "/";
  const [open, setOpen] = useState(false);
  const [openedAt, setOpenedAt] = useState(path);
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const closeMenu = useCallback(() => setOpen(false), []);
  const panelId = useId();

  // A new page (a link followed, or back/forward) closes the menu: adjusted while rendering, as React advises.
  if (open && openedAt !== path) setOpen(false);
  if (openedAt !== path) setOpenedAt(path);

  useDismiss(open, closeMenu, root, button);

  return (
    <div
      ref={root}
      className="lg:hidden"
      data-testid="nav-menu"
      // Tabbing past the last link closes the panel, so it never covers the focused control below it.
      onBlur={(e) => {
        if (open && e.relatedTarget instanceof Node && !root.current?.contains(e.relatedTarget)) setOpen(false);
      }}
    >
      <button
        ref={button}
        type="button"
        onClick={() => setOpen((o) => !o)}
        aria-expanded={open}
        aria-controls={panelId}
        className="inline-flex items-center gap-1.5 rounded-md px-2 py-1 font-medium hover:bg-accent aria-expanded:bg-accent"
        data-testid="nav-menu-button"
      >
        {open ? <X className="size-4" aria-hidden /> : <Menu className="size-4" aria-hidden />}
        Menu
      </button>
      {/* Positioned against the sticky header: full width, under it, over the page. Hidden (not
          removed) when closed, so aria-controls always names an element. */}
      <nav
        id={panelId}
        aria-label="Main"
        hidden={!open}
        className="absolute inset-x-0 top-full max-h-[calc(100dvh-3rem)] overflow-y-auto border-b bg-background px-4 py-2 shadow-md sm:px-6"
      >
        <ul className="mx-auto grid max-w-[1400px] gap-0.5">
          {LINKS.map((l) => (
            <li key={l.href}>
              <Link
                href={l.href}
                aria-current={l.match(path) ? "page" : undefined}
                onClick={() => setOpen(false)}
                className={`block py-2 text-[15px] ${linkClass}`}
              >
                {l.label}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
    </div>
  );
}
