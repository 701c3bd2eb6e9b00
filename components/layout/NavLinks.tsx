"use client";
import Link from "next/link";
import { usePathname } from "next/navigation";

const LINKS = [
  { href: "/", label: "Tools", match: (p: string) => p === "/" || p.startsWith("/tools") },
  { href: "/runs", label: "History", match: (p: string) => p.startsWith("/runs") },
  { href: "/triggers", label: "Triggers", match: (p: string) => p.startsWith("/triggers") },
  { href: "/servers", label: "Servers", match: (p: string) => p.startsWith("/servers") },
  { href: "/outbox", label: "Outbox", match: (p: string) => p.startsWith("/outbox") },
  { href: "/audit", label: "Audit", match: (p: string) => p.startsWith("/audit") },
  { href: "/settings", label: "Settings", match: (p: string) => p.startsWith("/settings") },
];

export function NavLinks() {
  const path = usePathname() ?? "/";
  return (
    <nav aria-label="Main" className="flex items-center gap-1">
      {LINKS.map((l) => (
        <Link
          key={l.href}
          href={l.href}
          aria-current={l.match(path) ? "page" : undefined}
          className="rounded-md px-2.5 py-1 text-muted-foreground hover:bg-accent hover:text-foreground aria-[current=page]:bg-accent aria-[current=page]:text-foreground aria-[current=page]:font-medium"
        >
          {l.label}
        </Link>
      ))}
    </nav>
  );
}
