import Link from "next/link";
import { UserMenu } from "@/components/auth/UserMenu";
import { NavLinks, NavMenu } from "./NavLinks";
import { ThemeToggle } from "./ThemeToggle";

export interface HeaderUser {
  name: string;
  actor: string;
  role: string;
  via: string;
}

/** The navigation shows only to someone signed in; everyone else sees the way to sign in. */
export function AppHeader({ user }: { user: HeaderUser | null }) {
  return (
    <header className="sticky top-0 z-30 border-b bg-background/85 backdrop-blur">
      <a
        href="#main"
        className="sr-only rounded-md bg-primary px-3 py-1.5 font-medium text-primary-foreground focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50"
      >
        Skip to content
      </a>
      {/* One row at every width: below `lg` the links collapse behind the Menu button, and the
          account name shrinks (truncated) before anything is pushed off the edge. */}
      <div className="mx-auto flex min-h-12 max-w-[1400px] items-center gap-x-3 px-4 sm:gap-x-6 sm:px-6">
        <Link href="/" className="flex shrink-0 items-center gap-2 font-semibold tracking-tight">
          {/* eslint-disable-next-line @next/next/no-img-element */}
          <img src="/icon.svg" alt="" width={22} height={22} />
          {/* The smallest phones (320 and 360 px) keep only the icon: the row would not fit. */}
          <span className="max-[374px]:sr-only">Tool Studio</span>
        </Link>
        {user && (
          <>
            <NavMenu />
            <NavLinks />
          </>
        )}
        <div className="ml-auto flex min-w-0 items-center gap-2">
          <ThemeToggle />
          {user ? (
            <UserMenu {...user} />
          ) : (
            <Link href="/sign-in" className="shrink-0 rounded-md px-2.5 py-1 text-muted-foreground hover:bg-accent hover:text-foreground">
              Sign in
            </Link>
          )}
        </div>
      </div>
    </header>
  );
}
